"""## What it does
Reports a PEM private key block (`-----BEGIN … PRIVATE KEY-----`), RSA, EC,
OpenSSH, PKCS#8 or PGP. A BEGIN line without its END line (a key cut off
while pasting) is reported too.

## Why is this bad?
A private key in a memory file is readable by every agent session and anyone
the folder is shared with; it must be treated as compromised.

## Example
```memlint-bad path=deploy_key.md
The build server's deploy key:

-----BEGIN ENCRYPTED PRIVATE KEY-----
MIIFHDBOBgkqhkiG9w0BBQ0w…
-----END ENCRYPTED PRIVATE KEY-----
```

Use instead:
```memlint-good path=deploy_key.md
The build server's deploy key is in the team vault, entry `build-deploy-key`.
```

## Fix safety
Unsafe: replaces the whole block (only the BEGIN line when the END line is
missing) with the redaction marker. Note stores get no fix (append-only):
rewrite the history and revoke the key.
"""

from __future__ import annotations

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_private_keys
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV002",
    name="private-key-block",
    summary="A private key block in plain text",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(ALLOW_PATTERNS,),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    yield from check_source(ctx, source, find_private_keys, "private key in plain text")
