"""The rule registry: an explicit list of families, each an explicit list of modules."""

from __future__ import annotations

from memlint.rules import du, fm, fs, gt, id, ix, lk, mx, nt, pv, su, ty

FAMILIES = (fs, fm, id, ix, lk, su, ty, du, nt, pv, gt, mx)

REGISTRY = {module.META.code: module for family in FAMILIES for module in family.RULES}

assert len(REGISTRY) == sum(len(family.RULES) for family in FAMILIES), "duplicate rule code"
