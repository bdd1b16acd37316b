"""## What it does
Reports phone numbers written in international form: `+`, a country code and
8 to 15 digits in all, bare or grouped by spaces, hyphens, dots or parentheses
(`+44 20 7946 0958`, `+1 (415) 555-2671`, `+33.1.23.45.67.89`). Memory
bodies, frontmatter, the index and every string of a JSONL file are checked.

## Why is this bad?
A phone number points at a person. The note-capture contract asks for
personal data to be redacted, so in a note store the finding is an error; in a
memory it is a warning (a memory may hold a company's public switchboard on
purpose). A severity set in the configuration applies everywhere.

## Example
```memlint-bad path=contacts.md
The on-call engineer answers on +44 20 7946 0958 at night.
```

Use instead:
```memlint-good path=contacts.md
The on-call engineer is paged through the incident tool at night.
```

## Fix safety
Unsafe: replaces the number with the redaction marker. Note stores get no fix
(they are append-only). Not reported: fewer than 8 or more than 15 digits
(`+100`, scores), decimals and coordinates (`+52.520008`), time-zone
offsets (`UTC+05:30`), placeholders (`+1 555 555 5555`, `+49 000 0000000`),
a `+` glued to a letter or digit (`1e+10`). National numbers without `+`
are long digit runs for PV006. Keep documented numbers with `allow-patterns`.
"""

from __future__ import annotations

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_phones
from memlint.records import replace
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV009",
    name="phone-number",
    summary="An international phone number",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(ALLOW_PATTERNS,),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    in_notes = source.rel.endswith(".jsonl") and ctx.settings.severity_for(META.code) is None
    for found in check_source(ctx, source, find_phones, "personal data"):
        yield replace(found, severity=Severity.ERROR) if in_notes else found
