"""## What it does
Reports paths under a user's home directory that name the user:
`/home/<user>`, `/Users/<user>`, `C:\\Users\\<user>` (and WSL `\\home\\<user>`).

## Why is this bad?
The user name is personal data, and a home path rarely means anything on the
next machine or for the next teammate.

## Example
```memlint-bad path=logs.md
Agent logs are in /Users/jmiller/Library/Logs/agent.
```

Use instead:
```memlint-good path=logs.md
Agent logs are in ~/Library/Logs/agent.
```

## Fix safety
Unsafe: replaces the user name with the redaction marker. Note stores get no
fix. Generic accounts are not reported (`/home/user`, `/home/runner`,
`/home/ubuntu`, `/Users/Shared`, `C:\\Users\\Public`, `C:\\Users\\Default`, …)
nor placeholders (`<user>`, `$USER`, `~`). Option `allow-users` (list) adds names.
"""

from __future__ import annotations

from functools import partial

from memlint.diagnostics import FixAvailability, Severity
from memlint.privacy import find_home_paths
from memlint.rules.base import ALL_PROFILES, Option, RuleMeta, Scope
from memlint.rules.pv.scan import ALLOW_PATTERNS, check_source, string_list

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="PV005",
    name="home-path",
    summary="A home directory path that names the user",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.SOMETIMES,
    options=(
        Option("allow-users", list, [], "user names whose home paths are not reported"),
        ALLOW_PATTERNS,
    ),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    users = string_list(ctx.options.get("allow-users"))
    detect = partial(find_home_paths, allow_users=users)
    yield from check_source(ctx, source, detect, "personal data")
