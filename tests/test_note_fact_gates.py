"""The note-fact heuristics (NT012, NT013, NT014) try their patterns only on facts
that can match them (a sentence mark before the end, a colon, quotes at both ends,
no blank in a path, a parenthesis in a signature): the same answers as the bare
patterns, which then are compiled only when a fact needs them."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.rules.nt import facts

FACT_PIECES = st.sampled_from(
    ["The", "user", "prefers", " ", "  ", "\t", "\n", ".", "!", "?", ")", '"', "'", "“", "”",
     "«", "»", "(", "x", "A", "9", ":", "User:", "assistant: ", "src/app.py", "`", "def f()",
     "-> int", "e.g.", "Dr.", "exists", "is in", "`main.py`", "\u2003", "é"]
)  # fmt: skip


def _bare(name: str) -> re.Pattern:
    lazy = getattr(facts, name)
    return re.compile(*lazy._args)


def _sentences_ungated(text: str) -> int:
    count, last_end = 1, 0
    for match in _bare("SENTENCE_END").finditer(text):
        word = match["word"].lstrip("(\"'[`").lower()
        if word in facts.ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
            continue
        if "." in word and not word.startswith("."):
            continue
        count += 1
        last_end = match.end()
    if count > 1 and len(text[last_end:].split()) <= facts.CITATION_WORDS:
        count -= 1
    return count


def _transcript_ungated(text: str) -> str | None:
    if _bare("SPEAKER_PREFIX").match(text):
        return "starts with a speaker prefix"
    if len(_bare("SPEAKER_TURN").findall(text)) >= 2:
        return "holds several speaker turns"
    if _bare("QUOTED").fullmatch(text):
        return "is a verbatim quotation"
    return None


@settings(max_examples=1500, deadline=None)
@given(st.lists(FACT_PIECES, max_size=14).map("".join) | st.text(max_size=50))
@example("One fact. Two facts here.")
@example("user: hi")
@example(' "quoted" ')
@example("src/app.py")
@example("def run(x) -> int")
def test_gated_fact_heuristics_answer_as_the_bare_patterns(text: str) -> None:
    assert facts.sentence_count(text) == _sentences_ungated(text)
    assert facts.transcript_reason(text) == _transcript_ungated(text)
    stripped = text.strip()
    expected = None
    if len(stripped) <= 300:
        if _bare("BARE_PATH").fullmatch(stripped) and facts._looks_like_path(
            stripped.strip("`'\".")
        ):
            expected = "is a bare file path"
        elif _bare("SIGNATURE").fullmatch(stripped):
            expected = "is a bare function signature"
        elif facts.VISIBLE_STATE.fullmatch(stripped):
            expected = "states what the code or file tree already shows"
    assert facts.code_obvious_reason(text) == expected
