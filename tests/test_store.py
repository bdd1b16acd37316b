"""The store model's identity key."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memlint.store import fold


def reference_fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_fold_equals_nfc_then_casefold(text: str) -> None:
    assert fold(text) == reference_fold(text)


def test_fold_of_lower_case_ascii_is_the_same_string() -> None:
    name = "".join(["user-", "role"])  # built at run time: not a shared constant
    assert fold(name) is name
    assert fold("User-Role") == "user-role"
    assert fold("Café") == reference_fold("Café") == "café"


TEXT = (
    "---\nname: alpha\ndescription: superseded by [[beta]]\ncreated: 2025-01-02\n"
    "metadata:\n  type: project\n---\nBody [[beta]].\n"
)


def _source(text: str = TEXT):
    from memlint.sources.document import SourceFile

    return SourceFile(path="/s/alpha.md", rel="alpha.md", display="alpha.md", text=text)


def _cached(tmp_path, facts=None):
    """A memory of ``TEXT`` remembered in a fresh cache, then built from it (with
    ``facts`` in place of the remembered ones when given)."""
    from memlint.cache import StoreCache
    from memlint.facts import memory_facts, summary_facts
    from memlint.parse import load_memories, load_memory

    parsed = load_memory(_source())
    first = StoreCache(str(tmp_path / "store.pickle"), "key", b"k" * 32)
    summary = summary_facts(parsed.summary)
    first.remember_memory(_source(), facts or memory_facts(parsed), summary)
    first.save()
    second = StoreCache(str(tmp_path / "store.pickle"), "key", b"k" * 32)
    (memory,) = load_memories([_source()], second)
    return parsed, memory


def test_a_memory_from_its_cached_summary_loads_only_when_asked(tmp_path) -> None:
    """Name, description, link targets, successor and profile signals come from the
    summary; the parsed values, loaded on first use, equal a fresh parse."""
    from memlint.facts import memory_facts

    parsed, memory = _cached(tmp_path)
    assert not memory.loaded
    assert (memory.name, memory.description) == ("alpha", "superseded by [[beta]]")
    assert list(memory.link_targets) == ["beta"] and memory.successor_target == "beta"
    assert memory.has_frontmatter and not memory.is_document
    assert memory.signals == parsed.signals
    assert not memory.loaded  # nothing parsed or rebuilt so far
    assert memory.supersession == parsed.supersession  # loaded here: it needs positions
    assert memory.loaded
    assert memory.frontmatter == parsed.frontmatter
    assert memory_facts(memory) == memory_facts(parsed)


def test_damaged_facts_fall_back_to_parsing_the_file(tmp_path) -> None:
    from memlint.facts import memory_facts
    from memlint.parse import load_memory

    facts = memory_facts(load_memory(_source()))
    damaged = (*facts[0][:5], ((1,),), *facts[0][6:])  # a problem that cannot be built
    parsed, memory = _cached(tmp_path, (damaged, *facts[1:]))
    assert memory.name == "alpha" and not memory.loaded
    assert memory.frontmatter == parsed.frontmatter
