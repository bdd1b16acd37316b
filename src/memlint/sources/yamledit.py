"""Surgical edits of one YAML frontmatter scalar (never a re-serialization).

``replace_scalar`` rewrites exactly the characters of one scalar value, so
comments, key order, quoting elsewhere and line endings stay byte-identical.
It refuses whenever the result could be ambiguous: block scalars, flow
mappings, anchors/aliases, duplicated keys, any frontmatter problem, and any
splice whose re-parse does not give the intended value with every other key
unchanged.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Edit
from memlint.privacy import LazyPattern
from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import (
    Field,
    Frontmatter,
    YamlScalar,
    parse_frontmatter,
    yaml_module,
)
from memlint.textutil import escape_char

FLOW_ROOT = LazyPattern(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*\{")
PLAIN_FIRST = LazyPattern(r"[^\W]", re.UNICODE)
PLAIN_FORBIDDEN = frozenset("#:,[]{}&*!|>'\"%@`\\")
DOUBLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
STR_TAG = "tag:yaml.org,2002:str"


def plain_is_safe(value: str) -> bool:
    """Whether ``value`` can be written as a plain scalar and still load as this string."""
    if not value or not value.isprintable() or value != value.strip():
        return False
    if not PLAIN_FIRST.match(value[0]) or any(ch in PLAIN_FORBIDDEN for ch in value):
        return False
    if value.startswith(("---", "...")) or " -" in value:
        return False
    resolver = yaml_module().resolver.Resolver()
    return resolver.resolve(yaml_module().ScalarNode, value, (True, False)) == STR_TAG


def double_quoted(value: str) -> str:
    """``value`` as a YAML double-quoted scalar, escaping quotes, backslashes and
    every non-printable character."""
    out = ['"']
    for ch in value:
        if ch in DOUBLE_ESCAPES:
            out.append(DOUBLE_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(escape_char(ch))
    out.append('"')
    return "".join(out)


def single_quoted(value: str) -> str | None:
    """``value`` as a single-quoted scalar, or ``None`` when that style cannot hold it."""
    if not value.isprintable():
        return None
    return "'" + value.replace("'", "''") + "'"


def scalar_text(value: str, style: str = "") -> str:
    """How to write ``value``: keep a quoted original style, else plain when safe,
    else double-quoted."""
    if style == "'":
        quoted = single_quoted(value)
        if quoted is not None:
            return quoted
    if style != '"' and plain_is_safe(value):
        return value
    return double_quoted(value)


def find_field(frontmatter: Frontmatter, key: str) -> Field | None:
    """The field at ``key`` (``a.b`` for a key nested in a block mapping)."""
    parent, dot, child = key.partition(".")
    if not dot:
        return frontmatter.fields.get(key)
    holder = frontmatter.fields.get(parent)
    if holder is None or holder.flow or holder.children is None:
        return None
    return holder.children.get(child)


def replace_scalar(
    source: SourceFile, frontmatter: Frontmatter | None, key: str, new_value: str
) -> Edit | str:
    """An edit setting the string scalar at ``key`` to ``new_value``, or the reason
    (a short phrase) why that cannot be done without risk."""
    text = source.text
    if text is None or frontmatter is None or not frontmatter.parsed or frontmatter.problems:
        return "the frontmatter does not load cleanly"
    if key.partition(".")[0] in frontmatter.duplicate_keys:
        return f"`{key}` is written twice"
    if FLOW_ROOT.match(text, frontmatter.content_start):
        return "the frontmatter is a flow mapping"
    found = find_field(frontmatter, key)
    if found is None or found.children is not None or found.flow:
        return f"`{key}` is not a plain value"
    if found.style not in ("", "'", '"'):
        return f"`{key}` is a block scalar"
    if found.value_end <= found.value_start:
        return f"`{key}` has no value to replace"
    replacement = scalar_text(new_value, found.style or "")
    edited = text[: found.value_start] + replacement + text[found.value_end :]
    if not _only_changes(frontmatter, parse_frontmatter(edited), key, new_value):
        return "the edit would change other values (anchors, aliases or tags)"
    return source.edit(found.value_start, found.value_end, replacement)


def _only_changes(before: Frontmatter, after: Frontmatter | None, key: str, value: str) -> bool:
    """Whether ``after`` equals ``before`` except for ``key``, which now holds ``value``."""
    if after is None or after.problems or not after.parsed:
        return False
    changed = find_field(after, key)
    if changed is None or changed.value != value:
        return False
    parent, _, child = key.partition(".")
    return _without(before.fields, parent, child) == _without(after.fields, parent, child)


def _without(fields: dict[str, Field], parent: str, child: str) -> dict[str, object]:
    """Every top-level value, with ``parent`` (or ``parent.child``) blanked out."""
    values: dict[str, object] = {name: found.value for name, found in fields.items()}
    nested = values.get(parent)
    if not child:
        values[parent] = None
    elif isinstance(nested, dict):
        values[parent] = {**nested, child: None}
    return values


def frontmatter_change(before: str, after: str) -> str | None:
    """Why the edit from ``before`` to ``after`` harms the frontmatter, or ``None``.

    The frontmatter must still parse as it did, with the same keys (nested
    ones included) holding values of the same types; only values may change.
    """
    old = parse_frontmatter(before.removeprefix("\ufeff"))
    new = parse_frontmatter(after.removeprefix("\ufeff"))
    if old is None or new is None:
        return None if old is new else "it would add or remove the frontmatter block"
    if not old.parsed or old.problems:
        return None if len(new.problems) <= len(old.problems) else "it would break the frontmatter"
    if not new.parsed or new.problems:
        return "the frontmatter would no longer parse"
    if _shape(old.fields) != _shape(new.fields):
        return "it would change the frontmatter's keys or value types"
    return None


def _shape(fields: dict) -> list:
    """Keys and value types of frontmatter fields, nested mappings included."""
    return [
        (key, _value_type(found.value), found.children and _shape(found.children))
        for key, found in fields.items()
    ]


def _value_type(value: object) -> object:
    if isinstance(value, list):
        return tuple(_value_type(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _value_type(item)) for key, item in value.items())
    return value.kind if isinstance(value, YamlScalar) else type(value).__name__
