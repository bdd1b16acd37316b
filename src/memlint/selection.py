"""Which rules run: select / extend-select / ignore by code or prefix.

A code matched by both a select and an ignore entry follows the longer
(more specific) match, as in flake8 and ruff.
"""

from __future__ import annotations

from collections.abc import Iterable


def _longest(code: str, prefixes: Iterable[str]) -> int:
    best = -1
    for prefix in prefixes:
        if prefix == "ALL":
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


def is_selected(
    code: str,
    default_enabled: bool,
    select: Iterable[str] | None,
    extend_select: Iterable[str],
    ignore: Iterable[str],
) -> bool:
    if select is None:
        chosen = 0 if default_enabled else -1
        chosen = max(chosen, _longest(code, extend_select))
    else:
        chosen = _longest(code, [*select, *extend_select])
    if chosen < 0:
        return False
    return chosen > _longest(code, ignore) or _longest(code, ignore) < 0


def matches_any(code: str, prefixes: Iterable[str]) -> bool:
    return _longest(code, prefixes) >= 0
