"""CT002 and CT003 build a memory's masked prose only when its raw body may hold a
match (``may_hold`` of ``spans_in_memory``): masking only blanks characters, so
whatever the prose matches, the raw body passes the gate. These tests search the
prose with the rules' patterns alone, no gate in the way, and check the gates."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.rules.ct import ct002_template_placeholder as ct002
from memlint.rules.ct import ct003_relative_date as ct003
from memlint.sources.markdown import prose_text

PIECES = st.sampled_from(
    ["`", "``", "```\n", "~~~\n", "<!--", "-->", "\n", "\n    ", "\n\t", " ", "[", "]", "[[",
     "]]", "(", ":", "your", "name", "e.g.", "TODO: fill", "<your-key>", "{{ x }}", "XXX",
     "today", "Last week", "3 days ago", "heute", "昨天", "é", "a", "-", "/", " / ", "x"]
)  # fmt: skip
BODIES = st.lists(PIECES, max_size=30).map("".join)


def _slots_ungated(prose: str) -> list[tuple[int, int]]:
    found = [m.span() for m in ct002.SLOT.finditer(prose)]
    for match in ct002.BRACKET.finditer(prose):
        inner = match.group(1)
        if inner.count(" / ") >= 2 or ct002.PROMPT.match(inner):
            found.append(match.span())
    return found


@settings(max_examples=1500, deadline=None)
@given(BODIES)
@example("`x`[your name]")
@example("<!-- a -->[e.g. x]")
@example("```\n[[a]]\n```\n[your key]")
@example("to`x`day and [a / b / c]")
def test_a_body_whose_prose_holds_a_slot_passes_the_ct002_gate(body: str) -> None:
    prose = prose_text(body)
    found = _slots_ungated(prose)
    if found:
        assert ct002._may_hold_slot(body, 0, len(body))
    assert sorted(ct002._slots(prose, 0, len(prose))) == sorted(found)


@settings(max_examples=1500, deadline=None)
@given(BODIES)
@example("to`x`day")
@example("<!--x-->today")
@example("last\tweek")
def test_a_body_whose_prose_holds_a_relative_date_passes_the_ct003_gate(body: str) -> None:
    prose = prose_text(body)
    found = [m.span() for m in ct003.RELATIVE.finditer(prose)]
    if found:
        assert ct003._may_hold_relative_date(body, 0, len(body))
    assert ct003._relative_dates(prose, 0, len(prose)) == found


@settings(max_examples=1000, deadline=None)
@given(BODIES | st.text(max_size=60))
@example("Yesterday")
@example("last-week")
@example("weekly mon day")
def test_the_ct003_gate_finds_exactly_the_texts_with_one_of_its_last_words(body: str) -> None:
    """The gate searches the text's words with one pattern (``spans.word_pattern``):
    it passes exactly the ASCII texts one of whose lower-cased ``[\\w-]+`` runs is one
    of ``LAST_WORDS``, and every text that is not ASCII."""
    import re

    words = re.findall(r"[a-z0-9_-]+", body.lower()) if body.isascii() else None
    expected = words is None or not ct003.LAST_WORDS.isdisjoint(w.encode() for w in words)
    assert ct003._may_hold_relative_date(body, 0, len(body)) == expected


SUPERSESSION_PIECES = st.sampled_from(
    ["superseded", "SUPERSEDED", "Superseding", "supersed", "super", "seded", " by ", "[[x]]",
     "**", " ", "-", "\n", "é", "ſ", "x"]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.lists(SUPERSESSION_PIECES, max_size=8).map("".join))
def test_a_description_su006_reports_passes_its_gate(value: str) -> None:
    """SU006 tries its patterns only on a description holding "supersed" (any case) or
    one that is not ASCII, where ignoring case is more than lower-casing."""
    from memlint.rules.su import su006_malformed_supersession as su006

    if su006.LEADING_MARK.match(value) or su006.LINKED_LATER.search(value[:2000]):
        assert not value.isascii() or "supersed" in value.lower()
