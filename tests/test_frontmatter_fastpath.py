"""The hand parser for plain frontmatter must build exactly what the YAML path builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.sources.frontmatter import (
    Frontmatter,
    YamlScalar,
    fast_fields,
    find_block,
    load_yaml,
    parse_frontmatter,
)
from tests.helpers import SHARED, generate_store, utf8_texts

BASE = 4


def agrees(content: str) -> bool:
    """Assert the fast path equals YAML whenever it answers; True when it answered."""
    fast = fast_fields(content, BASE)
    if fast is None:
        return False
    reference = Frontmatter(0, BASE, BASE + len(content), 0)
    load_yaml(reference, content, BASE)
    assert reference.problems == [], content
    assert fast == reference.fields, content
    return True


def blocks_of(paths) -> list[str]:
    found = []
    for text in utf8_texts(paths):
        block = find_block(text)
        if isinstance(block, tuple):
            found.append(text[block[1] : block[2]])
    return found


def test_plain_shapes() -> None:
    content = (
        "name: a-b\ndescription: 'quoted: fine'\nmetadata:\n  type: user\n  weight: 0x_1F\n\n"
        'title: "T"\ncreated: 2025-01-02\ndone: Off\nempty:\nnothing: ~\nratio: -.5\n'
        "minutes: 1:30\nport: 0o17\nurl: http://x.y/z#a\n"
    )
    assert agrees(content)
    fields = fast_fields(content, BASE)
    assert fields["metadata"].value == {"type": "user", "weight": YamlScalar("int", "0x_1F")}
    assert fields["done"].value == YamlScalar("bool", "Off")
    assert fields["port"].value == "0o17"  # YAML 1.1 has no 0o prefix


def test_flow_lists_stay_on_the_fast_path() -> None:
    content = "tags: [a, 'b c', \"d\", 1, yes, ~]\nempty: []\nmetadata:\n  ids: [x,y]\n"
    assert agrees(content)
    assert fast_fields(content, BASE)["tags"].value == [
        "a", "b c", "d", YamlScalar("int", "1"), YamlScalar("bool", "yes"), None
    ]  # fmt: skip


def test_edge_keys_and_values_stay_on_the_fast_path() -> None:
    content = "a" * 100 + ": b\n_: -1\nx-: a-b\nk: a:b\nm: a#b\nn: 'x: y'\n"
    assert agrees(content)


def test_trailing_blanks_after_a_colon_stay_on_the_fast_path() -> None:
    # Claude Code writes ``metadata: `` with a trailing blank; that needs no YAML.
    assert agrees("name: a\nmetadata: \n  type: feedback\n  note:  \nempty: \n")


@pytest.mark.parametrize(
    "content",
    [
        "a: b # comment\n",
        "a: 'it''s'\n",
        'a: "esc\\n"\n',
        "a: [1, [2]]\n",
        "a: [b: c]\n",
        "a: [b, c] # x\n",
        "a: [b,, c]\n",
        "a: ['b, c']\n",
        "a: [-1]\n",
        "a: |\n  text\n",
        "a: &x 1\nb: *x\n",
        "a: !tag x\n",
        "a:\tb\n",
        "a: b\r\n",
        "a: b\u2028c\n",
        "a: b\n a: c\n",
        "a: 1\na: 2\n",
        "a:\n  b:\n    c: 1\n",
        "a: b: c\n",
        "a: b \n",
        "  a: b\n",
        "# only\n",
        "a: =\n",
        "<<: x\n",
        "a: b:\n",
        "a:b\n",
        "a: b\nc:d\n",
        "1a: b\n",
        "a b: c\n",
        "-a: b\n",
        "a" * 101 + ": b\n",
        "a: -\n",
        "a: - b\n",
    ],
)
def test_unsure_input_falls_back(content: str) -> None:
    assert fast_fields(content, BASE) is None


def test_parse_frontmatter_uses_the_fast_result() -> None:
    text = "---\nname: x\nmetadata:\n  type: user\n---\nbody\n"
    fm = parse_frontmatter(text)
    assert fm.parsed and not fm.problems
    assert fm.nested("metadata", "type").value == "user"
    assert text[fm.fields["name"].value_start : fm.fields["name"].value_end] == "x"


def test_generated_store_agrees(tmp_path: Path) -> None:
    generate_store(tmp_path, 300, seed=3)
    blocks = blocks_of(sorted(tmp_path.rglob("*.md")))
    answered = sum(agrees(content) for content in blocks)
    assert answered >= len(blocks) * 0.8


@pytest.mark.shared
def test_real_corpus_agrees() -> None:
    blocks = blocks_of(sorted((SHARED / "corpus" / "real").rglob("*.md")))
    answered = sum(agrees(content) for content in blocks)
    assert answered > 0


@pytest.mark.shared
def test_hostile_corpus_agrees(hostile_corpus: Path) -> None:
    for content in blocks_of(sorted(p for p in hostile_corpus.rglob("*") if p.is_file())):
        agrees(content)


KEYS = st.sampled_from(
    ["name", "type", "a", "b_c", "x-y", "on", "null", "k9", "_", "a" * 100, "a" * 101,
     "a b", "1a", "-a", "a:b", "é", "a.b", "a#", " a", "a ", ""]
)  # fmt: skip
TOKENS = st.sampled_from(
    [
        "", "~", "null", "NULL", "Null", "nUll", "yes", "Yes", "YES", "yEs", "no", "on", "ON",
        "off", "y", "n", "true", "False", "TRUE", "0", "-0", "+1", "012", "019", "0b101",
        "0b", "0x1F", "0x_", "0o7", "1_000", "1:30", "-1:30:59", "1:60", "1.5", "1.",
        ".5", "-.inf", ".NaN", ".nan", "1e5", "1.0e+5", "1.0e5", "1:30.5", "2025-01-02",
        "2025-1-2", "2025-01-02T10:00:00Z", "2025-01-02 10:00:00.5 +01:00", "2025-13-45",
        "http://a.b/c", "C#", "a#b", "x,y", "[x]", "{x}", "-x", "- x", "-", "?x", "a: b",
        "'q'", "'q''q'", '"d"', '"d\\"', "'", "é ü", "日本", "a  b", "end:", "%x", "@x",
        "`x`", "=", "<<", "*a", "&a", "!a", "|", ">", "x\ty", ".", "..", "...", "---",
        "[a, b]", "[]", "[ ]", "[a,b]", "['x', \"y\"]", "[1, 2.5, yes, null, ~, 0x1F]",
        "[a  b, c ]", "[a, b,]", "[a, [b]]", "[a: b]", "[a #x]", "['a, b']", "[-1]",
        "[ a ]", "[a,,b]", "[日本, é]", "[it's]", "[---, ..., .]", "[?x]", "[a]]", "[[a]",
        "[2025-01-02, 1:30]", "['', \"\"]", "[Off, NULL]", "[a", "a]", "[*a]", "[!a]",
        "a:", "a ", "a:b", "a :b", "a #b", "#b", ":", ": ", ":a", "--", "-a", "- ", "a-",
        "a: ", " #", "a\\", "b:c: d", "x #", "a  #b", "' '", "a'", 'a"',
    ]
)  # fmt: skip


@st.composite
def blocks(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        key = draw(KEYS)
        if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:
            indent = " " * draw(st.integers(1, 4))
            lines.append(f"{key}:" + draw(st.sampled_from(["", " ", "  "])))
            for _ in range(draw(st.integers(1, 3))):
                lines.append(f"{indent}{draw(KEYS)}: {draw(TOKENS)}")
        else:
            value = draw(TOKENS)
            gap = draw(st.sampled_from([" ", "  "]))
            blank = gap[: draw(st.integers(0, 2))]  # ``key:`` with trailing blanks is null too
            lines.append(f"{key}:{gap}{value}" if value else f"{key}:{blank}")
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None)
@given(blocks())
def test_random_plain_blocks_agree(content: str) -> None:
    agrees(content)


UNSAFE_PIECES = st.sampled_from(
    ["name: a", "\n", "\t", "\r", "\x00", "\x0b", "\x1f", "\x7f", "\x85", "\u2028",
     "\ufeff", "\ud800", "\uffff", "é", "x: 1", " "]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.lists(UNSAFE_PIECES, max_size=12).map("".join) | st.text(max_size=40))
def test_the_fast_path_refuses_what_the_unsafe_class_holds(content: str) -> None:
    """ASCII blocks are screened by tab, CR and ``has_ascii_control`` (``_UNSAFE`` is compiled
    only for others): a block the fast path takes holds no character of ``_UNSAFE``."""
    import re

    from memlint.sources import frontmatter

    unsafe = re.compile(frontmatter._UNSAFE._args[0])
    if "\r" in content or unsafe.search(content):
        assert frontmatter.fast_fields(content, 0) is None


def find_block_by_lines(text: str):
    """``find_block`` read line by line (what it did before it searched for ``\\n---``)."""
    if not text.startswith("---"):
        return None
    first_break = text.find("\n")
    if first_break == -1 or text[3:first_break].strip(" \t\r"):
        return None
    pos = content_start = first_break + 1
    while pos <= len(text):
        nl = text.find("\n", pos)
        line_end = len(text) if nl == -1 else nl
        if text.startswith("---", pos) and not text[pos + 3 : line_end].strip(" \t\r"):
            return (0, content_start, pos, len(text) if nl == -1 else nl + 1)
        if nl == -1:
            break
        pos = nl + 1
    return "unclosed"


BLOCK_PIECES = st.sampled_from(["---", "\n", "-", "--", " ", "\t", "\r", "a: b", "x", "----"])


@settings(max_examples=1000, deadline=None)
@given(st.lists(BLOCK_PIECES, max_size=14).map("".join))
def test_find_block_agrees_with_a_line_by_line_reading(text: str) -> None:
    assert find_block(text) == find_block_by_lines(text)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(UNSAFE_PIECES, max_size=12).map("".join)
    | st.text(alphabet=st.characters(max_codepoint=127), max_size=40)
)
def test_ascii_control_characters_are_all_but_tab_lf_and_cr(text: str) -> None:
    """``has_ascii_control`` (a byte deletion, not a regex search) finds exactly the
    characters below space but tab, LF and CR, and DEL; ``plain_ascii`` builds on it."""
    from memlint.textutil import has_ascii_control, plain_ascii

    expected = any((ord(c) < 32 and c not in "\t\n\r") or c == "\x7f" for c in text)
    if text.isascii():
        assert has_ascii_control(text) == expected
    assert plain_ascii(text) == (text.isascii() and not expected)
