"""The rule registry: an explicit list of families, each an explicit list of its
modules (``RULES`` in the family package, by name).

A rule is registered by one line: its module's name in its family's ``RULES``.
The module name starts with the rule's code in lower case (``fs001_…`` is FS001),
so codes, selection and ``--select`` validation need no rule imported. Rule
modules are imported when a run first needs one: only the selected rules, and
for a store without JSONL files none of the note rules; a run that reuses a
cached whole-store result imports only the few rules that run every time.
A rule that is off by default is also named in ``OFF_BY_DEFAULT`` (a test
checks both lists against the modules' ``META``).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

FAMILIES = ("fs", "fm", "id", "ix", "lk", "su", "ty", "ct", "du", "nt", "pv", "gt", "mx")
OFF_BY_DEFAULT = frozenset({"GT001", "IX012"})
# The rules that report what the engine finds itself, as their ``META.scope`` says (a test
# checks): suppression comments that suppressed nothing, and rules that crashed.
UNUSED_SUPPRESSION_RULE = "mx.mx001_unused_suppression"
CRASH_RULE = "mx.mx002_rule_crashed"
# Families whose every rule checks JSONL files (``Scope.NOTES``): skipped, unimported,
# for a store without a note store or other JSONL file.
NOTES_FAMILIES = frozenset({"nt"})


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


def rule_code(name: str) -> str:
    """The code of the rule ``family.module`` (``ix.ix007_…`` is IX007); imports no rule."""
    return name.partition(".")[2].partition("_")[0].upper()


def rule_module_name(code: str) -> str | None:
    """``family.module`` of the rule ``code`` (a module is named after its code, as
    ``ix007_index_line_too_long``), or ``None``; imports no rule."""
    family = code[:2].lower()
    if not (code.isalnum() and code.isupper()) or family not in FAMILIES:
        return None
    prefix = code.lower() + "_"
    return next(
        (f"{family}.{name}" for name in _family(family).RULES if name.startswith(prefix)), None
    )


def is_selector(selector: str) -> bool:
    """Whether ``selector`` is ``ALL`` or a prefix of some rule's code (imports no rule)."""
    if selector == "ALL":
        return True
    if not (selector.isalnum() and selector.isupper()):
        return False
    family, prefix = selector[:2].lower(), selector.lower()
    if len(selector) < 2:
        return any(f.startswith(prefix) for f in FAMILIES)
    return family in FAMILIES and any(name.startswith(prefix) for name in _family(family).RULES)


@cache
def rule_names() -> dict[str, str]:
    """Every rule's code -> ``family.module`` (imports no rule)."""
    return {
        module.split("_", 1)[0].upper(): f"{family}.{module}"
        for family in FAMILIES
        for module in _family(family).RULES
    }


def rule_module(code: str) -> ModuleType | None:
    """The module of the rule ``code`` (imported now), or ``None`` for a code no rule has."""
    name = rule_names().get(code)
    return load_rule(name) if name is not None else None


@cache
def registry() -> dict[str, ModuleType]:
    """Every rule module by code (imports them all)."""
    return {code: load_rule(name) for code, name in rule_names().items()}


def rule_title(code: str) -> str:
    """The rule's name (``missing-frontmatter``), or ``""`` for a code no rule has."""
    module = rule_module(code)
    return module.META.name if module is not None else ""


def _family(family: str) -> ModuleType:
    return importlib.import_module(f"memlint.rules.{family}")
