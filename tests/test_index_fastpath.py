"""The line scan for plain indexes finds exactly the entries markdown-it finds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.sources import index as index_module
from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import parse_frontmatter
from tests.helpers import SHARED, generate_store, utf8_texts


def both(text: str) -> tuple[list, list | None]:
    """(markdown-it entries, line-scan entries or None when the scan declines)."""
    source = SourceFile("/x/MEMORY.md", "MEMORY.md", "MEMORY.md", text.encode(), text)
    fm = parse_frontmatter(text)
    body_start = fm.end if fm is not None else 0
    scan = index_module.plain_link_lines(text, body_start, text.count("\n", 0, body_start))
    fast = index_module.parse_index(text, body_start, source.line_starts)
    original = index_module.plain_link_lines
    index_module.plain_link_lines = lambda *args: None
    try:
        slow = index_module.parse_index(text, body_start, source.line_starts)
    finally:
        index_module.plain_link_lines = original
    return slow, (fast if scan is not None else None)


def agrees(text: str) -> bool:
    slow, fast = both(text)
    if fast is None:
        return False
    assert fast == slow, text
    return True


def test_generated_index_takes_the_scan(tmp_path: Path) -> None:
    generate_store(tmp_path, 200, seed=5, defect_rate=0.3)
    assert agrees((tmp_path / "MEMORY.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "text",
    [
        "- [a](a.md)\n  continued\n",
        "- [a](a.md)\nlazy line\n",
        "    - [a](a.md)\n",
        "```\n- [a](a.md)\n```\n",
        "> - [a](a.md)\n",
        "- [a `b](c.md)` d\n",
        "<!-- - [a](a.md) -->\n",
        "- [a](a b.md)\n",
        "1. [a](a.md)\n",
        "- - -\n",
        "Title\n---\n- [a](a.md)\n",
        "- [a](a.md)\r\n",
    ],
)
def test_unsure_bodies_use_markdown_it(text: str) -> None:
    assert index_module.plain_link_lines(text, 0, 0) is None


@pytest.mark.shared
def test_real_corpus_indexes_agree() -> None:
    for text in utf8_texts(sorted((SHARED / "corpus" / "real").rglob("MEMORY.md"))):
        agrees(text)


@pytest.mark.shared
def test_hostile_corpus_agrees(hostile_corpus: Path) -> None:
    for text in utf8_texts(sorted(hostile_corpus.rglob("*.md"))):
        if len(text) < 100_000:  # the huge cases test markdown-it's speed, not the scan
            agrees(text)


LINES = st.sampled_from(
    [
        "", "# Index", "## Users", "#NoSpace", "Intro text here.", "Some *emphasis* text",
        "- [Alpha](alpha.md) — first", "- [Beta](dir/beta.md)", "- [](empty.md)",
        "- [Gamma](gamma.md): summary", "- [Web](https://x.y/a.md)", "- [Frag](#top)",
        "- [Q](q.md#part) - note", "- [Pct](a%20b.md)", "- [Txt](notes.txt)",
        "- plain item", "- [x] task", "  indented", "- [a](b.md) and [c](d.md)",
        "---", "***", "- [Star*](s.md)", "- [U_](u.md) _x_", "=====", "Title",
        "- [a](b.md) | pipe", "- [Dots](../up.md)", "- [Tilde](~/t.md)",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=12), st.booleans())
def test_random_indexes_agree(lines: list[str], frontmatter: bool) -> None:
    text = ("---\nname: x\n---\n" if frontmatter else "") + "\n".join(lines) + "\n"
    agrees(text)
