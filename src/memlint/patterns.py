"""Regular expressions compiled by an earlier run, kept beside memlint's bytecode.

``re.compile`` parses and compiles a pattern in pure Python, ~0.1 ms each, and a
check compiles ~55 of them (a tenth of a 10-file check). ``save`` keeps the
compiled form (``_sre``'s code words) of every pattern the run compiled in one file
in the package's ``__pycache__``, written as Python writes bytecode (never under
``-B`` or ``PYTHONDONTWRITEBYTECODE``) and trusted as that bytecode is; ``preload``
puts them into ``re``'s own cache, so that ``re.compile`` of the same pattern
returns them. An entry is kept only when the pattern it builds equals the one ``re``
compiled, and the file is read only by the Python build that wrote it. Only the
patterns memlint's code defines are kept (``_own_patterns``), never one made from a
repository's data.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import os
import re
import sys
from array import array

_MAGIC = b"memlint patterns 2\n"
_WORD = next(code for code in "IL" if array(code).itemsize == _sre.CODESIZE)
MAX_PATTERNS = 256  # (re keeps 512)
# the packages whose code defines the patterns a check compiles (never one that keeps the
# patterns it compiles for its callers, as re, fnmatch and pathspec do)
DEFINING_PACKAGES = frozenset(
    {"memlint", "yaml", "markdown_it", "mdurl", "string", "textwrap", "json", "tokenize", "logging"}
)
SMALL = 512  # the largest table of patterns looked into (larger ones hold data)
# what the file held: (pattern, flags) -> its entry; None until ``preload`` ran
_loaded: dict[tuple, tuple] | None = None
# the patterns the code defines (``_own_patterns``) in the modules already looked into
_own: set = set()
_scanned: frozenset[str] = frozenset()


def table_path() -> str | None:
    """The file of this Python's compiled patterns (``None`` when it caches no bytecode)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"patterns.{tag}.marshal")


def _header() -> bytes:
    return _MAGIC + f"{sys.version}\n{_sre.MAGIC}\n".encode()


def preload() -> None:
    """Put the patterns of the file into ``re``'s cache (those not compiled yet)."""
    global _loaded
    if _loaded is not None:
        return
    _loaded = {}
    cache = getattr(re, "_cache", None)
    path = table_path()
    if not isinstance(cache, dict) or path is None:
        return
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return
    header = _header()
    if not data.startswith(header):
        return
    import marshal

    try:
        entries, scanned, own = marshal.loads(memoryview(data)[len(header) :])
    except (ValueError, EOFError, TypeError):
        return
    if not (type(entries) is list and type(scanned) is frozenset and type(own) is frozenset):
        return
    global _own, _scanned
    _own, _scanned = set(own), scanned
    for entry in entries:
        try:
            key = (type(entry[0]), entry[0], entry[1])
            if key not in cache:
                cache[key] = _built(entry)
        except Exception:  # a damaged entry: that pattern is compiled as usual
            continue
        _loaded[key] = entry


def _built(entry: tuple) -> re.Pattern:
    pattern, _, flags, code, groups, groupindex, indexgroup = entry
    return _sre.compile(pattern, flags, array(_WORD, code).tolist(), groups, groupindex, indexgroup)


def save() -> None:
    """Write the file again when this run compiled a pattern of memlint's it does not hold
    (or looked into modules for them that it had not: done once per set of modules)."""
    cache = getattr(re, "_cache", None)
    path = table_path()
    if _loaded is None or not isinstance(cache, dict) or path is None:
        return
    if sys.dont_write_bytecode or not os.access(os.path.dirname(path), os.W_OK):
        return
    global _own, _scanned
    candidates = [key for key in list(cache) if key not in _loaded and not key[2] & re.DEBUG]
    if not candidates:
        return
    modules = frozenset(
        name for name in list(sys.modules) if name.partition(".")[0] in DEFINING_PACKAGES
    )
    scanned = not modules <= _scanned  # a module not looked into yet: look into all (once)
    if scanned:
        _own, _scanned = _own | _own_patterns(), _scanned | modules
    new = [key for key in candidates if key[1] in _own]
    if not new and not scanned:
        return
    entries = []
    for key in new:
        try:
            entry = _entry(key[1], int(key[2]))
            if _built(entry) == cache[key]:
                entries.append(entry)
        except Exception:  # internals of another Python: that one is not kept
            continue
    if not entries and not scanned:
        return
    entries += list(_loaded.values())
    import marshal

    partial = f"{path}.{os.getpid()}"
    try:
        with open(partial, "wb") as handle:
            kept = (entries[:MAX_PATTERNS], _scanned, frozenset(_own))
            handle.write(_header() + marshal.dumps(kept))
        os.replace(partial, path)
    except OSError:
        if os.path.lexists(partial):
            os.unlink(partial)


def _own_patterns() -> set:
    """The patterns code defines (in a module's or a module-level class's namespace, also
    in a tuple, list or dict there, and ``LazyPattern``s): never one made from a
    repository's data (its ``.gitignore`` lines, excludes or settings, which ``re``,
    ``fnmatch`` and ``pathspec`` keep in caches of their own: ``DEFINING_PACKAGES`` only), which
    would be written beside memlint's bytecode, readable by anyone who can read the
    installation, and read by every later run in every other repository."""
    from memlint.privacy import LazyPattern

    own: set = set()

    def visit(value, depth: int) -> None:
        kind = type(value)
        if kind is re.Pattern:
            own.add(value.pattern)
        elif kind is LazyPattern:
            own.add(value._args[0])
        elif not depth or kind in (str, int, bytes, float, bool):
            return
        elif kind in (tuple, list) and len(value) <= SMALL:
            for item in value:
                visit(item, depth - 1)
        elif kind is dict and len(value) <= SMALL:
            for item in list(value.values()):
                visit(item, depth - 1)
        elif kind.__module__.startswith("memlint."):
            visit(getattr(value, "pattern", None), 0)  # a TokenFormat

    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] not in DEFINING_PACKAGES or module is None:
            continue
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, type) and value.__module__ == name:
                for attribute in list(vars(value).values()):
                    visit(attribute, 3)
            else:
                visit(value, 3)
    return own


def _entry(pattern: str | bytes, flags: int) -> tuple:
    """What ``re._compiler.compile`` hands ``_sre.compile`` for ``pattern``."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    state = parsed.state
    groupindex = dict(state.groupdict)
    indexgroup: list[str | None] = [None] * state.groups
    for name, number in groupindex.items():
        indexgroup[number] = name
    words = array(_WORD, code).tobytes()
    groups = state.groups - 1
    return (pattern, flags, int(flags | state.flags), words, groups, groupindex, tuple(indexgroup))
