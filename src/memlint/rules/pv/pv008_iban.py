"""## What it does
Reports IBANs (international bank account numbers): a country code, two check
digits and the account part, bare or grouped by single spaces in fours
(`GB82 WEST 1234 5698 7654 32`), of the length the country issues and passing
the ISO 13616 mod-97 check. Memory bodies, frontmatter, the index and every
string of a JSONL file (note `fact`, `tags`, fields of other schemas) are checked.

## Why is this bad?
A bank account number is payment data tied to a person or a company: memory
files are synced, committed and loaded into every session, and the
note-capture contract asks for numeric identifiers to be redacted. The finding
is an error, in memories as in note stores, as for card numbers (PV007).

## Example
```memlint-bad path=payroll.md
Salary goes to GB82 WEST 1234 5698 7654 32 at the end of each month.
```

Use instead:
```memlint-good path=payroll.md
Salary goes to the account on file in the payroll system at the end of each month.
```

## Fix safety
Unsafe: replaces the IBAN with the redaction marker. Note stores get no fix
(they are append-only). Documented sample IBANs are reported too: keep them
with `allow-patterns`. Not reported: strings of an unknown country or the
wrong length, and any that fail the mod-97 check (random upper-case codes,
hashes, order numbers).
"""

from __future__ import annotations

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_ibans
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV008",
    name="iban",
    summary="An IBAN (bank account number)",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(ALLOW_PATTERNS,),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    yield from check_source(ctx, source, find_ibans, "payment data")
