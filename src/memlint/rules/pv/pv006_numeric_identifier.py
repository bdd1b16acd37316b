"""## What it does
Reports long runs of digits (10 or more by default) that look like account,
customer, chat or phone identifiers.

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
Not reported: digits glued to letters, dots, slashes or dashes (hashes, UUIDs,
versions, decimals, URLs), Unix times in seconds or milliseconds between 2000
and 2100, compact `YYYYMMDD[hhmm[ss]]` dates, placeholders (one digit repeated,
`1234567890` / `9876543210` runs, a country or area code of up to five digits
followed by one digit repeated: `4930000000000`), and payment card numbers
(PV007 reports those). Numbers split by spaces or dashes (phone numbers, SSNs)
are not matched. Option `min-digits`
(default 10) sets the run length.
"""

from functools import partial

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_numeric_ids
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import check_source

META = RuleMeta(
    code="PV006",
    name="numeric-identifier",
    summary="A long numeric identifier",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options={"min-digits": 10, "allow-patterns": []},
    local=True,
)


def check(ctx, source):
    minimum = ctx.options.get("min-digits")
    if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
        minimum = 10
    detect = partial(find_numeric_ids, min_digits=minimum)
    yield from check_source(ctx, source, detect, "personal data")
