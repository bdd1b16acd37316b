"""## What it does
Reports email addresses.

## Why is this bad?
The note-capture contract asks for personal data to be redacted: an address in
a memory identifies a person and is kept, synced and shared indefinitely.

## Example
```memlint-bad path=reports.md
Send the weekly report to jane.doe@acme-corp.com.
```

Use instead:
```memlint-good path=reports.md
Send the weekly report to the finance lead.
```

## Fix safety
Unsafe: replaces the address with the redaction marker. Note stores get no fix.
Not reported: reserved domains (`example.com`/`.org`/`.net`, `*.example`,
`*.test`, `*.invalid`, `*.localhost`, `*.local`, `localhost`), `noreply`,
`no-reply`, `donotreply` and `mailer-daemon` senders, GitHub's
`users.noreply.github.com`, SSH remotes (`git@host:`) and file names whose
extension looks like a domain (`name@2x.png`). Option `allow-domains` (list)
adds domains (subdomains included); `allow-patterns` (regexes) skips matching
addresses.
"""

from __future__ import annotations

from functools import partial

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_emails
from memlint.rules.base import ALL_PROFILES, Option, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source, string_list

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV004",
    name="email-address",
    summary="An email address (personal data)",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(
        Option("allow-domains", list, [], "domains whose addresses are not reported"),
        ALLOW_PATTERNS,
    ),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    domains = string_list(ctx.options.get("allow-domains"))
    detect = partial(find_emails, allow_domains=domains)
    yield from check_source(ctx, source, detect, "personal data")
