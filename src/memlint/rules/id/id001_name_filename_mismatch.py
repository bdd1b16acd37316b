"""## What it does
In `linked` stores, reports a memory whose `name` differs from its filename
without `.md` (compared after Unicode NFC normalization).

## Why is this bad?
The filename is the memory's identity and wikilinks resolve against `name`:
when the two disagree, a link written from one of them misses the memory.
The contract says the repair is always to rewrite `name`, never to rename
the file.

## Example
```memlint-bad path=coffee-preference.md
---
name: Coffee preference
description: prefers espresso, no sugar
metadata:
  type: user
---
Prefers espresso, no sugar.
```

Use instead:
```memlint-good path=coffee-preference.md
---
name: coffee-preference
description: prefers espresso, no sugar
metadata:
  type: user
---
Prefers espresso, no sugar.
```

The rest of the store (most names match their filenames, which is how
memlint recognizes a `linked` store):
```memlint-file path=tea.md
---
name: tea
description: green tea after lunch
metadata:
  type: user
---
Green tea after lunch.
```

```memlint-file path=standup.md
---
name: standup
description: daily standup is at 9:30
metadata:
  type: project
---
Daily standup is at 9:30.
```

## Fix safety
Safe: the fix rewrites exactly the `name` value (quoted when needed) and
nothing else; its help says that wikilinks written with the old name stop
resolving (rename them, or use `memlint mv`). It is withheld when the value
is a block scalar, the key is duplicated, the frontmatter uses anchors or
flow mappings, or the edit would change any other value.
"""

import unicodedata

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED, RuleMeta, Scope
from memlint.sources.yamledit import replace_scalar
from memlint.textutil import escape, shorten

META = RuleMeta(
    code="ID001",
    name="name-filename-mismatch",
    summary="name differs from the filename",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED,
    fix=FixAvailability.SOMETIMES,
    local=True,
)


def check(ctx, memory):
    name = memory.name
    if name is None or not name.strip():
        return
    if unicodedata.normalize("NFC", name.strip()) == unicodedata.normalize("NFC", memory.stem):
        return
    found = memory.frontmatter.fields["name"]
    edit = replace_scalar(memory.file, memory.frontmatter, "name", memory.stem)
    refused = isinstance(edit, str)
    yield ctx.report(
        memory.file,
        found.value_start,
        found.value_end,
        f"`name` is `{escape(shorten(name, 60))}` but the file is `{escape(memory.stem)}.md`",
        fix=None if refused else Fix.safe(_title(name, memory.stem), edit),
        notes=(f"no automatic fix: {edit}; edit `name` by hand",) if refused else (),
    )


def _title(name: str, stem: str) -> str:
    """The fix's help: the new value, and that links by the old name stop resolving."""
    old = escape(shorten(name.strip(), 60))
    return f"Set `name` to `{escape(stem)}`; wikilinks still written `[[{old}]]` stop resolving"
