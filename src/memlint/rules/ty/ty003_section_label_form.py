"""## What it does
Reports a `**Why:**` or `**How to apply:**` label of a `feedback` or
`project` memory written in a form other than the canonical one: with a
full-width colon (`**Why**：`) or without bold at the start of a line
(`Why:`, `- How to apply:`). One finding per memory, at the first such label.
The labels are the shared settings `why-labels` and `how-to-apply-labels`
(`[shared]`), which TY001 and TY002 look for.

## Why is this bad?
Tools and agents that look for the sections by their canonical label miss
the variants, and a store that mixes forms is harder to scan. The content is
there; only the label needs rewriting.

## Example
```memlint-bad path=feedback_force-push.md
---
name: No force-push
description: Never force-push to main
type: feedback
---

Never force-push to main.

Why: CI deploys from main.
**How to apply**： use a branch and a pull request.
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
Safe: the fix rewrites each variant label to `**Label:**` (adding a space
when text followed the label directly) and changes nothing else.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.shared import SECTION_LABELS
from memlint.rules.ty.sections import label_variants, needs_sections, section_labels

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="TY003",
    name="section-label-form",
    summary="A **Why:** or **How to apply:** label is not in its canonical form",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    fix=FixAvailability.ALWAYS,
    local=True,
    shared=SECTION_LABELS,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not needs_sections(memory):
        return
    labels = tuple(label for name in SECTION_LABELS for label in section_labels(ctx, name))
    variants = label_variants(memory, labels)
    if not variants:
        return
    source = memory.file
    text = source.text or ""
    edits = [source.edit(v.start, v.end, _canonical(v, text)) for v in variants]
    first = variants[0]
    more = f" (and {len(variants) - 1} more)" if len(variants) > 1 else ""
    message = f"`{first.written.strip()}` is not written as `**{first.label}:**`{more}"
    fix = Fix.safe(f"Rewrite as `**{first.label}:**`" if not more else "Rewrite the labels", *edits)
    yield ctx.report(source, first.start, first.end, message, fix)


def _canonical(variant, text: str) -> str:
    """``**Label:**``, with a space when text follows the label directly (``**Why**：x``)."""
    follows = text[variant.end : variant.end + 1]
    return f"**{variant.label}:**" + (" " if follows and not follows.isspace() else "")
