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
from types import CodeType, ModuleType

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
    its code comes from the rules' code cache (``_cached_code``), else from the
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
        code = _cached_code(full.removeprefix("memlint.rules."), path) or loader.get_code(full)
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


# The code of every rule module in one file beside the rules' own bytecode: one read
# and one unmarshal instead of ~90 of Python's bytecode checks, opens and reads (16M
# of a 10-file check's 218M instructions, 6M through this file). Each entry holds its
# source's size and modification time, checked as Python checks its own bytecode.
_CODE_CACHE_MAGIC = b"memlint rules 1\n"


def code_cache_path() -> str | None:
    """The rules' code cache of this Python and optimization level (``-O`` drops asserts,
    ``-OO`` docstrings: one file each, as Python's ``.opt-N.pyc``), ``None`` when it
    caches no bytecode."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    level = sys.flags.optimize
    name = f"rules.{tag}{f'.opt-{level}' if level else ''}.marshal"
    return os.path.join(os.path.dirname(__file__), "__pycache__", name)


_CODES: dict[str, tuple[int, int, CodeType]] | None = None  # as read or written by this run
_WRITTEN_ONCE = False  # the code cache is written at most once a run


def _code_cache() -> dict[str, tuple[int, int, CodeType]]:
    """``family.module`` -> (source size, source mtime in ns, code), as last written;
    empty when there is none or it is not this Python's."""
    global _CODES
    if _CODES is not None:
        return _CODES
    _CODES = {}
    path = code_cache_path()
    if path is None:
        return _CODES
    import marshal
    from _frozen_importlib_external import MAGIC_NUMBER

    try:
        with open(path, "rb") as handle:
            data = handle.read()
        header = _CODE_CACHE_MAGIC + MAGIC_NUMBER
        if data.startswith(header):
            codes = marshal.loads(memoryview(data)[len(header) :])
            _CODES = codes if isinstance(codes, dict) else {}  # (written by memlint)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return _CODES


def _cached_code(name: str, path: str) -> CodeType | None:
    """The cached code of the rule ``name`` if its source ``path`` is unchanged, else
    ``None``. The first miss writes the cache anew (when Python writes bytecode and
    may write there), and this process uses what it wrote."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    global _WRITTEN_ONCE
    entry = _code_cache().get(name)
    if entry is None or entry[:2] != (st.st_size, st.st_mtime_ns):
        cache_path = code_cache_path()
        if _WRITTEN_ONCE or sys.dont_write_bytecode or cache_path is None:
            return None
        if not os.access(os.path.dirname(cache_path), os.W_OK):
            return None
        _WRITTEN_ONCE = True
        write_code_cache()
        entry = _code_cache().get(name)
        if entry is None or entry[:2] != (st.st_size, st.st_mtime_ns):
            return None
    return entry[2]


def write_code_cache() -> bool:
    """Write the rules' code cache (as ``compileall`` writes bytecode); whether it was."""
    global _CODES
    import marshal
    from _frozen_importlib_external import MAGIC_NUMBER

    path = code_cache_path()
    if path is None:
        return False
    codes: dict[str, tuple[int, int, CodeType]] = {}
    for family in FAMILIES:
        folder = _family(family).__path__[0]
        for module in _family(family).RULES:
            source = os.path.join(folder, f"{module}.py")
            full = f"memlint.rules.{family}.{module}"
            try:
                st = os.stat(source)
                code = SourceFileLoader(full, source).get_code(full)
            except (OSError, SyntaxError):
                return False
            if code is None:
                return False
            codes[f"{family}.{module}"] = (st.st_size, st.st_mtime_ns, code)
    _CODES = codes
    partial = f"{path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(_CODE_CACHE_MAGIC + MAGIC_NUMBER + marshal.dumps(codes))
        os.replace(partial, path)
    except OSError:
        if os.path.lexists(partial):
            os.unlink(partial)
        return False
    return True
