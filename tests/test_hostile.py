"""The shared hostile corpus: no crash, no hang, only documented exit codes, lint writes nothing."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.helpers import tree_fingerprint

TIMEOUT = 20
CANARY = "CANARY-7f3a"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_case(case: Path, cwd: Path) -> tuple[str, int | None, str, str]:
    target = case / "memory"
    if not target.exists():
        target = case
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "memlint", "check", str(target), "--output-format", "concise"],
            capture_output=True,
            timeout=TIMEOUT,
            preexec_fn=_limit_memory,
            cwd=cwd,
            env={**os.environ, "CANARY_ENV": "never-printed-" + CANARY},
        )
    except subprocess.TimeoutExpired:
        return case.name, None, "", "timeout"
    return (
        case.name,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


@pytest.mark.shared
def test_hostile_corpus_lint_mode(hostile_corpus, tmp_path):
    cases = sorted(p for p in hostile_corpus.iterdir() if p.is_dir())
    assert len(cases) >= 50
    before = tree_fingerprint(hostile_corpus)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_case, cases, [tmp_path] * len(cases)))
    problems = []
    for name, code, out, err in results:
        if code is None:
            problems.append(f"{name}: hang (over {TIMEOUT}s)")
        elif code not in (0, 1, 2):
            problems.append(f"{name}: exit {code}")
        if "Traceback" in err or "Traceback" in out:
            problems.append(f"{name}: traceback: {err[-300:]}")
        if CANARY in out or CANARY in err:
            problems.append(f"{name}: printed the canary")
        if any(ch in out for ch in "\x1b\x07\x08\u202e\u2066"):
            problems.append(f"{name}: raw control character in output")
        if any(line.startswith("::") for line in out.splitlines()):
            problems.append(f"{name}: an output line starts with `::`")
    assert not problems, "\n".join(problems)
    assert tree_fingerprint(hostile_corpus) == before, "lint mode changed files"
    assert not (tmp_path / "PWNED_BY_YAML_TAG").exists()
