"""## What it does
In a typed store, reports a memory file not named `<type>_<slug>.md`, where
the type is one of `user`, `feedback`, `project`, `reference`.

## Why is this bad?
The typed contract makes the filename carry the memory's type, so that the
agent and tools can see what a memory is without opening it and writes land
in predictable places. A file like `design_decisions.md` breaks that.

## Example
`design_decisions.md`:
```memlint-bad path=design_decisions.md
---
name: Design decisions
description: why the API is versioned by URL
type: project
---
The API is versioned by URL.
```

Use instead: `project_design-decisions.md`:
```memlint-good path=project_design-decisions.md
---
name: Design decisions
description: why the API is versioned by URL
type: project
---
The API is versioned by URL.
```

## Fix safety
No fix: renaming a file breaks every link to it.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.privacy import LazyPattern, mask_text
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.store import MEMORY_TYPES

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

TYPED_FILENAME = LazyPattern(r"(user|feedback|project|reference)_(.*)")
SLUG_BREAK = LazyPattern(r"[^a-z0-9]+")

META = RuleMeta(
    code="ID004",
    name="typed-filename-form",
    summary="Typed memory file is not named <type>_<slug>.md",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if TYPED_FILENAME.fullmatch(memory.stem) or memory.is_document:
        return
    name = f"`{memory.stem}.md` is not named `<type>_<slug>.md`"
    kind = memory.memory_type
    if kind in MEMORY_TYPES:
        # from the stem as shown: lower-cased, a secret in it would no longer be masked
        shown = mask_text(memory.stem).lower()
        slug = SLUG_BREAK.sub("-", shown).strip("-")[:40].strip("-") or "<slug>"
        message = f"{name}: as a {kind} memory, e.g. `{kind}_{slug}.md`"
    else:
        message = f"{name}, and its frontmatter has no memory `type` to choose the prefix"
    yield ctx.report(memory.file, 0, 0, message)
