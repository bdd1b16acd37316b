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

import _thread
import os
import sys
from _frozen_importlib import ModuleSpec
from _frozen_importlib_external import SourceFileLoader
from functools import cache
from types import ModuleType

from memlint import codecache

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
    full = f"memlint.rules.{name}"
    return sys.modules.get(full) or _load(full)


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
    name = f"memlint.rules.{family}"
    return sys.modules.get(name) or __import__(name, fromlist=["RULES"])


_LOADING = _thread.RLock()


def _load(full: str) -> ModuleType:
    """Import the rule module ``full`` without searching for it (its file is known):
    its code comes from memlint's code cache (:mod:`memlint.codecache`), else from the
    bytecode Python cached for it, checked or written by Python's own loader. A run
    imports ~90 rule modules; ``import`` spent ~60 µs a module finding and loading."""
    package, _, name = full.rpartition(".")
    family = _family(package.rpartition(".")[2])
    path = os.path.join(family.__path__[0], f"{name}.py")
    loader = SourceFileLoader(full, path)
    with _LOADING:  # one module object, whichever thread asks first
        found = sys.modules.get(full)
        if found is not None:
            return found
        code = codecache.code(full, path) or loader.get_code(full)
        if code is None:  # a source file always has code
            raise ImportError(f"no code for {full}", name=full, path=path)
        module = ModuleType(full)
        module.__spec__ = ModuleSpec(full, loader, origin=path)
        module.__spec__.has_location = True
        module.__file__, module.__loader__, module.__package__ = path, loader, package
        sys.modules[full] = module
        try:
            exec(code, module.__dict__)
        except BaseException:
            del sys.modules[full]
            raise
        setattr(family, name, module)
        return module
