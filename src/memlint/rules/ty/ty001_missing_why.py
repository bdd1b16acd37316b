"""## What it does
Reports a `feedback` or `project` memory whose body has no `**Why:**` line
(also accepted: `**Why**:` and a `## Why` heading). Code blocks and code
spans do not count. Localized labels go in the `labels` option, e.g.
`labels = ["Why", "Почему"]`.

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

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.ty.sections import has_section, labels_of, needs_sections, report_missing

META = RuleMeta(
    code="TY001",
    name="missing-why",
    summary="Feedback or project memory lacks a **Why:** line",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    options={"labels": ["Why"]},
    local=True,
)


def check(ctx, memory):
    if needs_sections(memory) and not has_section(memory, labels_of(ctx.options)):
        yield report_missing(ctx, memory, "`**Why:**`")
