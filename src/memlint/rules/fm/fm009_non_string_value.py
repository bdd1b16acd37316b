"""## What it does
Reports a `name`, `description` or type value that YAML loads as something
other than a string: a number, a boolean (`yes`, `no`, `on`, `off`), a date,
a list or a mapping. A null (`null`, `~`) counts as empty, which is FM008.
In freeform stores only `name` and `description` are checked, and only where
a frontmatter block exists.

## Why is this bad?
`name: yes` becomes `True` and `description: 2024-01-01` a date object:
links stop matching, and some loaders crash on the unexpected type.

## Example
`2024.md`, whose `name` YAML reads as the number 2024:
```memlint-bad path=2024.md
---
name: 2024
description: goals for the year
metadata:
  type: project
---
Ship the v2 API.
```

Use instead:
```memlint-good path=2024.md
---
name: "2024"
description: goals for the year
metadata:
  type: project
---
Ship the v2 API.
```

## Fix safety
No fix: quoting is safe, but memlint leaves the choice of wording to you.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.fm.common import required_fields, usable
from memlint.sources.frontmatter import YamlScalar
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM009",
    name="non-string-value",
    summary="name, description or type is not a string",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not usable(memory):
        return
    fields = required_fields(memory, ctx.store.profile)
    if ctx.store.profile == "freeform":
        fields = fields[:2]
    for key, found in fields:
        if found is None or found.value is None or isinstance(found.value, str):
            continue
        value = found.value
        if isinstance(value, YamlScalar):
            article = "an" if value.kind[:1] in ("a", "e", "i", "o", "u") else "a"
            what = f"{article} {value.kind} (`{escape(shorten(value.text, 40))}`)"
        elif isinstance(value, list):
            what = "a list"
        else:
            what = "a mapping"
        yield ctx.report(
            memory.file,
            found.value_start,
            found.value_start,
            f"`{key}` is {what}, not a string; quote it",
        )
