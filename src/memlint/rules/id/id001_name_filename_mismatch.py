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
Safe: the fix rewrites the `name` value (quoted when needed) and, in the same
fix, every `[[wikilink]]` and `superseded by [[…]]` that resolved to the old
name (in memories and in the index) so that it names the new one (`#heading`
and `|label` kept, as `memlint mv` does); nothing else changes. Its `help:`
says how many links it rewrites. It is withheld when the value is a block
scalar, the key is duplicated, the frontmatter uses anchors or flow mappings,
or the edit would change any other value.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED, RuleMeta, Scope
from memlint.rules.lk.resolve import links_to
from memlint.sources.yamledit import replace_scalar
from memlint.textutil import escape, plural, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Store

LINK_BREAKERS = "[]|#"

META = RuleMeta(
    code="ID001",
    name="name-filename-mismatch",
    summary="name differs from the filename",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED,
    fix=FixAvailability.SOMETIMES,
)


def _nfc(text: str) -> str:
    if text.isascii():  # its own NFC form
        return text
    import unicodedata  # a C extension: loaded only for text that is not ASCII

    return unicodedata.normalize("NFC", text)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    name = memory.name
    if name is None or not name.strip():
        return
    stem = _nfc(memory.stem)
    if _nfc(name.strip()) == stem or _nfc(name) == stem:
        return
    frontmatter = memory.frontmatter
    if frontmatter is None:  # (a memory with a name has frontmatter)
        return
    found = frontmatter.fields["name"]
    edit = replace_scalar(memory.file, frontmatter, "name", memory.stem)
    links_found = links_to(ctx.store, memory) if not isinstance(edit, str) else []
    if links_found and any(ch in memory.stem for ch in LINK_BREAKERS):
        edit = "the filename cannot be written inside a `[[wikilink]]`"
    refused = isinstance(edit, str)
    fix = None
    if not isinstance(edit, str):
        links = [
            source.edit(link.target_start, link.target_end, memory.stem)
            for source, link in links_found
        ]
        title = f"Set `name` to `{escape(memory.stem)}`"
        if links:
            title += f" and rewrite {plural(len(links), 'wikilink')} to it"
        fix = Fix.safe(title, edit, *links)
    yield ctx.report(
        memory.file,
        found.value_start,
        found.value_end,
        f"`name` is `{escape(shorten(name, 60))}` but the file is `{escape(memory.stem)}.md`",
        fix=fix,
        notes=(f"no automatic fix: {edit}; edit `name` by hand",) if refused else (),
    )
