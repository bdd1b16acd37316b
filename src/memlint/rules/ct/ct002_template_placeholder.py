"""## What it does
Reports template slots left unfilled in a memory's body or description:
a bracketed choice list (`[PhD student / Postdoc / …]`), a bracketed or
angle-bracketed prompt (`[your role]`, `<your name>`, `[e.g. …]`), a
`TODO: fill in`-style note (also inside an HTML comment), a `{{placeholder}}`
and a bare `XXX`. Code spans and code blocks are not read; `${{ … }}`
(CI expressions) and links (`[text](url)`, `[[wikilink]]`) are not slots.
One finding per memory, at the first slot, with the count.

## Why is this bad?
The agent reads the slot as a fact ("the user is a PhD student / Postdoc")
or as noise; the memory looks written but says nothing.

## Example
```memlint-bad path=user_role.md
---
name: Role
description: The user's role and experience
type: user
---

The user is a [PhD student / Postdoc / Professor] working on <your field>.
```

Use instead:
```memlint-good path=user_role.md
---
name: Role
description: The user's role and experience
type: user
---

The user is a postdoc working on protein folding.
```

## Fix safety
No fix: the value must come from the user.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.privacy import LazyPattern
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ct.spans import first_and_more, spans_in_memory

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

BRACKET = re.compile(r"(?<!\[)\[([^\[\]\n]{1,200})\](?![(\[\]:])")
PROMPT = LazyPattern(r"(?:your|insert|enter|fill[ -]in|e\.g\.?)\b", re.IGNORECASE)
SLOT = LazyPattern(
    r"<(?:your|my|insert|enter)[ _-][^<>\n]{1,40}>"
    r"|\bTODO[ \t]*:[ \t]*(?:fill|add|write|describe|replace)\b"
    r"|(?<!\$)\{\{[ \t]*[A-Za-z_][\w .-]{0,40}\}\}"
    r"|(?<![\w-])XXX(?![\w-])",
    re.IGNORECASE,
)
# What every match of SLOT in ASCII text holds, lower-cased: an ASCII text without
# one of them is not searched with SLOT (slow to try at every offset). The marks
# after ``<`` are looked for only in a text holding a ``<`` (one ``memchr``).
ANGLE_MARKS = ("<your", "<my", "<insert", "<enter")
OTHER_MARKS = ("todo", "xxx")
COMMENT_PROMPT = re.compile(
    r"<!--[ \t]*(?:fill[ -]in|todo|replace|add)\b(?:[^\n]{0,200}?-->)?", re.IGNORECASE
)

META = RuleMeta(
    code="CT002",
    name="template-placeholder",
    summary="Memory holds an unfilled template slot",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.frontmatter is None:
        return
    text = memory.file.text or ""
    found = spans_in_memory(memory, _slots, _may_hold_slot)
    found += [(m.start(), m.end()) for m in COMMENT_PROMPT.finditer(text, memory.body_start)]
    if not found:
        return
    start, end, more = first_and_more(found)
    slot = text[start:end] if end - start <= 60 else text[start : start + 59] + "…"
    message = f"unfilled template slot `{slot}`{more}: write the value or remove it"
    yield ctx.report(memory.file, start, end, message)


def _slots(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the slots in ``text[start:end]``."""
    if _may_hold_slot_mark(text, start, end):
        found = [(m.start(), m.end()) for m in SLOT.finditer(text, start, end)]
    else:
        found = []
    if not _may_hold_bracket(text, start, end):
        return found
    for match in BRACKET.finditer(text, start, end):
        inner = match.group(1)
        if inner.count(" / ") >= 2 or PROMPT.match(inner):
            found.append((match.start(), match.end()))
    return found


def _may_hold_slot(text: str, start: int, end: int) -> bool:
    return _may_hold_slot_mark(text, start, end) or _may_hold_bracket(text, start, end)


def _may_hold_slot_mark(text: str, start: int, end: int) -> bool:
    part = text[start:end]
    if not part.isascii():
        return True
    lowered = part.lower()
    if "<" in part and any(mark in lowered for mark in ANGLE_MARKS):
        return True
    return "{{" in part or any(mark in lowered for mark in OTHER_MARKS)


def _may_hold_bracket(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a ``[`` where BRACKET could start: not after
    another ``[`` and before something other than a bracket or a line break."""
    at = text.find("[", start, end)
    while at != -1:
        if (at == start or text[at - 1] != "[") and text[at + 1 : at + 2] not in "[]\n":
            return True
        at = text.find("[", at + 1, end)
    return False
