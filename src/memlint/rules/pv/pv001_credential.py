"""## What it does
Reports credentials written in plain text: provider-shaped tokens (AWS access
key IDs, GitHub, GitLab, Slack, Stripe live keys, OpenAI, Anthropic, Google API
keys), Slack webhook URLs, JSON Web Tokens, bearer tokens, `password=` /
`token:` / `api_key:` assignments with a real value, and credentials written
as prose: `login: admin / <secret>`, `Demo account passwords: <email> /
<secret>`, and a back-ticked value after "password", "pw" or "passcode".
A prose value counts only when it mixes letters
with digits or symbols (a passcode: six digits or more), so `password: ask
the user`, `Settings / Billing` and placeholders are not reported.

## Why is this bad?
Memory files are read into every future agent session, synced, shared and
often committed; a credential there leaks to everyone who can read them.

## Example
```memlint-bad path=staging.md
Log in to the staging dashboard as `deploy`, password: hunter2-correct-horse
```

Use instead (or `password: [REDACTED]`):
```memlint-good path=staging.md
Log in to the staging dashboard as `deploy`; the password is in the team vault.
```

A provider token (`ghp_` and 36 more characters, `AKIA…`, `sk_live_…`) is
reported the same way, with or without a `token:` label.

## Fix safety
Unsafe: replaces the value with the redaction marker, which changes the memory's
meaning. In note stores there is no fix (the store is append-only): rewrite the
history and rotate the credential. No fix either where the value names a file (a
link's target, or the `name` of a memory whose file name holds it): rename the file
first (`memlint mv`), or the link breaks and its fix writes the value back.
Not reported: templates (`${TOKEN}`, `<token>`), environment variable names,
placeholders (`xxx`, `changeme`, `...`) and values under 6 characters; the
`allow-patterns` option (regexes) skips more values.
"""

from __future__ import annotations

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_credentials
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV001",
    name="credential",
    summary="A credential (API key, token or password) in plain text",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(ALLOW_PATTERNS,),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    yield from check_source(ctx, source, find_credentials, "credential in plain text")
