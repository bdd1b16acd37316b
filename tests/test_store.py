"""The store model's identity key."""

from __future__ import annotations

import unicodedata

import pytest
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


def test_a_memory_rebuilt_from_facts_builds_its_fields_only_when_asked() -> None:
    """Values come from the facts; the fields, built on first use, equal the parsed ones."""
    from memlint.parse import load_memory, memory_facts, rebuild_memory

    parsed = load_memory(_source())
    rebuilt = rebuild_memory(_source(), memory_facts(parsed))
    assert type(rebuilt._frontmatter) is tuple
    assert (rebuilt.name, rebuilt.description) == ("alpha", "superseded by [[beta]]")
    assert rebuilt.value("metadata") == {"type": "project"} and rebuilt.value("nope") is None
    assert rebuilt.has_frontmatter
    assert type(rebuilt._frontmatter) is tuple  # values only: nothing built yet
    assert rebuilt.supersession == parsed.supersession  # built here: it needs positions
    assert rebuilt.frontmatter == parsed.frontmatter
    assert memory_facts(rebuilt) == memory_facts(parsed)


def test_damaged_facts_fall_back_to_parsing_the_file() -> None:
    from memlint.parse import load_memory, memory_facts, rebuild_memory

    parsed = load_memory(_source())
    facts = memory_facts(parsed)
    damaged = (*facts[0][:5], ((1,),), *facts[0][6:])  # a problem that cannot be built
    rebuilt = rebuild_memory(_source(), (damaged, *facts[1:]))
    assert rebuilt.frontmatter == parsed.frontmatter
    fields = facts[0][4]
    metadata = next(f for f in fields if f[0] == "metadata")
    child = ((None, *metadata[7][0][1:]),)  # a nested key that is not a string
    nested = (*facts[0][:4], (*(f for f in fields if f is not metadata), (*metadata[:7], child)))
    rebuilt = rebuild_memory(_source(), ((*nested, *facts[0][5:]), *facts[1:]))
    assert rebuilt.name == "alpha"  # top-level values are read without building
    assert rebuilt.frontmatter == parsed.frontmatter  # the build fails: the file is parsed
    for bad in ((*facts[0][:4], ((None, "x", 0, 0, 0, "", False, None),), *facts[0][5:]), ("x",)):
        with pytest.raises(ValueError):  # refused at once: load_memories parses the file
            rebuild_memory(_source(), (bad, *facts[1:]))
