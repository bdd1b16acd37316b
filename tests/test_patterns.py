"""The compiled patterns kept across runs (``memlint.patterns``): a run that writes
bytecode keeps what it compiled, the next run's ``re.compile`` returns the kept
pattern (equal to a fresh compile), and a damaged or foreign file is never used."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import memlint

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "store"
# A check in a copy of the package; prints which of its patterns came from the file.
CHECK = """
import io, json, re, sys, contextlib
sys.path.insert(0, {parent!r})
from memlint import cli, patterns
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = cli.main(["check", {store!r}, "--no-cache", "--output-format", "json"])
patterns.save()
fresh = [re._compiler.compile(p, f) for (_, p, f) in patterns._loaded]
kept = [re._cache[key] for key in patterns._loaded]
print(json.dumps([status, len(patterns._loaded), fresh == kept, out.getvalue()]))
"""


def _check_in_copy(package: Path, store: Path, *flags: str) -> list:
    code = CHECK.format(parent=str(package.parent), store=str(store))
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }
    result = subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return json.loads(result.stdout)


def test_compiled_patterns_are_kept_used_and_equal(tmp_path) -> None:
    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    table = package / "__pycache__" / f"patterns.{sys.implementation.cache_tag}.marshal"
    table.unlink(missing_ok=True)
    status, loaded, _, first = _check_in_copy(package, EXAMPLES, "-B")
    assert loaded == 0 and not table.exists()  # -B: nothing written
    _check_in_copy(package, EXAMPLES)
    assert table.exists()
    status2, loaded, equal, second = _check_in_copy(package, EXAMPLES)
    assert loaded > 20 and equal
    assert (status2, second) == (status, first)
    # damaged: ignored (every pattern compiled as usual) and written again
    table.write_bytes(table.read_bytes()[:200])
    assert _check_in_copy(package, EXAMPLES, "-B")[1:] == [0, True, first]
    _check_in_copy(package, EXAMPLES)
    assert _check_in_copy(package, EXAMPLES)[1:] == [loaded, True, first]
    # written by another Python build (its header): not read
    data = table.read_bytes()
    table.write_bytes(data.replace(sys.version.encode(), b"3.0.0 (other)", 1))
    assert _check_in_copy(package, EXAMPLES, "-B")[1:] == [0, True, first]


def test_patterns_made_from_a_repositorys_data_are_never_kept(tmp_path) -> None:
    """Excludes and ``.gitignore`` lines become patterns: kept beside memlint's bytecode,
    a private repository's would be readable by anyone who can read the installation,
    and loaded by every later run in every other repository."""
    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    table = package / "__pycache__" / f"patterns.{sys.implementation.cache_tag}.marshal"
    table.unlink(missing_ok=True)
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLES, repo / "store")
    (repo / ".git").mkdir()
    (repo / ".gitignore").write_text("private-zebra-launch/\n*.zebra-draft\n", encoding="utf-8")
    (repo / ".memlint.toml").write_text('exclude = ["zebra-notes-*.md"]\n', encoding="utf-8")
    _check_in_copy(package, repo / "store")
    _, loaded, equal, _ = _check_in_copy(package, repo / "store")
    assert loaded > 20 and equal
    assert b"zebra" not in table.read_bytes()
