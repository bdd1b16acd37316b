"""The store model's derived tables (index entries resolved, the link graph): their
fast paths give what the full computation gives, and they load no memory they
need not."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.config import Settings
from memlint.sources.document import SourceFile
from memlint.store import Store
from tests.helpers import write_files


def memory(name: str, description: str = "a fact") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\nBody.\n"


def load(root: Path) -> Store:
    (store,) = api.load([str(root)], Settings(), cwd=str(root))
    return store


def test_every_entry_resolves_as_the_full_resolution_does(tmp_path: Path) -> None:
    """Targets that are a memory's path but leave the store (a colon reads as a URL
    scheme or a drive, a written backslash), or that are one only once normalized,
    decoded or folded, resolve as ``_resolve_entry`` resolves them."""
    write_files(
        tmp_path,
        {
            "plain.md": memory("plain"),
            "http:x.md": memory("scheme"),
            "c:y.md": memory("drive"),
            "back\\slash.md": memory("backslash"),
            "sub/deep.md": memory("deep"),
            "Upper.md": memory("upper"),
            "notes.txt": "not a memory\n",
            "MEMORY.md": "# Memory\n\n"
            + "".join(
                f"- [{n}]({href}) — entry {n}\n"
                for n, href in enumerate(
                    [
                        "plain.md",
                        "./plain.md",
                        "sub/../plain.md",
                        "%70lain.md",
                        "<plain.md>",
                        "plain.md#part",
                        "http:x.md",
                        "./http:x.md",
                        "c:y.md",
                        "back\\slash.md",
                        "back%5Cslash.md",
                        "sub/deep.md",
                        "sub//deep.md",
                        "upper.md",
                        "Upper.md",
                        "notes.txt.md",
                        "gone.md",
                        "../outside.md",
                        "/abs.md",
                    ]
                )
            ),
        },
    )
    store = load(tmp_path)
    entries = store.index.entries
    assert len(entries) == 18  # `http:x.md` alone is no entry
    kinds = set()
    for entry in entries:
        found = store.index_target(entry)
        assert found == store._resolve_entry(entry), entry.href
        kinds.add(found.kind)
    assert kinds == {"memory", "folded", "missing", "escapes"}


def test_entries_pointing_at_a_memory_are_counted_once_each(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "a.md": memory("a"),
            "b.md": memory("b"),
            "c.md": memory("c"),
            "MEMORY.md": "# Memory\n\n- [A](a.md)\n- [A again](./a.md)\n- [B](B.md)\n"
            "- [Lost](lost.md)\n",
        },
    )
    store = load(tmp_path)
    a, b, c = (store.by_rel[rel] for rel in ("a.md", "b.md", "c.md"))
    assert [store.index_entries_to(m) for m in (a, b, c)] == [2, 1, 0]
    assert store.indexed_memories == {id(a), id(b)}


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab\n—é😀\udc80", max_size=9000),
    st.booleans(),
    st.lists(st.integers(-3, 9003), max_size=20),
)
def test_byte_offsets_of_long_texts_equal_encoding_the_prefix(
    text: str, bom: bool, offsets: list[int]
) -> None:
    """Edits in a long non-ASCII index count bytes from kept marks, not from the start."""
    source = SourceFile("/s/MEMORY.md", "MEMORY.md", "MEMORY.md", text=text, bom=bom)
    for offset in [*offsets, len(text), len(text) // 2]:
        expected = len(text[:offset].encode("utf-8", "surrogatepass")) + (3 if bom else 0)
        assert source.byte_offset(offset) == expected


def _warm(root: Path) -> Store:
    """``root``'s store loaded from a warm cache: memories built from their summaries."""
    from memlint.cache import CacheSet

    caches = CacheSet(str(root / ".cache"), "k", b"k" * 32)
    api.check([str(root)], Settings(), caches=caches, cwd=str(root))
    caches = CacheSet(str(root / ".cache"), "k", b"k" * 32)
    (store,) = api.load([str(root)], Settings(), caches=caches, cwd=str(root))
    return store


def test_link_rules_load_only_the_memories_whose_links_they_report(tmp_path: Path) -> None:
    """LK001-LK004 know each link's resolution from the summaries: a memory is loaded
    (for positions) only when one of its links is pending, ambiguous, folded or
    superseded; the findings equal those of a run without cache."""
    from memlint.engine import lint_store, selected_rules

    write_files(
        tmp_path,
        {
            "a.md": memory("a") + "See [[b]] and [[https://x.org]].\n",
            "b.md": memory("b") + "See [[a]].\n",
            "pending.md": memory("pending") + "See [[nowhere]].\n",
            "folded.md": memory("folded") + "See [[B]].\n",
            "twice.md": memory("twice") + "See [[dup]].\n",
            "dup1.md": memory("dup"),
            "dup2.md": memory("dup"),
            "old.md": memory("old", "superseded by [[b]]"),
            "to-old.md": memory("to-old") + "See [[old]].\n",
            "MEMORY.md": "# Memory\n",
        },
    )
    settings = Settings().with_overrides(select=("LK001", "LK002", "LK003", "LK004"))
    expected = api.check([str(tmp_path)], settings, cwd=str(tmp_path)).diagnostics
    store = _warm(tmp_path)
    store.memo = None  # the rules run (the cache holds the whole result too)
    found = lint_store(store, settings, selected_rules(settings))
    assert sorted(d.code for d in found) == ["LK001", "LK002", "LK003", "LK004"]
    assert sorted(found, key=lambda d: d.sort_key()) == expected
    loaded = sorted(m.file.rel for m in store.memories if m.loaded)
    assert loaded == ["folded.md", "pending.md", "to-old.md", "twice.md"]


def test_the_rules_of_one_memory_mask_its_prose_once(tmp_path: Path, monkeypatch) -> None:
    """CT002/CT003 read the masked prose as one string, TY001-TY003 line by line: each
    form is computed once per memory, not once per rule."""
    from memlint.sources import markdown

    calls: list[int] = []
    real = markdown.masked_lines

    def counted(text: str, start: int, end: int):
        calls.append(start)
        return real(text, start, end)

    monkeypatch.setattr(markdown, "masked_lines", counted)
    # "today" and "[your name]" let CT003 and CT002 past their raw-text gates, so both
    # read the prose (a memory holding neither would not be masked for them at all)
    body = (
        "**Why:** `make test` first, today.\n\n```\ncode [[x]]\n```\n"
        "**How to apply:** always, as [your name].\n"
    )
    write_files(tmp_path, {"feedback_a.md": memory("a") + body, "MEMORY.md": "# Memory\n"})
    select = ("CT002", "CT003", "TY001", "TY002", "TY003")
    settings = Settings().with_overrides(select=select)
    api.check([str(tmp_path)], settings, cwd=str(tmp_path))
    assert len(calls) == 3  # parsing (its wikilinks), CT002+CT003, TY001+TY002+TY003


def test_a_run_naming_indexed_memories_resolves_no_entry(tmp_path: Path) -> None:
    """IX002 reports on memories: when every memory reported on is an entry's plain
    target, the entries are not resolved; a named unindexed memory gets the finding
    (and fix) of a whole-store run."""
    from memlint.engine import lint_store, selected_rules

    write_files(
        tmp_path,
        {
            "a.md": memory("a"),
            "b.md": memory("b"),
            "lost.md": memory("lost"),
            "MEMORY.md": "# Memory\n\n- [A](a.md) — a fact\n- [B](./b.md) — a fact\n",
        },
    )
    settings = Settings().with_overrides(select=("IX002",))
    whole = api.check([str(tmp_path)], settings, cwd=str(tmp_path)).diagnostics
    assert [d.path for d in whole] == [str(tmp_path / "lost.md")]
    for name, expected in (("a.md", []), ("b.md", []), ("lost.md", whole)):
        (store,) = api.load([str(tmp_path / name)], settings, cwd=str(tmp_path))
        assert lint_store(store, settings, selected_rules(settings)) == expected
        assert ("_index_targets" in vars(store)) == (name != "a.md")
