"""## What it does
In a typed store, reports a memory whose filename type (`project_` in
`project_x.md`) differs from its frontmatter type (`type`, or `metadata.type`).

## Why is this bad?
One of the two is wrong, and tools disagree on what the memory is: a
`feedback` rule filed as `project_*.md` is not found where the agent looks
for rules, and body checks apply the wrong contract.

## Example
`project_api-docs.md`, filed as a project memory but typed `reference`:
```memlint-bad path=project_api-docs.md
---
name: API docs
description: where the API reference lives
type: reference
---
The API reference is at docs.example.com/api.
```

Use instead: `reference_api-docs.md` (or `type: project` if that is right):
```memlint-good path=reference_api-docs.md
---
name: API docs
description: where the API reference lives
type: reference
---
The API reference is at docs.example.com/api.
```

## Fix safety
No fix: memlint cannot tell which of the two is wrong.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.id.id004_typed_filename_form import TYPED_FILENAME
from memlint.store import MEMORY_TYPES

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="ID006",
    name="type-prefix-mismatch",
    summary="Filename type differs from the frontmatter type",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    match = TYPED_FILENAME.fullmatch(memory.stem)
    found = memory.type_field
    if match is None or found is None or memory.memory_type not in MEMORY_TYPES:
        return
    if memory.memory_type == match.group(1):
        return
    message = f"filename says `{match.group(1)}` but the frontmatter type is `{memory.memory_type}`"
    yield ctx.report(memory.file, found.value_start, found.value_end, message)
