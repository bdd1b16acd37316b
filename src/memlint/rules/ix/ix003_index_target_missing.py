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
Unsafe: when exactly one memory matches (by case-insensitive path, or by a
`name` equal to the target's stem) the fix points the entry at it, otherwise
it removes the line. Either way it changes what the index claims, so it
needs `--unsafe-fixes`.
"""

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.ix.resolve import line_removal, link_href, named_target, resolve

META = RuleMeta(
    code="IX003",
    name="index-target-missing",
    summary="Index entry points at a file that does not exist",
    severity=Severity.ERROR,
    scope=Scope.INDEX,
    profiles=MARKDOWN_PROFILES,
    fix=FixAvailability.ALWAYS,
)


def check(ctx, index):
    store = ctx.store
    source = index.file
    for entry in index.entries:
        resolution = resolve(store, entry)
        if resolution.kind == "folded":
            actual = resolution.rel
            message = (
                f"`{entry.target}` differs only in case or Unicode normalization from "
                f"`{actual}`; it resolves on some file systems only"
            )
            fix = _retarget(source, entry, actual)
        elif resolution.kind == "missing":
            named = named_target(store, entry)
            if named is not None:
                actual = named.file.rel
                message = (
                    f"`{entry.target}` does not exist; the memory named `{named.name}` "
                    f"is the file `{actual}`"
                )
                fix = _retarget(source, entry, actual)
            else:
                message = f"`{entry.target}` does not exist in the store"
                fix = Fix.unsafe(f"Remove line {entry.line}", line_removal(store, entry))
        else:
            continue
        yield ctx.report(source, entry.href_start, entry.href_end, message, fix)


def _retarget(source, entry, rel):
    href = link_href(rel)
    return Fix.unsafe(
        f"Point the entry at `{rel}`", source.edit(entry.href_start, entry.href_end, href)
    )
