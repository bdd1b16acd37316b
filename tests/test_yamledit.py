"""``replace_scalar``: exact-span rewrites of one frontmatter scalar, or a refusal."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.sources.document import SourceFile, decode_into
from memlint.sources.frontmatter import parse_frontmatter
from memlint.sources.yamledit import double_quoted, plain_is_safe, replace_scalar


def _rewrite(raw: bytes, key: str, value: str) -> bytes | str:
    """The rewritten bytes, or the reason the edit was refused."""
    source = SourceFile("/store/a.md", "a.md", "a.md")
    decode_into(source, raw)
    edit = replace_scalar(source, parse_frontmatter(source.text), key, value)
    if isinstance(edit, str):
        return edit
    return raw[: edit.start] + edit.content.encode() + raw[edit.end :]


@pytest.mark.parametrize(
    ("raw", "key", "value", "expected"),
    [
        (
            b"---\nname: foo # keep\nx: 1\n---\n",
            "name",
            "bar",
            b"---\nname: bar # keep\nx: 1\n---\n",
        ),
        (
            b"\xef\xbb\xbf---\r\nname: 'a'\r\n---\r\n",
            "name",
            "it's",
            b"\xef\xbb\xbf---\r\nname: 'it''s'\r\n---\r\n",
        ),
        (b'---\nname: "x"\n---\n', "name", "caf\u00e9", b'---\nname: "caf\xc3\xa9"\n---\n'),
        (b"---\nname: x\n---\n", "name", "yes", b'---\nname: "yes"\n---\n'),
        (b"---\nname: x\n---\n", "name", "2024-01-01", b'---\nname: "2024-01-01"\n---\n'),
        (b"---\nname: x\n---\n", "name", "a: b #c", b'---\nname: "a: b #c"\n---\n'),
        (b"---\nname: x\n---\n", "name", "\u202eevil", b'---\nname: "\\u202eevil"\n---\n'),
        (
            b"---\nmetadata:\n  type: usr\n  k: v\n---\n",
            "metadata.type",
            "user",
            b"---\nmetadata:\n  type: user\n  k: v\n---\n",
        ),
    ],
)
def test_rewrites_only_the_scalar(raw, key, value, expected):
    assert _rewrite(raw, key, value) == expected


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"---\nname: |\n  x\n---\n", "`name` is a block scalar"),
        (b"---\nname: >\n  x\n---\n", "`name` is a block scalar"),
        (b"---\nname: x\nname: y\n---\n", "the frontmatter does not load cleanly"),
        (b"---\nname: &a x\nother: *a\n---\n", "the frontmatter does not load cleanly"),
        (b"---\n{name: x}\n---\n", "the frontmatter is a flow mapping"),
        (b"---\n# c\n{name: x}\n---\n", "the frontmatter is a flow mapping"),
        (b"---\nname: [x]\n---\n", "`name` is not a plain value"),
        (b"---\nname:\n---\n", "`name` has no value to replace"),
        (b"---\nname: x\n", "the frontmatter does not load cleanly"),
        (b"---\nname: x: y\n---\n", "the frontmatter does not load cleanly"),
    ],
)
def test_refuses_risky_edits(raw, reason):
    assert _rewrite(raw, "name", "new") == reason


def test_refuses_flow_parent():
    refused = _rewrite(b"---\nmetadata: {type: x}\n---\n", "metadata.type", "user")
    assert refused == "`metadata.type` is not a plain value"


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=30).filter(lambda s: "\x00" not in s))
def test_any_value_round_trips(value):
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        return
    after = _rewrite(b"---\nname: old\ndescription: d # c\n---\nBody\n", "name", value)
    if isinstance(after, str):
        return
    text = after.decode("utf-8")
    loaded = yaml.safe_load(text.split("---\n")[1])
    assert loaded == {"name": value, "description": "d"}
    assert text.endswith("description: d # c\n---\nBody\n")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30))
def test_plain_and_quoted_forms_load_back(value):
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        return
    if plain_is_safe(value):
        assert yaml.safe_load(f"k: {value}") == {"k": value}
    assert yaml.safe_load(f"k: {double_quoted(value)}") == {"k": value}
