"""## What it does
Reports an index entry whose target file does not exist in the store. A
target that matches a file only when case and Unicode normalization are
ignored is reported as such.

## Why is this bad?
The agent follows the entry and finds nothing, or (for a case-only
difference) finds the file on macOS and Windows but not on Linux.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Testing](feedback_tests.md) — Run the full suite before pushing
```

Use instead (the file is `feedback_testing.md`):
```memlint-good path=MEMORY.md
# Memory

- [Testing](feedback_testing.md) — Run the full suite before pushing
```
```memlint-file path=feedback_testing.md
---
name: Testing
description: Run the full suite before pushing
type: feedback
---

Run `make test` before every push.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

## Fix safety
Unsafe: when exactly one memory matches (by case-insensitive path, by a
`name` equal to the target's stem, or, for a memory renamed by hand, by a
`name` equal to the entry's title or a `description` equal to its summary)
the fix points the entry at it in place, keeping its title, summary and
position; when that memory already has its own entry, or none matches, the
fix removes the line (so a stale summary never survives a later dedupe).
Either way it changes what the index claims, so it needs `--unsafe-fixes`.
"""

from __future__ import annotations

import posixpath

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.ix.resolve import (
    line_removal,
    link_href,
    linked_elsewhere,
)

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Memory, Store

META = RuleMeta(
    code="IX003",
    name="index-target-missing",
    summary="Index entry points at a file that does not exist",
    severity=Severity.ERROR,
    scope=Scope.INDEX,
    profiles=MARKDOWN_PROFILES,
    fix=FixAvailability.ALWAYS,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    store = ctx.store
    source = index.file
    for entry in index.entries:
        resolution = store.index_target(entry)
        actual: Memory | None
        if resolution.kind == "folded" and resolution.memory is not None:
            actual = resolution.memory
            message = (
                f"`{entry.target}` differs only in case or Unicode normalization from "
                f"`{actual.file.rel}`; it resolves on some file systems only"
            )
        elif resolution.kind == "missing" and resolution.rel is not None:
            actual = store.meant_target(entry)
            if actual is None:
                message = f"`{entry.target}` does not exist in the store"
            elif (actual.name or "").strip() == posixpath.basename(resolution.rel)[:-3]:
                message = (
                    f"`{entry.target}` does not exist; the memory named `{actual.name}` "
                    f"is the file `{actual.file.rel}`"
                )
            else:
                message = (
                    f"`{entry.target}` does not exist; it looks renamed to "
                    f"`{actual.file.rel}` (same title or summary)"
                )
        else:
            continue
        if actual is not None and not linked_elsewhere(store, entry, actual):
            href = link_href(actual.file.rel)
            edit = source.edit(entry.href_start, entry.href_end, href)
            fix = Fix.unsafe(f"Point the entry at `{actual.file.rel}`", edit)
        else:
            fix = Fix.unsafe(f"Remove line {entry.line}", line_removal(store, entry))
        yield ctx.report(source, entry.href_start, entry.href_end, message, fix)
