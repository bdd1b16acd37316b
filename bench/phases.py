#!/usr/bin/env python3
"""Where one ``memlint check`` run spends its time: phases, then rules.

Usage: python bench/phases.py STORE [memlint check options...]

Runs ``memlint check STORE -q --exit-zero`` in this process (``--jobs 1``
unless given, so that every rule is timed here), with timers around the
phases (imports, discovery and its parts, rules, rendering, cache save) and
around each rule. Output goes to stderr; memlint's own output is discarded.
Add ``--no-cache`` for a cold run, or ``--cache-dir DIR`` twice for a warm one.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections import Counter

START = time.perf_counter()
import memlint.cache as cache  # noqa: E402
import memlint.cli as cli  # noqa: E402
import memlint.discovery as discovery  # noqa: E402
import memlint.engine as engine  # noqa: E402
import memlint.output as output  # noqa: E402
import memlint.parse as parse  # noqa: E402

IMPORTED = time.perf_counter()
phases: Counter = Counter()
rules: Counter = Counter()


def timed(owner, name: str, bucket: Counter, key=None) -> None:
    """Replace ``owner.name`` with a wrapper adding its run time to ``bucket``."""
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            bucket[key(*args) if key else name] += time.perf_counter() - began

    setattr(owner, name, wrapper)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    # a check loads each store when the one before was linted: time the loads
    timed(discovery.Discovery, "_load_store", phases, key=lambda *args: "discover")
    for owner, name in (
        (discovery, "read_source"),
        (parse, "load_memories"),
        (discovery, "detect_profile"),
        (cache.StoreCache, "memo"),
        (engine, "lint_store"),
        (engine, "apply_suppressions"),
        (output, "render"),
        (cache.CacheSet, "save"),
    ):
        timed(owner, name, phases)
    timed(engine, "_run", rules, key=lambda rule, *rest: rule.meta.code)
    timed(engine, "_checked", rules, key=lambda rule, *rest: rule.meta.code)
    options = argv[1:] if "--jobs" in argv else [*argv[1:], "--jobs", "1"]
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["check", argv[0], "-q", "--exit-zero", *options])
    total = time.perf_counter() - START
    print(f"{'total':<24}{total:8.3f} s", file=sys.stderr)
    print(f"{'imports':<24}{IMPORTED - START:8.3f} s", file=sys.stderr)
    for name, seconds in phases.most_common():
        print(f"{name:<24}{seconds:8.3f} s", file=sys.stderr)
    print("rules (this process only):", file=sys.stderr)
    for code, seconds in rules.most_common(15):
        print(f"  {code:<22}{seconds:8.3f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
