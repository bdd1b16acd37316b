"""## What it does
Reports a file that uses both CRLF and LF line endings. A file that uses
CRLF throughout is fine (and fixes keep it that way).

## Why is this bad?
Mixed endings usually come from two tools editing one file; YAML and
Markdown readers then see stray `\\r` characters in values, and every
later edit produces noisy diffs.

## Example
Not writable as a text example: the difference is invisible (and memlint
never prints raw control characters). For instance a memory whose
frontmatter lines end with `\\r\\n` (written on Windows) and whose last
paragraph, appended later by an agent, ends with `\\n`.

Use instead: one line ending style for the whole file.

## Fix safety
No fix: which style is intended is the user's choice.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="FS009",
    name="mixed-line-endings",
    summary="File mixes CRLF and LF line endings",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    text = source.text
    if not text:
        return
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    if not crlf or not lf:
        return
    minority_is_crlf = crlf < lf
    pos = text.find("\n")
    while pos != -1:
        is_crlf = pos > 0 and text[pos - 1] == "\r"
        if is_crlf == minority_is_crlf:
            break
        pos = text.find("\n", pos + 1)
    line_end = pos - 1 if minority_is_crlf else pos
    yield ctx.report(
        source,
        line_end,
        line_end,
        f"mixed line endings: {crlf} CRLF and {lf} LF; first "
        f"{'CRLF' if minority_is_crlf else 'LF'} line here",
    )
