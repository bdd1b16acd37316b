"""## What it does
In a store configured `local-only = true`, reports each memory, index and
note file that git tracks, or would track on the next `git add` (inside a
work tree and not ignored). Outside a git repository it reports nothing; when
git cannot be run safely there (for example a committed folder that looks like
a git directory), the check is skipped with a notice on stderr.
Opt-in: many people keep memories in a repository on purpose.

```toml
[[tool.memlint.stores]]
path = "memory"
local-only = true
```

## Why is this bad?
A memory directory meant to stay on one machine holds personal facts, paths
and sometimes secrets. Once committed and pushed they are in the history for
good.

## Example
`memory/user_role.md` shows up in `git status` as untracked.

Use instead: add the directory to `.gitignore` (or `.git/info/exclude`), and
`git rm --cached` any file already tracked.

## Fix safety
No fix: memlint never changes git state or ignore files.
"""

from __future__ import annotations

import sys

from memlint import gitbase
from memlint.diagnostics import Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.textutil import escape, shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="GT001",
    name="memory-tracked-by-git",
    summary="A local-only memory store is tracked or trackable by git",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=ALL_PROFILES,
    default_enabled=False,
    external=True,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    if not store.local_only:
        return
    try:
        repo = gitbase.repository(store.root)
        tracked_set = gitbase.listed(repo, store.root, "--cached")
        trackable_set = gitbase.listed(repo, store.root, "--others", "--exclude-standard")
    except gitbase.GitRefused as exc:  # a committed decoy must not switch the check off
        first = next(iter((*store.files, *store.notes)), None)
        if first is not None:
            message = f"cannot tell whether git tracks this store: {escape(str(exc))}"
            yield ctx.report(first, 0, 0, message)
        return
    except gitbase.GitUnavailable as exc:
        if str(exc) != gitbase.NOT_A_REPOSITORY:
            print(
                f"memlint: GT001 skipped for {shown(store.display_root)}: {shown(str(exc))}",
                file=sys.stderr,
            )
        return
    for source in (*store.files, *store.notes):
        if source.rel in tracked_set:
            message = "git tracks this file, but the store is local-only"
        elif source.rel in trackable_set:
            message = "git would track this file (not ignored), but the store is local-only"
        else:
            continue
        yield ctx.report(source, 0, 0, message)
