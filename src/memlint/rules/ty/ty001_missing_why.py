"""## What it does
Reports a `feedback` or `project` memory whose body has no `**Why:**` line
(also accepted: `**Why**:`, a `## Why` heading and a qualified label such as
`**Why this project:**`; a full-width colon or an unbolded `Why:` at the
start of a line counts too, and TY003 reports its form). Code blocks and
code spans do not count. When the `**How to apply:**` line is missing as
well, this one finding says so (TY002 stays silent). Localized labels go in
the shared setting `why-labels` (`[shared]`, read by TY002 and TY003 too),
e.g. `why-labels = ["Why", "Почему"]`; `[rules.TY001] labels` is read as it.

## Why is this bad?
The typed contract requires the reason behind each rule or project fact.
Without it the agent cannot judge edge cases, and nobody can tell later
whether the memory still applies.

## Example
```memlint-bad path=feedback_force-push.md
---
name: No force-push
description: Never force-push to main
type: feedback
---

Never force-push to main.

**How to apply:** use a branch and a pull request.
```

Use instead:
```memlint-good path=feedback_force-push.md
---
name: No force-push
description: Never force-push to main
type: feedback
---

Never force-push to main.

**Why:** CI deploys from main; a rewrite once redeployed an old build.
**How to apply:** use a branch and a pull request.
```

## Fix safety
No fix: the reason must come from the user, never be invented.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.shared import SECTION_LABELS
from memlint.rules.ty.sections import has_section, needs_sections, report_missing, section_labels

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="TY001",
    name="missing-why",
    summary="Feedback or project memory lacks a **Why:** line",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    shared=SECTION_LABELS,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not needs_sections(memory) or has_section(memory, section_labels(ctx, "why-labels")):
        return
    how_missing = ctx.selected("TY002") and not has_section(
        memory, section_labels(ctx, "how-to-apply-labels")
    )
    what = (
        "neither a `**Why:**` nor a `**How to apply:**` section"
        if how_missing
        else "no `**Why:**` section"
    )
    yield report_missing(ctx, memory, what)
