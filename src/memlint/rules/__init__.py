"""The rule registry: an explicit list of families, each an explicit list of its
modules (``RULES`` in the family package, by name).

Rule modules are imported when first needed: a run that reuses a cached
whole-store result imports only the few rules that run every time.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

FAMILIES = ("fs", "fm", "id", "ix", "lk", "su", "ty", "ct", "du", "nt", "pv", "gt", "mx")


def is_rule_name(name: object) -> bool:
    """Whether ``name`` is ``family.module`` of a listed rule (imports no rule)."""
    if not isinstance(name, str):
        return False
    family, _, module = name.partition(".")
    return family in FAMILIES and module in _family(family).RULES


def load_rule(name: str) -> ModuleType:
    """The rule module ``family.module`` (as ``rule_name`` gives it)."""
    if not is_rule_name(name):
        raise KeyError(name)
    family, _, module = name.partition(".")
    return importlib.import_module(f"memlint.rules.{family}.{module}")


def rule_name(module: ModuleType) -> str:
    """``family.module`` of a rule module: what ``load_rule`` takes."""
    return module.__name__.removeprefix("memlint.rules.")


@cache
def registry() -> dict[str, ModuleType]:
    """Every rule module by code (imports them all)."""
    found = {}
    for family in FAMILIES:
        for module in _family(family).RULES:
            rule = load_rule(f"{family}.{module}")
            found[rule.META.code] = rule
    assert len(found) == sum(len(_family(f).RULES) for f in FAMILIES), "duplicate rule code"
    return found


def rule_title(code: str) -> str:
    """The rule's name (``missing-frontmatter``), or ``""`` for a code no rule has."""
    module = registry().get(code)
    return module.META.name if module is not None else ""


def _family(family: str) -> ModuleType:
    return importlib.import_module(f"memlint.rules.{family}")
