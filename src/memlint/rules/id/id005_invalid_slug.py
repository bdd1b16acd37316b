"""## What it does
In a typed store, reports a `<type>_<slug>.md` filename whose slug is not 1 to
40 lowercase letters, digits and hyphens. Option `max-length` (40).

## Why is this bad?
The typed contract fixes the slug's alphabet so that filenames are stable
across file systems and easy to match: underscores, capitals, spaces and
non-ASCII letters make the same memory easy to write twice under two names.

## Example
`feedback_Git_Commits.md`.

Use instead: `feedback_git-commits.md`.

## Fix safety
No fix: renaming a file breaks every link to it.
"""

import re

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.id.id004_typed_filename_form import TYPED_FILENAME

SLUG_CHARS = re.compile(r"[a-z0-9-]*")

META = RuleMeta(
    code="ID005",
    name="invalid-slug",
    summary="Slug of a typed filename is not [a-z0-9-]{1,40}",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=TYPED,
    options={"max-length": 40},
)


def check(ctx, memory):
    match = TYPED_FILENAME.fullmatch(memory.stem)
    if match is None:
        return
    slug = match.group(2)
    limit = int(ctx.options["max-length"])
    if not slug:
        problem = "is empty"
    elif not SLUG_CHARS.fullmatch(slug):
        problem = "may hold only lowercase letters, digits and hyphens"
    elif len(slug) > limit:
        problem = f"is {len(slug)} characters long (limit {limit})"
    else:
        return
    suggestion = re.sub(r"[^a-z0-9]+", "-", slug.lower()).strip("-")[:limit].strip("-")
    hint = (
        f" (e.g. `{match.group(1)}_{suggestion}.md`)" if suggestion and suggestion != slug else ""
    )
    yield ctx.report(memory.file, 0, 0, f"slug `{slug}` {problem}{hint}")
