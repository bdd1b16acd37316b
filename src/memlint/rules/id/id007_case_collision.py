"""## What it does
Reports memory filenames, or memory names, that differ but become equal
after Unicode NFC normalization and case folding (`Coffee.md` and
`coffee.md`; `café` written precomposed and decomposed).

## Why is this bad?
macOS and Windows file systems treat such files as one: a checkout loses
one of them. Names that differ only in case make links resolve differently
in case-insensitive tools.

## Example
`reference_grafana-alerts.md`, whose `name` differs from that of
`reference_grafana.md` only in case (`Coffee.md` next to `coffee.md` is
reported the same way):
```memlint-bad path=reference_grafana-alerts.md
---
name: grafana dashboards
description: where the alert rules live
type: reference
---
Alert rules live in the ops repository.
```

Use instead: distinct names:
```memlint-good path=reference_grafana-alerts.md
---
name: Grafana alerts
description: where the alert rules live
type: reference
---
Alert rules live in the ops repository.
```

The memory it collides with:
```memlint-file path=reference_grafana.md
---
name: Grafana dashboards
description: where the team dashboards live
type: reference
---
Dashboards are at grafana.example.com.
```

## Fix safety
No fix: which one to rename is the author's choice.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.id.names import reported_name_fields
from memlint.store import several
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Store

META = RuleMeta(
    code="ID007",
    name="case-collision",
    summary="Names or filenames collide after case and Unicode folding",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
)


SHOWN = 3  # others named per diagnostic: a cluster of k costs O(k), not O(k^2)


def others(members: list, key, shown) -> dict[str, str]:
    """For each ``key`` value: up to ``SHOWN`` of ``members`` with another key, and a count."""
    by_key: dict[str, list] = {}
    for member in members:
        by_key.setdefault(key(member), []).append(member)
    first_keys = list(by_key)[: SHOWN + 1]  # the first SHOWN others come from these
    texts = {}
    for own, same in by_key.items():
        rest = len(members) - len(same)
        picked = [m for k in first_keys if k != own for m in by_key[k][:SHOWN]][:SHOWN]
        more = f" and {rest - len(picked)} more" if rest > len(picked) else ""
        texts[own] = ", ".join(shown(m) for m in picked) + more
    return texts


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for _, memories in several(store.by_folded_stem):
        if len({m.stem for m in memories}) < 2:
            continue
        listed = others(memories, lambda m: m.stem, lambda m: escape(m.file.rel))
        for memory in memories:
            yield ctx.report(
                memory.file,
                0,
                0,
                f"filename `{escape(memory.stem)}.md` differs only in case or Unicode form "
                f"from {listed[memory.stem]}",
            )
    for _, memories in several(store.by_folded_name):
        if len({_name(m) for m in memories}) < 2:
            continue
        listed = others(
            memories,
            _name,
            lambda m: f"`{escape(shorten(_name(m), 60))}` ({escape(m.file.rel)})",
        )
        for memory, found in reported_name_fields(store, memories):
            name = _name(memory)
            yield ctx.report(
                memory.file,
                found.value_start,
                found.value_end,
                f"name `{escape(shorten(name, 60))}` differs only in case "
                f"or Unicode form from {listed[name]}",
            )


def _name(memory: Memory) -> str:
    return (memory.name or "").strip()  # (a memory in by_folded_name has one)
