"""How a supersession target relates to the store (shared by the SU rules)."""

from __future__ import annotations

from memlint.rules.lk.resolve import resolve

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from memlint.store import Memory, Store


def classify(store: Store, memory: Memory) -> tuple[str, Memory | None]:
    """``(kind, detail)`` for ``memory``'s successor link.

    kind: ``ok`` (detail: the successor), ``self``, ``stem`` (detail: the file
    whose stem is the target), ``ambiguous``, ``missing`` (detail: a memory
    whose name matches only ignoring case, or ``None``).
    """
    supersession = memory.supersession
    if supersession is None:
        raise ValueError(f"{memory.file.display}: names no successor")
    target = supersession.target
    own_name = (memory.name or "").strip()
    if target == own_name or target == memory.stem:
        return "self", None
    found = resolve(store, target)
    if found.kind == "exact":
        if found.memory is memory:
            return "self", None
        return "ok", found.memory
    if found.kind == "ambiguous":
        return "ambiguous", None
    by_stem = [m for m in store.by_stem.get(target, ()) if m is not memory]
    if len(by_stem) == 1:
        return "stem", by_stem[0]
    return "missing", found.memory if found.kind == "folded" else None
