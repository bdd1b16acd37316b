"""## What it does
Reports frontmatter that is not valid YAML (or is too large or too deeply
nested to load safely), at the line and column of the error in the file.
The message says what to change (quote a value holding `: `, end a quoted
value with its closing quote, indent with spaces) and ends with the YAML
parser's own words.

## Why is this bad?
A loader that fails on the block drops the whole memory or its metadata;
different YAML libraries may even disagree about what it says.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: likes: espresso
metadata:
  type: user
---
Prefers espresso.
```

Use instead:
```memlint-good path=coffee.md
---
name: coffee
description: "likes: espresso"
metadata:
  type: user
---
Prefers espresso.
```

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.fm.common import problems
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM003",
    name="invalid-yaml",
    summary="Frontmatter is not valid YAML",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)

KINDS = frozenset({"invalid-yaml", "too-large", "too-deep"})


# (what the parser says, what to do): the first match names the fix.
ADVICE = (
    (
        "did not find expected key",
        "a quoted value must end the line: quote the whole value or none of it",
    ),
    ("mapping values are not allowed", "a value holding `: ` must be quoted"),
    ("tab character", "YAML is indented with spaces, never tabs"),
    ("cannot start any token", "a value starting with `@`, `` ` `` or `%` must be quoted"),
    ("could not find expected ':'", "each line must be `key: value` (or continue the one above)"),
    ("flow sequence", "a value starting with `[` is a list: close it with `]` or quote it"),
    ("flow mapping", "a value starting with `{` is a mapping: close it with `}` or quote it"),
    ("undefined alias", "a value starting with `*` must be quoted"),
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for problem in problems(memory, KINDS):
        message = problem.message
        if problem.kind == "invalid-yaml":
            raw = message.removeprefix("invalid YAML: ")
            advice = next((tip for said, tip in ADVICE if said in raw), None)
            if advice is not None:
                message = f"invalid YAML: {advice} (the parser says: {raw})"
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(message))
