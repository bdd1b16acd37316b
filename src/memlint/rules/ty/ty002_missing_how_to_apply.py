"""## What it does
Reports a `feedback` or `project` memory whose body has no
`**How to apply:**` line (also accepted: `**How to apply**:`, a heading, a
qualified label such as `**How to apply here:**`, and the forms TY003
rewrites). Code does not count. When the `**Why:**` line is missing as well
and TY001 is selected, TY001 reports both and this rule stays silent.
Localized labels go in the shared setting `how-to-apply-labels` (`[shared]`,
read by TY001 and TY003 too), e.g.
`how-to-apply-labels = ["How to apply", "Когда применять"]`; `[rules.TY002]
labels` is read as it.

## Why is this bad?
The typed contract asks every rule or project fact to say when and how it
applies; without that the agent applies it everywhere or nowhere.

## Example
```memlint-bad path=feedback_force-push.md
---
name: No force-push
description: Never force-push to main
type: feedback
---

Never force-push to main.

**Why:** CI deploys from main.
```

Use instead:
```memlint-good path=feedback_force-push.md
---
name: No force-push
description: Never force-push to main
type: feedback
---

Never force-push to main.

**Why:** CI deploys from main.
**How to apply:** use a branch and a pull request.
```

## Fix safety
No fix: how a rule applies must come from the user.
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
    code="TY002",
    name="missing-how-to-apply",
    summary="Feedback or project memory lacks a **How to apply:** line",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    shared=SECTION_LABELS,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not needs_sections(memory) or has_section(
        memory, section_labels(ctx, "how-to-apply-labels")
    ):
        return
    if ctx.selected("TY001") and not has_section(memory, section_labels(ctx, "why-labels")):
        return  # TY001 reports both missing sections in one finding
    yield report_missing(ctx, memory, "no `**How to apply:**` section")
