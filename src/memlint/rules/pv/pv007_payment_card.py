"""## What it does
Reports payment card numbers: 13 to 19 digits, bare or grouped by single
spaces or hyphens the way cards are printed (`4242 4242 4242 4242`,
`3782-822463-10005`), glued to punctuation or not (`billing,4242…,visa`),
that pass the Luhn check and start with a known issuer prefix (Visa,
Mastercard, American Express, Discover, Diners Club, JCB, UnionPay, Mir,
Maestro) for their length. Memory bodies, frontmatter, the index and every
string of a JSONL note (`fact`, `tags`, other fields) are checked.

## Why is this bad?
A card number is payment data: memory files are synced, committed and
loaded into every session, and the note-capture contract asks for numeric
identifiers to be redacted. The finding is an error in memories as in note
stores: a memory that holds a card number must not pass a check.

## Example
```memlint-bad path=billing.md
The customer pays with card 5555 5555 5555 4444, renewed each March.
```

Use instead:
```memlint-good path=billing.md
The customer pays by card (details in the billing system), renewed each March.
```

## Fix safety
Unsafe: replaces the number with the redaction marker. Note stores get no
fix (they are append-only). Documented test numbers (`4242 4242 4242 4242`
and the like) are reported too: memlint cannot tell them from real cards.
Name them in the `allow-numbers` option (digits only, separators ignored),
or match them with `allow-patterns`, to keep them. Not reported: numbers
that fail the Luhn check (most order ids), unknown prefixes (ISBNs start
with 978/979, Unix times in seconds to nanoseconds up to 2039 with 1 or
20-21), decimal fractions, dotted versions, `#` issue numbers, phone numbers.
"""

from __future__ import annotations

from functools import partial

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_cards
from memlint.rules.base import ALL_PROFILES, Option, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source, string_list

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV007",
    name="payment-card",
    summary="A payment card number",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(
        Option("allow-numbers", list, [], "card numbers (test cards) not reported"),
        ALLOW_PATTERNS,
    ),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    allow = [
        "".join(c for c in n if c.isdigit()) for n in string_list(ctx.options.get("allow-numbers"))
    ]
    yield from check_source(ctx, source, partial(find_cards, allow=allow), "payment data")
