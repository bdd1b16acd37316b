"""## What it does
Reports invisible characters in the parts of a store that identify or link
memories: frontmatter (keys, names, values), wikilinks, index entry lines and
file names. Flagged: bidi controls (U+202A–202E, U+2066–2069, U+200E/F,
U+061C), zero-width and other format characters (Unicode category Cf, such
as U+200B, U+00AD, U+FEFF and the tag characters U+E0000–E007F), line and
paragraph separators, and C0/C1 control characters other than tab, CR and LF.
A zero-width joiner between two emoji is allowed.

## Why is this bad?
They make two names that look equal differ (a link silently stops
resolving), reorder displayed text (Trojan Source, CVE-2021-42574), or smuggle
instructions an agent reads but a reviewer cannot see.

## Example
The `name` below holds a zero-width space (U+200B) between `coffee` and
`-preference`: it looks right, yet no longer equals the filename, and
`[[coffee-preference]]` links stop resolving.
```memlint-bad path=coffee-preference.md
---
name: coffee\u200b-preference
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

## Fix safety
No fix: memlint cannot know whether the character was intended.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Range, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.textutil import plain_ascii

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="FS010",
    name="hidden-unicode",
    summary="Invisible or control characters in names, keys, links or file names",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=MARKDOWN_PROFILES,
)

ALLOWED_CONTROLS = frozenset("\t\r\n")
ZWJ = "\u200d"
MAX_PER_FILE = 20


HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Zl", "Zp", "Cs"})
EMOJI_CATEGORIES = frozenset({"So", "Sk"})
# Every character of HIDDEN_CATEGORIES but tab, CR and LF (Unicode 15.1; a test
# checks it against the running Python's unicodedata), as one class for speed.
HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f"
    "\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
MAX_RUN = 50


def is_hidden(ch: str) -> bool:
    return HIDDEN.match(ch) is not None


def hidden_runs(text: str, start: int, end: int):
    """``(offset, chars)`` for each run of hidden characters in ``text[start:end]``."""
    pos = start
    while (found := HIDDEN.search(text, pos, end)) is not None:
        pos = found.start()
        if _joins_emoji(text, pos):
            pos += 1
            continue
        run_end = pos + 1
        while run_end < end and run_end - pos < MAX_RUN and HIDDEN.match(text, run_end, end):
            run_end += 1
        yield pos, text[pos:run_end]
        pos = run_end


def describe(chars: str) -> str:
    import unicodedata  # a C extension: loaded only when a hidden character is found

    codes = ", ".join(
        f"U+{ord(ch):04X} {unicodedata.name(ch, 'control character')}" for ch in chars[:3]
    )
    return codes + (" …" if len(chars) > 3 else "")


def _joins_emoji(text: str, pos: int) -> bool:
    if text[pos] != ZWJ or pos == 0 or pos + 1 >= len(text):
        return False
    import unicodedata

    before = text[pos - 1]
    if unicodedata.category(before) == "Mn" and pos >= 2:
        before = text[pos - 2]
    return (
        unicodedata.category(before) in EMOJI_CATEGORIES
        and unicodedata.category(text[pos + 1]) in EMOJI_CATEGORIES
    )


def may_hide(text: str) -> bool:
    """False when ``text`` surely holds no hidden character: ASCII without controls
    (a small character class, scanned 5x faster than ``HIDDEN``)."""
    return not plain_ascii(text)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for memory in store.reported_memories:
        if memory.plain_ascii:  # most files: known at parsing, the text is not even read
            continue
        source = memory.file
        text = source.text or ""
        spans = []
        fm = memory.frontmatter
        if fm is not None and fm.content_end > fm.content_start:
            spans.append((fm.content_start, fm.content_end, "frontmatter"))
        spans.extend((link.start, link.end, "wikilink") for link in memory.links)
        yield from _report_spans(ctx, source, text, spans)
    index = store.index
    if index is not None and store.reports_on(index.file.path):
        source = index.file
        text = source.text or ""
        if HIDDEN.search(text) is not None:  # else no entry holds one
            spans = [(e.line_start, e.line_end, "index entry") for e in index.entries]
            yield from _report_spans(ctx, source, text, spans)
    for source in store.reported_files:
        name = source.rel.rsplit("/", 1)[-1]
        if not may_hide(name):
            continue
        found = next(hidden_runs(name, 0, len(name)), None)
        if found is not None:
            yield ctx.report_at(
                source.path,
                source.display,
                Range.file_start(),
                f"hidden character in file name: {describe(found[1])}",
            )


def _report_spans(ctx, source, text, spans):
    reported = 0
    for start, end, where in spans:
        for offset, chars in hidden_runs(text, start, end):
            yield ctx.report(
                source,
                offset,
                offset + len(chars),
                f"hidden character in {where}: {describe(chars)}",
            )
            reported += 1
            if reported >= MAX_PER_FILE:
                return
