"""## What it does
Reports, once per store, that its profile was guessed from thin or
conflicting signals (one memory file; signals of both contracts with no
majority; only an index in the linked shape), and how to pin it.

## Why is this bad?
The profile decides which contract the store is held to. memlint fails
closed: a store that carries any contract signal is held to the stricter
reading the signals support, never waved through as `freeform`. When that
guess is wrong, the findings are about the wrong contract.

## Example
The only memory file has `metadata.type` (a signal of `linked`) but a `name`
that is not its filename: the store is read as `linked`, on one file.
```memlint-bad path=notes.md
---
name: Notes
description: What I learned about the build
metadata:
  type: project
---

The build needs Node 20.
```

Use instead: a store whose files agree (here `name` is the filename), or,
when the guess is wrong, pin the profile in `memlint.toml`:
`[[stores]]` with `path = "memory"` and `profile = "typed"`.
```memlint-good path=notes.md
---
name: notes
description: What I learned about the build
metadata:
  type: project
---

The build needs Node 20.
```

## Fix safety
No fix: only the user knows which contract the store follows.
`memlint check --show-files` lists the signals seen in every store.
"""

from __future__ import annotations

import os

from memlint.diagnostics import Range, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

PROFILES = ("linked", "typed", "freeform")

META = RuleMeta(
    code="MX003",
    name="guessed-profile",
    summary="Store profile guessed from thin or conflicting signals",
    severity=Severity.INFO,
    scope=Scope.STORE,
    profiles=MARKDOWN_PROFILES,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    if not store.profile_guess:
        return
    where = store.index.file if store.index is not None else store.memories[0].file
    others = " or ".join(f'"{p}"' for p in PROFILES if p != store.profile)
    message = (
        f"store read as `{store.profile}`: {store.profile_guess}; if that is wrong, pin it "
        f'in memlint.toml: `[[stores]]` with `path = "{escape(_config_path(store))}"` '
        f"and `profile = {others}`"
    )
    yield ctx.report_at(where.path, where.display, Range.file_start(), message)


def _config_path(store) -> str:
    """The store as a config file in the working directory would name it."""
    try:
        relative = os.path.relpath(store.root)
    except ValueError:  # another drive
        return store.display_root
    return store.display_root if relative.startswith("..") else relative.replace(os.sep, "/")
