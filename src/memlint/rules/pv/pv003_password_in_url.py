"""## What it does
Reports a password embedded in a URL: `scheme://user:password@host`.

## Why is this bad?
Connection strings get copied into memories while debugging; the password then
travels with every session and every copy of the folder.

## Example
```memlint-bad path=database.md
The app reads postgres://app:hunter2-correct-horse@db.internal:5432/prod.
```

Use instead:
```memlint-good path=database.md
The app reads postgres://app:[REDACTED]@db.internal:5432/prod.
```

## Fix safety
Unsafe: replaces the password (only) with the redaction marker. Note stores get
no fix (append-only). Placeholders (`user:password@`, `:${PASS}@`, `:***@`) and
ports (`host:8080@`) are not reported.
"""

from __future__ import annotations

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_url_passwords
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV003",
    name="password-in-url",
    summary="A URL with a password in it",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(ALLOW_PATTERNS,),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    yield from check_source(ctx, source, find_url_passwords, "credential in a URL")
