"""Wikilink scanning skips code and comments; index entries keep exact spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.sources.document import SourceFile, decode_into
from memlint.sources.index import escape_reason, parse_index, path_escape_reason
from memlint.sources.markdown import (
    WIKILINK,
    is_plain,
    make_wikilink,
    masked_lines,
    prose_lines,
    scan_wikilinks,
)
from tests.helpers import runs_without_blowup


def targets(text: str) -> list[str]:
    return [link.target for link in scan_wikilinks(text)]


def test_wikilink_forms():
    text = "See [[a]], [[b|label]], [[c#Heading]] and [[ d ]].\n"
    links = scan_wikilinks(text)
    assert [(link.target, link.label, link.heading) for link in links] == [
        ("a", None, None),
        ("b", "label", None),
        ("c", None, "Heading"),
        ("d", None, None),
    ]
    assert text[links[0].start : links[0].end] == "[[a]]"
    assert text[links[3].target_start : links[3].target_end] == "d"


def test_code_and_comments_are_not_links():
    text = (
        "Real [[a]].\n"
        '```bash\nif [[ -n "$CI" ]]; then :; fi\n```\n'
        "~~~\n[[fenced]]\n~~~\n"
        "Inline `[[span]]` and ``[[double `tick`]]``.\n"
        "<!-- [[comment]]\n[[still comment]] -->\n"
        "\n    [[indented code]]\n\n"
        "- item\n\n    [[list continuation]]\n"
        "After [[b]].\n"
    )
    assert targets(text) == ["a", "list continuation", "b"]


def test_unclosed_fence_swallows_rest_but_never_crashes():
    assert targets("```\n[[x]]\n") == []


def test_wikilink_scan_is_bounded():
    found: list = []
    assert runs_without_blowup(lambda: found.extend(targets("[[" * 200_000)))
    assert found == []


def index_entries(text: str):
    source = SourceFile("/s/MEMORY.md", "MEMORY.md", "MEMORY.md")
    decode_into(source, text.encode())
    return parse_index(source.text, 0, source.line_starts)


def test_index_entries_and_spans():
    text = (
        "# Index\n\n"
        "- [Coffee](coffee.md) — how the user takes coffee\n"
        "* [Star](star.md) -- other bullet\n"
        "- See [Inline](inline.md)\n"
        "- [Web](https://example.com/x.md) — external\n"
        "```\n- [Code](code.md)\n```\n"
        "<!--\n- [Hidden](hidden.md)\n-->\n"
        "- [Spaced](my%20file.md#top) — x\n"
    )
    entries = index_entries(text)
    assert [(e.line, e.target, e.canonical, e.summary) for e in entries] == [
        (3, "coffee.md", True, "how the user takes coffee"),
        (4, "star.md", False, "other bullet"),
        (5, "inline.md", False, ""),
        (13, "my file.md", True, "x"),
    ]
    first = entries[0]
    assert text[first.href_start : first.href_end] == "coffee.md"


def test_index_crlf_and_lone_cr():
    entries = index_entries("- [A](a.md) — x\r\n- [B](b.md)\r- [C](c.md)\n")
    assert [(e.line, e.target) for e in entries] == [(1, "a.md"), (2, "b.md")]


def test_escape_reasons():
    assert path_escape_reason("a/b.md") is None
    assert path_escape_reason("a/../b.md") is None
    assert path_escape_reason("../b.md") == "climbs out of the store with `..`"
    assert path_escape_reason("/etc/x.md") == "is an absolute path"
    assert path_escape_reason("C:/x.md") == "is a drive-letter path"
    assert path_escape_reason("file:///x.md") == "has a URL scheme"
    literal, encoded = index_entries("- [A](a\\b.md)\n- [B](a%5Cb.md)\n")
    assert escape_reason(literal) == "uses backslashes"
    assert escape_reason(encoded) is None


PIECES = st.sampled_from(
    ["word", " ", "[[a]]", "[[b|c]]", "\n", "\r\n", "\n\n", "    ", "\t", "`", "``", "~~~",
     "```", "<!--", "-->", "- ", "1. ", "[[", "]]", "é", "x", "~", "~~", "<", "<!-", "\n\t"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30), st.integers(min_value=0, max_value=3))
def test_plain_text_shortcut_equals_the_line_scan(pieces: list[str], skip_lines: int) -> None:
    text = "".join(pieces)
    start = 0
    for _ in range(skip_lines):  # regions start at a line start, like a body after frontmatter
        found = text.find("\n", start)
        start = found + 1 if found != -1 else start
    end = len(text)
    assert list(prose_lines(text, start)) == list(masked_lines(text, start, end))
    slow = [
        make_wikilink(m.group(1), offset + m.start())
        for offset, line in masked_lines(text, start, end)
        for m in WIKILINK.finditer(line)
    ]
    assert scan_wikilinks(text, start) == slow
    from memlint.sources import markdown

    no_tick = text.find("`", start, end) == -1
    assert is_plain(text, start, end) == (no_tick and markdown._spans_only(text, start, end))
    if is_plain(text, start, end):
        assert all(line == text[o : o + len(line)] for o, line in prose_lines(text, start))


@settings(max_examples=800, deadline=None)
@given(st.lists(PIECES, max_size=30), st.integers(min_value=0, max_value=3))
def test_code_spans_only_shortcut_equals_the_block_scan(pieces: list[str], skip: int) -> None:
    """A text whose only masking is code spans (no fence, comment or indented line)
    is masked line by line without the block state: the same lines."""
    from memlint.sources import markdown

    text = "".join(pieces)
    start = 0
    for _ in range(skip):
        found = text.find("\n", start)
        start = found + 1 if found != -1 else start
    end = len(text)
    expected = list(markdown._block_masked_lines(text, start, end))
    assert list(masked_lines(text, start, end)) == expected
    if markdown._spans_only(text, start, end):
        assert list(markdown._span_masked_lines(text, start, end)) == expected
