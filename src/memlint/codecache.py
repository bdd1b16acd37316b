"""memlint's modules loaded from one file of their compiled code.

Python's import searches a module's folder, checks its bytecode against the source
and reads it: ~170k instructions a module before its code runs, and a check imports
some 80 of memlint's modules besides ~90 rules (a tenth of a 10-file check). The
code cache holds the code of every module of the package in one file in its
``__pycache__``, written as Python writes bytecode (never under ``-B`` or
``PYTHONDONTWRITEBYTECODE``) and trusted as that bytecode is: each entry holds its
source's size and modification time, checked as Python checks its own bytecode,
and the file is read only by the Python build and optimization level that wrote it
(``-OO`` drops docstrings). ``install`` puts a finder first on ``sys.meta_path``
that serves memlint's modules from it; a module the file does not hold, or holds
for another version of its source, is imported as usual, and the first such import
of a run that may write bytecode writes the file anew.
"""

from __future__ import annotations

import marshal
import os
import sys
from _frozen_importlib import ModuleSpec
from _frozen_importlib_external import MAGIC_NUMBER, SourceFileLoader
from _thread import get_ident
from types import CodeType

_MAGIC = b"memlint modules 1\n"
ROOT = os.path.dirname(__file__)  # as the package was found (its modules' paths)
PACKAGE = __name__.rpartition(".")[0]
# Modules are unmarshalled in groups: one marshal of many modules makes each name,
# constant and line table they share once (a 10-file check's 94 rules: 4.3M
# instructions, against 8.7M one by one). The modules a run imports together are a
# group: the rule families' modules, and the sources; every other module is its own.
# A group is read when one of its modules is imported.
GROUPED = ("rules", "sources")  # (not rules/__init__, base or shared: a replay needs them)
_LENGTH = 8  # bytes of the index's length after the header

# module name -> (path below ROOT, source size, source mtime in ns, its group)
_index: dict[str, tuple[str, int, int, int]] | None = None
_spans: list[tuple[int, int]] = []  # each group's offset in the file and length
_file: int | None = None  # the file as it was read (a rewrite replaces it)
_unmarshalled: dict[int, dict] = {}
_written = False  # the file is written at most once a run


def cache_path() -> str | None:
    """The code cache of this Python and optimization level, ``None`` when it caches
    no bytecode."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    level = sys.flags.optimize
    name = f"modules.{tag}{f'.opt-{level}' if level else ''}.marshal"
    return os.path.join(ROOT, "__pycache__", name)


def _header() -> bytes:
    return _MAGIC + MAGIC_NUMBER


def _entries() -> dict[str, tuple[str, int, int, int]]:
    global _index, _spans, _file
    if _index is not None:
        return _index
    _index = {}
    path = cache_path()
    if path is None:
        return _index
    header = _header()
    start = len(header) + _LENGTH
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return _index
    try:
        data = _read(handle, 1 << 16, 0)
        length = int.from_bytes(data[len(header) : start], "little")
        if data.startswith(header) and len(data) >= start:
            if len(data) < start + length <= os.fstat(handle).st_size:
                data = _read(handle, start + length, 0)
            index, spans = marshal.loads(memoryview(data)[start : start + length])
            if type(index) is dict and type(spans) is list:  # (written by memlint)
                _index, _file = index, handle
                _spans = [(start + length + offset, size) for offset, size in spans]
                return _index
    except (OSError, ValueError, EOFError, TypeError):
        pass
    os.close(handle)
    return _index


def _read(handle: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(handle, size, offset)
    os.lseek(handle, offset, os.SEEK_SET)  # (Windows: imports run one at a time there)
    return os.read(handle, size)


def _valid(name: str) -> tuple[str, int] | None:
    """The source path and group of the module ``name`` when the cache holds it for
    its source as it is now."""
    entry = _entries().get(name)
    if entry is None:
        return None
    try:
        below, size, mtime, group = entry
        if below not in _places(name):
            return None
        origin = ROOT + os.sep + below
        st = os.stat(origin)
    except (OSError, TypeError, ValueError):
        return None
    if (st.st_size, st.st_mtime_ns) != (size, mtime):
        return None
    return origin, group


def _places(name: str) -> tuple[str, str]:
    """Where below ``ROOT`` the source of memlint's module ``name`` can be."""
    stem = name[len(PACKAGE) + 1 :].replace(".", os.sep)
    return stem + ".py", stem + os.sep + "__init__.py"


def _source(name: str) -> str | None:
    """The source file of memlint's module ``name``, if there is one."""
    for below in _places(name):
        if os.path.isfile(ROOT + os.sep + below):
            return below
    return None


def cached(name: str) -> tuple[str, int] | None:
    """``_valid``; a module missing from the cache or changed since has the file
    written anew first, once a run, when the run may write bytecode."""
    global _written
    found = _valid(name)
    if found is None and not _written and _may_write() and _source(name) is not None:
        _written = True
        write()
        found = _valid(name)
    return found


def code(name: str, path: str) -> CodeType | None:
    """The cached code of the module ``name`` if its source is ``path``, unchanged."""
    found = cached(name)
    return _code(name, found[1]) if found is not None and found[0] == path else None


def _code(name: str, group: int) -> CodeType | None:
    codes = _unmarshalled.get(group)
    if codes is None:
        try:
            offset, size = _spans[group]
            data = _read(_file, size, offset)  # type: ignore[arg-type]
            codes = marshal.loads(data) if len(data) == size else None
        except (OSError, ValueError, EOFError, TypeError, IndexError):
            codes = None
        codes = _unmarshalled[group] = codes if type(codes) is dict else {}
    found = codes.get(name)
    return found if type(found) is CodeType else None


def _may_write() -> bool:
    path = cache_path()
    return not (
        path is None
        or sys.dont_write_bytecode
        or not os.access(os.path.dirname(os.path.dirname(path)), os.W_OK)
    )


def write() -> bool:
    """Write the code cache (as ``compileall`` writes bytecode); whether it was."""
    path = cache_path()
    if path is None:
        return False
    index: dict[str, tuple[str, int, int, int]] = {}
    groups: list[dict[str, CodeType]] = []
    folders: dict[str, int] = {}  # a grouped folder's group
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        relative = os.path.relpath(folder, ROOT)
        package = PACKAGE if relative == "." else f"{PACKAGE}.{relative.replace(os.sep, '.')}"
        for file in sorted(files):
            stem, dot, suffix = file.rpartition(".")
            if not dot or suffix != "py" or not stem.isidentifier():
                continue
            source = os.path.join(folder, file)
            name = package if stem == "__init__" else f"{package}.{stem}"
            try:
                st = os.stat(source)
                compiled = SourceFileLoader(name, source).get_code(name)
            except (OSError, SyntaxError, ValueError):
                continue
            if compiled is None:
                continue
            below = os.path.relpath(source, ROOT)
            top = relative.split(os.sep)[0]
            grouped = top in GROUPED and relative != "rules"
            group = folders.setdefault(top, len(groups)) if grouped else len(groups)
            if group == len(groups):
                groups.append({})
            groups[group][name] = compiled
            index[name] = (below, st.st_size, st.st_mtime_ns, group)
    blobs = [marshal.dumps(codes) for codes in groups]
    spans, offset = [], 0
    for blob in blobs:
        spans.append((offset, len(blob)))
        offset += len(blob)
    listed = marshal.dumps((index, spans))
    partial = f"{path}.{os.getpid()}.{get_ident()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(_header() + len(listed).to_bytes(_LENGTH, "little") + listed)
            handle.write(b"".join(blobs))
        os.replace(partial, path)
    except OSError:
        if os.path.lexists(partial):
            os.unlink(partial)
        return False
    finally:
        _forget()
    return True


def _forget() -> None:
    """Read the file again at the next import (it was written anew)."""
    global _index, _file
    if _file is not None:
        os.close(_file)
    _index, _file = None, None
    _unmarshalled.clear()


class _Loader(SourceFileLoader):
    """Python's loader of the module's source file, with the module's code from the
    cache's group that held it when the module was found."""

    group = -1

    def get_code(self, fullname: str) -> CodeType | None:  # type: ignore[override]
        if fullname == self.name and self.group >= 0:
            found = _code(fullname, self.group)
            if found is not None:
                return found
        return super().get_code(fullname)


class _Finder:
    """Finds memlint's modules that the code cache holds, nothing else."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if not name.startswith(PACKAGE + "."):
            return None
        found = cached(name)
        if found is None:
            return None
        origin = found[0]
        package = os.path.basename(origin) == "__init__.py"
        loader = _Loader(name, origin)
        loader.group = found[1]
        spec = ModuleSpec(name, loader, origin=origin, is_package=package)
        spec.has_location = True
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec


def install() -> None:
    """Serve memlint's modules from the code cache (once)."""
    if _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
