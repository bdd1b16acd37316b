"""## What it does
In a store configured `local-only = true`, reports each memory, index and
note file that git tracks, or would track on the next `git add` (inside a
work tree and not ignored). Outside a git repository it reports nothing.
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

import os

from memlint.diagnostics import Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

GIT_TIMEOUT = 10

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


def _git(root: str, *args: str) -> list[str] | None:
    """NUL-separated output lines of ``git args`` run in ``root``; ``None`` on any failure."""
    import subprocess  # only runs that read git pay for the import

    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=root,
            env=env,
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return [part for part in done.stdout.decode("utf-8", "surrogateescape").split("\0") if part]


def check(ctx, store):
    if not store.local_only:
        return
    if _git(store.root, "rev-parse", "--is-inside-work-tree") is None:
        return
    tracked = _git(store.root, "ls-files", "-z", "--cached", "--", ".")
    trackable = _git(store.root, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
    if tracked is None or trackable is None:
        return
    tracked_set, trackable_set = set(tracked), set(trackable)
    for source in (*store.files, *store.notes):
        if source.rel in tracked_set:
            message = "git tracks this file, but the store is local-only"
        elif source.rel in trackable_set:
            message = "git would track this file (not ignored), but the store is local-only"
        else:
            continue
        yield ctx.report(source, 0, 0, message)
