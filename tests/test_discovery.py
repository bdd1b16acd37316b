"""Finding stores: roots, nesting, symlinks, implicit stores, partial file lists."""

from __future__ import annotations

import os

from memlint.config import Settings, StoreConfig
from memlint.discovery import discover
from tests.helpers import write_files

MEM = "---\nname: {n}\ndescription: d\nmetadata:\n  type: user\n---\nBody.\n"


def roots(stores, base):
    return [os.path.relpath(s.root, base) for s in stores]


def test_nested_stores_are_separate(tmp_path):
    write_files(
        tmp_path,
        {
            "repo/.claude/memory/MEMORY.md": "- [a](a.md) — a\n",
            "repo/.claude/memory/a.md": MEM.format(n="a"),
            "repo/.claude/memory/agents/rev/MEMORY.md": "- [b](b.md) — b\n",
            "repo/.claude/memory/agents/rev/b.md": MEM.format(n="b"),
            "repo/docs/guide.md": "# Guide\n",
            "repo/README.md": "# Repo\n",
        },
    )
    stores = discover([str(tmp_path / "repo")], Settings(), cwd=str(tmp_path))
    assert roots(stores, tmp_path) == ["repo/.claude/memory", "repo/.claude/memory/agents/rev"]
    outer, inner = stores
    assert [m.file.rel for m in outer.memories] == ["a.md"]
    assert [m.file.rel for m in inner.memories] == ["b.md"]


def test_skip_dirs_and_excluded_names(tmp_path):
    write_files(
        tmp_path,
        {
            "m/MEMORY.md": "",
            "m/README.md": "# about\n",
            "m/a.md": MEM.format(n="a"),
            "m/node_modules/x.md": MEM.format(n="x"),
            "m/.git/y.md": MEM.format(n="y"),
            "m/sub/c.md": MEM.format(n="c"),
            "m/notes.txt": "not markdown",
        },
    )
    (store,) = discover([str(tmp_path / "m")], Settings(), cwd=str(tmp_path))
    assert [m.file.rel for m in store.memories] == ["a.md", "sub/c.md"]
    assert store.excluded == ["README.md"]


def test_symlinks_are_never_followed(tmp_path):
    write_files(tmp_path, {"m/MEMORY.md": "", "m/a.md": MEM.format(n="a"), "out/secret.md": "x"})
    os.symlink(tmp_path / "out" / "secret.md", tmp_path / "m" / "link.md")
    os.symlink(tmp_path / "out", tmp_path / "m" / "dirlink")
    os.symlink("loop.md", tmp_path / "m" / "loop.md")
    (store,) = discover([str(tmp_path / "m")], Settings(), cwd=str(tmp_path))
    assert [m.file.rel for m in store.memories] == ["a.md"]
    details = {os.path.basename(s.path): s.detail for s in store.skipped}
    assert details == {
        "link.md": "a symlink pointing outside the store",
        "loop.md": "a symlink loop",
    }


def test_given_file_loads_whole_store_and_reports_only_it(tmp_path):
    write_files(tmp_path, {"m/MEMORY.md": "", "m/a.md": MEM.format(n="a"), "m/b.md": "x"})
    (store,) = discover([str(tmp_path / "m" / "a.md")], Settings(), cwd=str(tmp_path))
    assert len(store.memories) == 2
    assert store.reports_on(str(tmp_path / "m" / "a.md"))
    assert not store.reports_on(str(tmp_path / "m" / "b.md"))


def test_subdirectory_of_store_reports_under_it(tmp_path):
    write_files(
        tmp_path, {"m/MEMORY.md": "", "m/a.md": MEM.format(n="a"), "m/s/b.md": MEM.format(n="b")}
    )
    (store,) = discover([str(tmp_path / "m" / "s")], Settings(), cwd=str(tmp_path))
    assert store.root == str(tmp_path / "m")
    assert store.reports_on(str(tmp_path / "m" / "s" / "b.md"))
    assert not store.reports_on(str(tmp_path / "m" / "a.md"))
    assert not store.reports_on(str(tmp_path / "m" / "sx" / "c.md"))  # a sibling, not under


def test_directory_without_index_named_memory_is_a_store(tmp_path):
    write_files(tmp_path, {"memory/a.md": "---\nname: a\n---\nA fact.\n"})
    (store,) = discover([str(tmp_path)], Settings(), cwd=str(tmp_path))
    assert store.reason == "is a memory/ folder whose Markdown has frontmatter (no MEMORY.md)"


def test_memory_named_code_folder_is_not_a_store(tmp_path):
    write_files(tmp_path, {"src/memory/allocator.md": "# Allocator\nDefault DB password: x\n"})
    assert discover([str(tmp_path)], Settings(), cwd=str(tmp_path)) == []
    named = str(tmp_path / "src" / "memory" / "allocator.md")
    assert discover([named], Settings(), cwd=str(tmp_path)) == []


def test_directory_with_memory_frontmatter_is_a_store(tmp_path):
    write_files(tmp_path, {"x/user_a.md": "---\nname: A\ndescription: d\ntype: user\n---\n"})
    (store,) = discover([str(tmp_path / "x")], Settings(), cwd=str(tmp_path))
    assert store.profile == "typed"


def test_ordinary_docs_are_not_a_store(tmp_path):
    write_files(tmp_path, {"docs/a.md": "---\nname: a\ndescription: d\n---\n# Skill\n"})
    assert discover([str(tmp_path / "docs")], Settings(), cwd=str(tmp_path)) == []


def test_configured_store_and_profile(tmp_path):
    write_files(tmp_path, {"kb/a.md": MEM.format(n="a")})
    settings = Settings(stores=(StoreConfig(str(tmp_path / "kb"), "typed"),))
    (store,) = discover([str(tmp_path)], settings, cwd=str(tmp_path))
    assert (store.profile, store.profile_reason) == ("typed", "set in config")


def test_loose_note_store_detected_by_fact_key(tmp_path):
    write_files(
        tmp_path,
        {
            "notes.jsonl": '{"time": "2026-01-01T00:00:00Z", "project": "p", "fact": "f."}\n',
            "other.jsonl": '{"event": "x"}\n',
        },
    )
    (store,) = discover([str(tmp_path)], Settings(), cwd=str(tmp_path))
    assert store.profile == "notes"
    assert [n.rel for n in store.notes] == ["notes.jsonl"]


def test_special_files_are_not_opened(tmp_path):
    write_files(tmp_path, {"m/MEMORY.md": "", "m/a.md": MEM.format(n="a")})
    os.mkfifo(tmp_path / "m" / "fifo.md")
    (tmp_path / "m" / "dir.md").mkdir()
    (store,) = discover([str(tmp_path / "m")], Settings(), cwd=str(tmp_path))
    kinds = sorted((os.path.basename(s.path), s.detail) for s in store.skipped)
    assert kinds == [("dir.md", "a directory"), ("fifo.md", "a FIFO")]
