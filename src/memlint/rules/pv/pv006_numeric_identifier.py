"""## What it does
Reports long numeric identifiers (10 or more digits by default) that look like
account, customer, chat or phone identifiers: bare runs, runs between commas
or semicolons (`billing,483920175634,visa`), and digit groups joined by single
spaces or hyphens (`483-920-1756`, `(415) 555-2671`, `0171 1234567`).

## Why is this bad?
The note-capture contract asks for numeric identifiers to be redacted: they
point at a person or an account and mean nothing to a future session.

## Example
```memlint-bad path=refunds.md
Customer account 483920175634 asked for a refund.
```

Use instead:
```memlint-good path=refunds.md
A customer asked for a refund; the account number is in the support ticket.
```

## Fix safety
Unsafe: replaces the digits with the redaction marker. Note stores get no fix.
Not reported: digits glued to letters, dots, slashes or dashes
(hashes, UUIDs, versions, decimals such as `0.48…` or `0,48…`, URLs),
`#` issue numbers, Unix times between 2000 and 2100 told by their value in
seconds, milliseconds, microseconds or nanoseconds (`5555555555554444` would
be the year 2146, so it is no timestamp), compact `YYYYMMDD[hhmm[ss]]` dates,
ISBN-13s (978/979 with a valid check digit), placeholders (one digit repeated,
`1234567890` / `9876543210` runs, a country or area code of up to five
digits followed by one digit repeated: `4930000000000`), payment cards (PV007)
and international phone numbers (PV009). Among grouped digits: groups after
the first of fewer than 3 digits (`10 20 30 40 50`), thousands
(`12 345 678 901`), equal-length groups split by spaces (a list of ports or
years: `8080 8443 9090`), dates (`2026-01-02-…`). Option `min-digits`
(default 10) sets the number of digits.
"""

from __future__ import annotations

from functools import partial

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_numeric_ids
from memlint.rules.base import ALL_PROFILES, Option, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV006",
    name="numeric-identifier",
    summary="A long numeric identifier",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(
        Option("min-digits", int, 10, "the shortest run of digits reported", minimum=1),
        ALLOW_PATTERNS,
    ),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    minimum = ctx.options.get("min-digits")
    if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
        minimum = 10
    detect = partial(find_numeric_ids, min_digits=minimum)
    yield from check_source(ctx, source, detect, "personal data")
