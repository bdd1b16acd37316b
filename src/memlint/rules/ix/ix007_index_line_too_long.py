"""## What it does
Reports an index entry line longer than 150 characters (the shared setting
`index-line-length`, which IX001's and IX002's fixes and IX013 keep to as
well; `[rules.IX007] max-length` is read as it). Characters are counted, not bytes, so CJK text is not
penalized for its UTF-8 size.

Applies wherever the index is a Claude Code index: in `typed` and
`freeform` stores, and in `linked` stores kept under a `.claude` folder.

## Why is this bad?
The typed contract allows one short line per entry: the index is loaded into
every session, and long summaries eat the load budget that other entries
need. Detail belongs in the memory file.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead on the payments team since 2021, owns the ledger service, reviews every schema change, prefers small PRs and dislikes long meetings
```

Use instead (detail belongs in the memory file):
```memlint-good path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead on payments; prefers small PRs
```
```memlint-file path=user_role.md
---
name: Role
description: Backend lead on payments; prefers small PRs
type: user
---

Backend lead on the payments team since 2021; owns the ledger service and
reviews every schema change. Prefers small PRs and short meetings.
```

## Fix safety
No fix: shortening a summary needs judgement.
"""  # noqa: E501 (the example line must exceed 150 characters)

from __future__ import annotations

import os

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX007",
    name="index-line-too-long",
    summary="Index entry line is longer than 150 characters",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=MARKDOWN_PROFILES,
    shared=("index-line-length",),
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    if not is_claude_code_index(ctx.store):
        return
    limit = ctx.shared("index-line-length")
    for entry in index.entries:
        length = entry.line_end - entry.line_start
        if length > limit:
            message = f"index entry is {length} characters long (limit {limit})"
            yield ctx.report(index.file, entry.line_start + limit, entry.line_end, message)


def is_claude_code_index(store) -> bool:
    """Whether Claude Code loads this store's ``MEMORY.md``: the typed layout, an index
    that follows no other contract, or any store kept under a ``.claude`` folder."""
    if store.profile != "linked":
        return True
    return ".claude" in store.root.split(os.sep)
