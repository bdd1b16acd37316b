"""Shared test helpers: build a store on disk and lint it in-process."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from memlint import api
from memlint.cli import main
from memlint.config import Settings, settings_from_mapping
from memlint.diagnostics import Diagnostic

# ../shared next to the checkout; a work tree elsewhere names it in MEMLINT_SHARED.
BLOWUP_SECONDS = 30.0
"""Bound for inputs built to make a scan blow up (regex backtracking, a quadratic loop).
On them a blow-up costs minutes and a linear pass milliseconds, so the bound catches one
on any machine, however loaded, without being a speed test."""


def runs_without_blowup(work) -> bool:
    """Whether ``work()`` returns within ``BLOWUP_SECONDS``."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started < BLOWUP_SECONDS


SHARED = Path(os.environ.get("MEMLINT_SHARED") or Path(__file__).resolve().parents[2] / "shared")


def write_files(root: Path, files: dict) -> None:
    """Write ``files`` (relative path -> str, or {"bytes": latin-1 str}) under ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict):
            path.write_bytes(content["bytes"].encode("latin-1"))
        else:
            path.write_bytes(content.encode("utf-8"))


def lint_dir(
    root: Path,
    select: list[str] | None = None,
    config: dict | None = None,
    paths: list[str] | None = None,
) -> list[Diagnostic]:
    settings = settings_from_mapping(config or {}) if config else Settings()
    if select is not None:
        settings = settings.with_overrides(select=tuple(select))
    return api.check(paths or [str(root)], settings, cwd=str(root)).diagnostics


def lint_files(
    tmp_path: Path, files: dict, select: list[str] | None = None, config: dict | None = None
) -> list[Diagnostic]:
    write_files(tmp_path, files)
    return lint_dir(tmp_path, select, config)


def summary(diagnostics: list[Diagnostic]) -> list[tuple[str, str, int, int]]:
    """(code, path relative to the store, line, column) of each diagnostic."""
    return [(d.code, d.display_path, d.range.start.line, d.range.start.column) for d in diagnostics]


def shared_available() -> bool:
    return SHARED.is_dir() and os.access(SHARED, os.R_OK)


def read_regular(path: Path, limit: int = 1 << 20) -> bytes | None:
    """A file's bytes when it is a regular file (never a FIFO, device or symlink)."""
    import stat

    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except OSError:
        return None
    from memlint.detect import read_head

    return read_head(str(path), limit)


def utf8_texts(paths) -> list[str]:
    """The text (BOM removed) of each regular, valid UTF-8 file of ``paths``."""
    found = []
    for path in paths:
        data = read_regular(path)
        if data is None:
            continue
        try:
            found.append(data.decode("utf-8").removeprefix("\ufeff"))
        except UnicodeDecodeError:
            continue
    return found


BENCH = Path(__file__).resolve().parents[1] / "bench"


def generate_store(path: Path, files: int, **options) -> Path:
    """A store written by the project's own generator ``bench/gen_store.py``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_store", BENCH / "gen_store.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(str(path), files, **options)
    return path


def tree_fingerprint(top: Path) -> dict[str, str]:
    """Every entry below ``top`` (relative path): content hash and mode for regular
    files, target for links, kind otherwise. Never opens anything but regular files."""
    import hashlib
    import stat

    found: dict[str, str] = {}
    for directory, dirs, names in os.walk(top):
        for name in dirs + names:
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, top)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                found[rel] = "link:" + os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                try:
                    with open(path, "rb") as handle:
                        digest = hashlib.sha256(handle.read()).hexdigest()
                except OSError:
                    digest = "unreadable"
                found[rel] = f"{stat.S_IMODE(st.st_mode):o}:{digest}"
            else:
                found[rel] = f"{stat.S_IFMT(st.st_mode):o}:{stat.S_IMODE(st.st_mode):o}"
    return found


HOSTILE_GENERATOR = SHARED / "corpus" / "hostile_corpus.py"


def generate_hostile(out: Path) -> Path:
    """Write the shared hostile corpus (``--quick``) into ``out``, or skip the test."""
    import subprocess
    import sys

    import pytest

    if not shared_available() or not HOSTILE_GENERATOR.is_file():
        pytest.skip("shared hostile corpus generator not available")
    subprocess.run(
        [sys.executable, str(HOSTILE_GENERATOR), str(out), "--quick"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def check_json(capsys, *args: str) -> list[dict]:
    """The findings of ``memlint check --output-format json --exit-zero ARGS``, run in
    this process."""
    capsys.readouterr()
    status = main(["check", "--output-format", "json", "--exit-zero", *args])
    out = capsys.readouterr().out
    assert status == 0, out
    return json.loads(out)


class FuzzStore:
    """What the differential fuzzers edit: ``count`` memories ``m0.md``... written by
    ``memory_text(rng, name)``, an index listing about a share ``indexed`` of them and
    the config file ``config``."""

    def __init__(self, root: Path, rng, memory_text, *, count: int, config: str, indexed: float):
        self.root = root
        self.rng = rng
        self.indexed = indexed
        root.mkdir(parents=True)
        for i in range(count):
            self.write(f"m{i}.md", memory_text(rng, f"m{i}"))
        self.write_index()
        self.write(".memlint.toml", config)

    def write(self, rel: str, text: str) -> None:
        (self.root / rel).write_text(text, encoding="utf-8")

    def memories(self) -> list[str]:
        return sorted(p.name for p in self.root.glob("*.md") if p.name != "MEMORY.md")

    def write_index(self) -> None:
        rels = [rel for rel in self.memories() if self.rng.random() < self.indexed]
        lines = [f"- [{Path(rel).stem}]({rel}) — fact about {Path(rel).stem}" for rel in rels]
        self.write("MEMORY.md", "# Index\n\n" + "\n".join(lines) + "\n")


def count_reuse(monkeypatch) -> list[bool]:
    """Whether each whole-store run from now on reused the last result (``engine._rerun_tied``)."""
    from memlint import engine

    reused: list[bool] = []
    rerun_tied = engine._rerun_tied

    def counted(*args, **kwargs):
        found = rerun_tied(*args, **kwargs)
        reused.append(found is not None)
        return found

    monkeypatch.setattr(engine, "_rerun_tied", counted)
    return reused
