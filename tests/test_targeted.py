"""``targeted.lint_store_of``: the findings on the reported paths are exactly those a
whole-store run finds on them, with or without the cache, with in-memory contents
equal to the same contents written to disk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memlint.cache import CacheSet
from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.targeted import lint_store_of
from tests.helpers import generate_store

SETTINGS = Settings()


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    store = generate_store(tmp_path / "store", 80, seed=5, defect_rate=0.3, notes=10)
    # a name other files link to, and a link to it from elsewhere
    (store / "target-note.md").write_text(
        "---\nname: target-note\ndescription: A note others link to\n"
        "metadata:\n  type: project\n---\nThe target.\n",
        encoding="utf-8",
    )
    (store / "linker.md").write_text(
        "---\nname: linker\ndescription: Links to the target\n"
        "metadata:\n  type: project\n---\nSee [[target-note]].\n",
        encoding="utf-8",
    )
    return store


def whole(store: Path) -> list:
    """Every finding of a whole-store run, without cache, sorted."""
    found = []
    for loaded in discover([str(store)], SETTINGS, cwd=str(store)):
        found.extend(lint_store(loaded, SETTINGS, selected_rules(SETTINGS)))
    return sorted(found, key=lambda d: d.sort_key())


def on(found: list, path: Path) -> list:
    return [d for d in found if d.path == str(path)]


def memories(store: Path) -> list[Path]:
    return sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")


@pytest.mark.parametrize("cached", [False, True])
def test_reported_paths_get_what_a_whole_run_finds_on_them(
    generated: Path, tmp_path: Path, cached: bool
) -> None:
    reference = whole(generated)
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32) if cached else None
    if caches is not None:  # a warm cache: one whole run saved
        lint_store_of(str(generated / "linker.md"), SETTINGS, report=None, caches=caches, save=True)
    files = [*memories(generated)[::7], generated / "MEMORY.md"]
    assert any(on(reference, path) for path in files)
    for path in files:
        result = lint_store_of(
            str(path), SETTINGS, report=[str(path)], cwd=str(generated), caches=caches
        )
        assert result.store is not None
        assert result.diagnostics == on(reference, path), path
    everything = lint_store_of(
        str(files[0]), SETTINGS, report=None, cwd=str(generated), caches=caches
    )
    assert everything.diagnostics == reference


def test_overrides_equal_the_same_bytes_on_disk(generated: Path, tmp_path: Path) -> None:
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    linker, target = generated / "linker.md", generated / "target-note.md"
    lint_store_of(str(linker), SETTINGS, report=None, caches=caches, save=True)
    # the target renamed in an unsaved buffer: the linker's link now dangles
    renamed = target.read_bytes().replace(b"name: target-note", b"name: other-name")
    added = generated / "brand-new.md"
    new_text = b"---\nname: brand-new\n---\nSee [[target-note]] and [[nowhere]].\n"
    overrides = {str(target): renamed, str(added): new_text}
    report = [str(linker), str(target), str(added)]
    found = lint_store_of(
        str(target), SETTINGS, report=report, overrides=overrides, caches=caches
    ).diagnostics
    assert any(d.path == str(linker) and d.code == "LK001" for d in found)
    on_disk = tmp_path / "on-disk"
    shutil.copytree(generated, on_disk)
    (on_disk / "target-note.md").write_bytes(renamed)
    (on_disk / "brand-new.md").write_bytes(new_text)
    expected = [
        (d.code, d.path.replace(str(on_disk), str(generated)), d.message, d.range)
        for path in report
        for d in on(whole(on_disk), on_disk / Path(path).name)
    ]
    assert sorted((d.code, d.path, d.message, d.range) for d in found) == sorted(expected)


def test_a_path_in_no_store_gives_no_store(tmp_path: Path) -> None:
    lone = tmp_path / "lone" / "notes.md"
    lone.parent.mkdir()
    lone.write_text("# not a memory\n", encoding="utf-8")
    result = lint_store_of(str(lone), SETTINGS, report=[str(lone)], cwd=str(tmp_path))
    assert result.store is None and result.diagnostics == []


def test_a_store_with_a_config_file_of_its_own_is_linted_with_it(generated: Path) -> None:
    """As ``memlint check`` does: the store's nearest config file chooses its rules."""
    from memlint.config import find_config, load_settings

    (generated / ".memlint.toml").write_text('ignore = ["LK001"]\n', encoding="utf-8")
    linker = generated / "linker.md"
    linker.write_text(linker.read_text().replace("[[target-note]]", "[[nowhere]]"))
    own = load_settings(find_config(str(generated)))
    reference = []
    for loaded in discover([str(generated)], own, cwd=str(generated)):
        reference.extend(lint_store(loaded, own, selected_rules(own)))
    result = lint_store_of(
        str(linker),
        SETTINGS,
        report=[str(linker)],
        cwd=str(generated),
        settings_for=lambda folder: load_settings(find_config(folder)),
        rules=selected_rules(SETTINGS),
    )
    assert not any(d.code == "LK001" for d in result.diagnostics)
    assert result.diagnostics == sorted(on(reference, linker), key=lambda d: d.sort_key())


def test_files_renamed_deleted_and_added_between_cached_runs(
    generated: Path, tmp_path: Path
) -> None:
    """A warm cache, then the linked memory renamed (file and name), one memory deleted
    and one added: the cached targeted run reports what an uncached whole run does,
    on the linker too, whose own file did not change."""
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    linker, target = generated / "linker.md", generated / "target-note.md"
    lint_store_of(str(linker), SETTINGS, report=None, caches=caches, save=True, cwd=str(generated))
    moved = generated / "moved-note.md"
    moved.write_bytes(target.read_bytes().replace(b"name: target-note", b"name: moved-note"))
    target.unlink()
    memories(generated)[0].unlink()
    added = generated / "added-note.md"
    added.write_text("---\nname: added-note\n---\nSee [[moved-note]].\n", encoding="utf-8")
    reference = whole(generated)
    report = [str(linker), str(moved), str(added), str(generated / "MEMORY.md")]
    found = lint_store_of(
        str(linker), SETTINGS, report=report, caches=caches, save=True, cwd=str(generated)
    ).diagnostics
    assert any(d.path == str(linker) and d.code == "LK001" for d in found)
    assert found == sorted(
        (d for path in report for d in on(reference, Path(path))), key=lambda d: d.sort_key()
    )
    again = lint_store_of(
        str(linker), SETTINGS, report=report, caches=caches, cwd=str(generated)
    ).diagnostics
    assert again == found


def test_a_nested_store_stays_out_of_the_store_around_it(generated: Path) -> None:
    nested = generated / "team"
    nested.mkdir()
    (nested / "MEMORY.md").write_text("- [Linker](linker.md) — the same name\n")
    (nested / "linker.md").write_text(
        "---\nname: linker\ndescription: the same name\nmetadata:\n  type: project\n---\nx\n"
    )
    linker = generated / "linker.md"
    result = lint_store_of(str(linker), SETTINGS, report=[str(linker)], cwd=str(generated))
    assert result.store is not None and result.store.root == str(generated)
    assert all(not s.path.startswith(str(nested)) for s in result.store.files)
    assert result.diagnostics == on(whole(generated), linker)
