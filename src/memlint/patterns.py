"""Regular expressions compiled by an earlier run, kept beside memlint's bytecode.

``re.compile`` parses and compiles a pattern in pure Python, ~0.1 ms each, and a
check compiles ~55 of them (a tenth of a 10-file check). ``save`` keeps the
compiled form (``_sre``'s code words) of every pattern the run compiled in one file
in the package's ``__pycache__``, written as Python writes bytecode (never under
``-B`` or ``PYTHONDONTWRITEBYTECODE``) and trusted as that bytecode is; ``preload``
puts them into ``re``'s own cache, so that ``re.compile`` of the same pattern
returns them. An entry is kept only when the pattern it builds equals the one ``re``
compiled, and the file is read only by the Python build that wrote it.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import os
import re
import sys
from array import array

_MAGIC = b"memlint patterns 1\n"
_WORD = next(code for code in "IL" if array(code).itemsize == _sre.CODESIZE)
MAX_PATTERNS = 256  # (re keeps 512)
# what the file held: (pattern, flags) -> its entry; None until ``preload`` ran
_loaded: dict[tuple, tuple] | None = None


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
        entries = marshal.loads(memoryview(data)[len(header) :])
    except (ValueError, EOFError, TypeError):
        return
    for entry in entries if isinstance(entries, list) else ():
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
    """Write the file again when this run compiled a pattern it does not hold."""
    cache = getattr(re, "_cache", None)
    path = table_path()
    if _loaded is None or not isinstance(cache, dict) or path is None:
        return
    if sys.dont_write_bytecode or not os.access(os.path.dirname(path), os.W_OK):
        return
    new = [key for key in list(cache) if key not in _loaded and not key[2] & re.DEBUG]
    if not new:
        return
    entries = []
    for key in new:
        try:
            entry = _entry(key[1], int(key[2]))
            if _built(entry) == cache[key]:
                entries.append(entry)
        except Exception:  # internals of another Python: that one is not kept
            continue
    if not entries:
        return
    entries += list(_loaded.values())
    import marshal

    partial = f"{path}.{os.getpid()}"
    try:
        with open(partial, "wb") as handle:
            handle.write(_header() + marshal.dumps(entries[:MAX_PATTERNS]))
        os.replace(partial, path)
    except OSError:
        if os.path.lexists(partial):
            os.unlink(partial)


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
