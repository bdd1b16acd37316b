"""The server's kept store notices what changed on disk in folders that hold none of its
files: an empty folder that gets a memory, a nested store whose ``MEMORY.md`` goes (its
memories join the store), a symlink swapped for a folder. Each lint after the change
equals a fresh server's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlint.lsp.model import StoreLinter


def memory(name: str, body: str = "Text.") -> str:
    return (
        f"---\nname: {name}\ndescription: {name} memory\nmetadata:\n  type: reference\n---\n\n"
        f"{body}\n"
    )


def codes(result, path: Path) -> list[str]:
    return sorted(d.code for d in result.by_path.get(str(path), []))


def lint_after(root: Path, change, events: bool) -> tuple[list[str], list[str], list[str]]:
    """Codes on alpha.md before ``change``, after it (the kept store), and from a fresh
    server; ``events``: the client reports the changed paths, else the server looks."""
    (root / "MEMORY.md").write_text("- [Alpha](alpha.md) — alpha memory\n", encoding="utf-8")
    alpha = root / "alpha.md"
    alpha.write_text(memory("alpha", "Alpha links to [[gamma]]."), encoding="utf-8")
    kept = StoreLinter(str(root))
    fresh = StoreLinter(str(root))
    try:
        before = codes(kept.lint(str(alpha), {}), alpha)
        for path in change():
            if events:
                kept.recheck(str(path))
        after = codes(kept.lint(str(alpha), {}, watch_disk=not events), alpha)
        return before, after, codes(fresh.lint(str(alpha), {}), alpha)
    finally:
        kept.close()
        fresh.close()


@pytest.mark.parametrize("events", [True, False])
def test_a_memory_created_in_an_empty_folder_is_noticed(tmp_path: Path, events: bool) -> None:
    root = tmp_path / "store"
    (root / "projects").mkdir(parents=True)

    def create():
        (root / "projects" / "gamma.md").write_text(memory("gamma"), encoding="utf-8")
        return [root / "projects" / "gamma.md"]

    before, after, fresh = lint_after(root, create, events)
    assert "LK001" in before
    assert after == fresh and "LK001" not in after


@pytest.mark.parametrize("events", [True, False])
def test_a_nested_store_whose_index_goes_joins_the_store(tmp_path: Path, events: bool) -> None:
    root = tmp_path / "store"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "MEMORY.md").write_text("- [Gamma](gamma.md) — g\n", encoding="utf-8")
    (root / "sub" / "gamma.md").write_text(memory("gamma"), encoding="utf-8")

    def unnest():
        (root / "sub" / "MEMORY.md").unlink()
        return [root / "sub" / "MEMORY.md"]

    before, after, fresh = lint_after(root, unnest, events)
    assert "LK001" in before
    assert after == fresh and "LK001" not in after


@pytest.mark.parametrize("events", [True, False])
def test_a_symlink_swapped_for_a_folder_is_noticed(tmp_path: Path, events: bool) -> None:
    root = tmp_path / "store"
    root.mkdir()
    (root / "MEMORY.md").write_text("- [Alpha](alpha.md) — alpha memory\n", encoding="utf-8")
    (root / "alpha.md").write_text(memory("alpha"), encoding="utf-8")
    (root / "gamma.md").symlink_to("alpha.md")
    index, gamma = root / "MEMORY.md", root / "gamma.md"
    kept = StoreLinter(str(root))
    fresh = StoreLinter(str(root))
    try:
        assert "FS006" in codes(kept.lint(str(index), {}), gamma)
        os.unlink(gamma)
        gamma.mkdir()
        if events:
            kept.recheck(str(gamma))
        after = codes(kept.lint(str(index), {}, watch_disk=not events), gamma)
        assert after == codes(fresh.lint(str(index), {}), gamma)
        assert "FS007" in after
    finally:
        kept.close()
        fresh.close()


def test_the_servers_cache_keeps_summaries_not_parse_facts(tmp_path: Path) -> None:
    """A store loaded again (a file created, deleted or renamed) is built from the
    summaries in the server's cache, its memories parsed again on use: the cache keeps
    no parse facts (at 10,000 memories they made the server's peak 14 MiB higher), and
    the store loaded again lints as a fresh server's does."""
    root = tmp_path / "store"
    root.mkdir()
    (root / "MEMORY.md").write_text("- [Alpha](alpha.md) — alpha memory\n", encoding="utf-8")
    alpha = root / "alpha.md"
    alpha.write_text(memory("alpha", "Alpha links to [[beta]]."), encoding="utf-8")
    linter = StoreLinter(str(root))
    try:
        assert "LK001" in codes(linter.lint(str(alpha), {}), alpha)
        cache = linter.caches(linter.settings_for(str(alpha))).for_store(str(root))
        assert "alpha.md" in cache.rows  # its summary
        assert cache.entries_for("alpha.md")["alpha.md"][1] is None  # no facts
        (root / "beta.md").write_text(memory("beta", "Beta names [[alpha]]."), encoding="utf-8")
        linter.recheck(str(root / "beta.md"))
        reloaded = linter.lint(str(alpha), {})
        fresh = StoreLinter(str(root))
        try:
            expected = fresh.lint(str(alpha), {})
            for path in (alpha, root / "beta.md", root / "MEMORY.md"):
                assert codes(reloaded, path) == codes(expected, path)
        finally:
            fresh.close()
        assert "LK001" not in codes(reloaded, alpha)
    finally:
        linter.close()
