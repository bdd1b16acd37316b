"""## What it does
In a typed store, reports a `<type>_<slug>.md` filename whose slug is not 1 to
40 lowercase letters, digits and hyphens. Options: `max-length` (40) and
`allow-underscore` (true: Claude Code's own memory writer names files like
`feedback_git_commits.md`, so underscores are accepted unless this is set to
false for the strict contract of the memory-update skill).

## Why is this bad?
The typed contract fixes the slug's alphabet so that filenames are stable
across file systems and easy to match: underscores, capitals, spaces and
non-ASCII letters make the same memory easy to write twice under two names.

## Example
`feedback_Git_Commits.md`:
```memlint-bad path=feedback_Git_Commits.md
---
name: Git commits
description: one logical change per commit
type: feedback
---
One logical change per commit.
```

Use instead: `feedback_git-commits.md`:
```memlint-good path=feedback_git-commits.md
---
name: Git commits
description: one logical change per commit
type: feedback
---
One logical change per commit.
```

## Fix safety
No fix: renaming a file breaks every link to it.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.privacy import LazyPattern, mask_text
from memlint.rules.base import TYPED, Option, RuleMeta, Scope
from memlint.rules.id.id004_typed_filename_form import TYPED_FILENAME

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

SLUG_CHARS = LazyPattern(r"[a-z0-9-]*")
SLUG_CHARS_UNDERSCORE = LazyPattern(r"[a-z0-9_-]*")

META = RuleMeta(
    code="ID005",
    name="invalid-slug",
    summary="Slug of a typed filename is not [a-z0-9-]{1,40}",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    options=(
        Option("max-length", int, 40, "the longest slug, in characters", minimum=1),
        Option("allow-underscore", bool, True, "whether `_` may join words"),
    ),
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    match = TYPED_FILENAME.fullmatch(memory.stem)
    if match is None:
        return
    slug = match.group(2)
    limit = int(ctx.options["max-length"])
    if not slug:
        problem = "is empty"
    elif ctx.options["allow-underscore"] and not SLUG_CHARS_UNDERSCORE.fullmatch(slug):
        problem = "may hold only lowercase letters, digits, hyphens and underscores"
    elif not ctx.options["allow-underscore"] and not SLUG_CHARS.fullmatch(slug):
        problem = "may hold only lowercase letters, digits and hyphens"
    elif len(slug) > limit:
        problem = f"is {len(slug)} characters long (limit {limit})"
    else:
        return
    # from the slug as shown: lower-cased, a secret in it would no longer be masked
    shown = mask_text(slug).lower()
    suggestion = re.sub(r"[^a-z0-9]+", "-", shown).strip("-")[:limit].strip("-")
    hint = (
        f" (e.g. `{match.group(1)}_{suggestion}.md`)" if suggestion and suggestion != slug else ""
    )
    yield ctx.report(memory.file, 0, 0, f"slug `{slug}` {problem}{hint}")
