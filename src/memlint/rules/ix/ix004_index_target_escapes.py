"""## What it does
Reports an index entry whose target leaves the store: an absolute path, a
`..` that climbs above the store root, a URL scheme, a drive letter or
backslashes. A target that glues an absolute path onto `..`
(`../../e:/dev/notes/x.md`, `../../home/u/x.md`, as some tools write a
path they could not make relative) is named as such: "an absolute path
written as relative".

## Why is this bad?
Index entries name memory files of this store. A target outside it points
the agent at files that are not memories, may not exist on another machine,
and is never checked by memlint (it never looks outside the store root).

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Build notes](../../docs/build-notes.md) — How the release build works
```

Use instead: move the file into the store and link it relatively:
```memlint-good path=MEMORY.md
# Memory

- [Build notes](reference_build-notes.md) — How the release build works
```
```memlint-file path=reference_build-notes.md
---
name: Build notes
description: How the release build works
type: reference
---

`make release` signs and uploads the wheel; see docs/build-notes.md in the repo.
```

## Fix safety
No fix: where the file should live is a decision for the author.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.sources.index import escape_reason

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX004",
    name="index-target-escapes",
    summary="Index entry points outside the store",
    severity=Severity.ERROR,
    scope=Scope.INDEX,
    profiles=MARKDOWN_PROFILES,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    for entry in index.entries:
        reason = escape_reason(entry)
        if reason is not None:
            message = f"index target `{entry.target}` {reason}: it leaves the store"
            yield ctx.report(index.file, entry.href_start, entry.href_end, message)
