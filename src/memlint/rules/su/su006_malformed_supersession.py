"""## What it does
In `linked` stores, reports a description that marks the memory as
superseded but not in the exact form `superseded by [[successor]]` at the
start: `Superseded by [[x]]`, `SUPERSEDED by VEN-586 — see [[x]]`,
`**Superseded**: …`, or `superseded by [[x]]` later in the text. Prose that
merely mentions superseding (`supersedes the 2023 notes`, `how superseded
builds are pruned`) is not reported.

## Why is this bad?
Only the exact prefix marks a memory as retired: agents keep treating this
one as current, and no rule checks that its successor exists. Seed 001 makes
a successor that cannot be resolved "an ERROR and it gates", so this is an
error too: a retirement whose successor is not a checkable wikilink.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: Superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```

Use instead:
```memlint-good path=coffee.md
---
name: coffee
description: superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```
```memlint-file path=coffee-v2.md
---
name: coffee-v2
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

## Fix safety
No fix: rewording a description may change its meaning.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="SU006",
    name="malformed-supersession",
    summary="Description marks a supersession in a form readers do not recognize",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED,
    local=True,
)

LEADING_MARK = re.compile(r"[\s*_~`\[(\"'>#:-]{0,10}supersed(?:ed|ing)\b", re.IGNORECASE)
LINKED_LATER = re.compile(r"\bsuperseded\s{1,10}by\s{0,10}\[\[", re.IGNORECASE)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.supersession is not None:
        return
    found = memory.frontmatter.fields.get("description") if memory.frontmatter else None
    if found is None or not isinstance(found.value, str):
        return
    value = found.value
    if value.isascii() and "supersed" not in value.lower():
        return  # (what both patterns hold; in ASCII text, ignoring case is lower-casing)
    if LEADING_MARK.match(value) or LINKED_LATER.search(value[:2000]):
        yield ctx.report(
            memory.file,
            found.value_start,
            found.value_end,
            "description marks a supersession, but not as `superseded by [[name]]` "
            "at its start; readers will treat this memory as current",
        )
