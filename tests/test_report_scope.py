"""Runs that report on a few files (pre-commit names them) check only those files with
the rules that report on the file they are given, and find what a whole run finds there."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint.config import Settings
from memlint.diagnostics import Diagnostic
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.rules import registry
from memlint.rules.base import RuleContext, Scope
from tests.helpers import generate_store

PER_FILE_SCOPES = (Scope.FILE, Scope.MEMORY, Scope.INDEX, Scope.NOTES)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    store = generate_store(
        tmp_path_factory.mktemp("scope") / "store", 120, seed=5, defect_rate=0.5, notes=60
    )
    (store / "old.md").write_text(
        "---\nname: old\ndescription: superseded by [[gone]]\n---\nSee [[Old]] and [[new]].\n"
    )
    (store / "new.md").write_text(
        "---\nname: new\ndescription: superseded by [[new]]\n---\nSee [[old]].\n"
    )
    body = "Run the whole test suite with make test before pushing to any branch of the repo."
    for name, extra in (("dup-a", ""), ("dup-b", " Always."), ("dup-c", " Really.")):
        text = f"---\nname: {name}\ndescription: Run tests before pushing\n---\n{body}{extra}\n"
        (store / f"{name}.md").write_text(text)
    return store


def _lint(root: Path, paths: list[str]) -> list[Diagnostic]:
    settings = Settings().with_overrides(select=("ALL",))
    rules = selected_rules(settings)
    found = []
    for store in discover(paths, settings, cwd=str(root)):
        found.extend(lint_store(store, settings, rules, None, 1))
    return sorted(found, key=Diagnostic.sort_key)


def test_every_per_file_rule_reports_only_on_its_file(generated: Path) -> None:
    """The contract that lets a run skip the files it does not report on."""
    settings = Settings()
    (store,) = discover([str(generated)], settings, cwd=str(generated))
    targets = {
        Scope.FILE: [(s, s) for s in (*store.files, *store.notes)],
        Scope.MEMORY: [(m, m.file) for m in store.memories],
        Scope.INDEX: [(store.index, store.index.file)] if store.index is not None else [],
        Scope.NOTES: [(s, s) for s in store.notes],
    }
    checked = 0
    for code, module in sorted(registry().items()):
        meta = module.META
        if meta.scope not in PER_FILE_SCOPES or meta.external:
            continue
        ctx = RuleContext(store, settings, meta)
        for target, source in targets[meta.scope]:
            for diagnostic in module.check(ctx, target):
                assert diagnostic.path == source.path, (code, source.rel)
                checked += 1
    assert checked > 100


def test_reporting_on_some_files_finds_what_a_whole_run_finds_there(
    generated: Path, monkeypatch
) -> None:
    whole = _lint(generated, [str(generated)])
    chosen = sorted({Path(d.path) for d in whole if d.path.endswith(".md")})[::7]
    chosen += [generated / "old.md", generated / "new.md", generated / "notes.jsonl"]
    chosen += [generated / "dup-b.md"]  # DU001 reports it, the later of a near-duplicate pair
    names = {str(path) for path in chosen}
    pending = registry()["LK001"]
    checked = []
    check = pending.check
    monkeypatch.setattr(
        pending, "check", lambda ctx, m: checked.append(m.file.path) or check(ctx, m)
    )
    some = _lint(generated, sorted(names))
    assert some == [d for d in whole if d.path in names]
    assert {d.code for d in some} >= {"LK001", "SU001", "SU002", "LK003", "DU001"}
    not_memories = {str(generated / "notes.jsonl"), str(generated / "MEMORY.md")}
    assert set(checked) == names - not_memories  # the other memories are skipped


def test_a_run_reporting_on_memories_only_runs_no_index_rule(generated: Path, monkeypatch) -> None:
    """The index's rules report on the index: a run naming one memory skips them
    (a large MEMORY.md's entries were resolved, and fixes computed, for nothing)."""
    missing = registry()["IX003"]
    calls = []
    check = missing.check
    monkeypatch.setattr(
        missing, "check", lambda ctx, index: calls.append(index) or check(ctx, index)
    )
    _lint(generated, [str(generated / "old.md")])
    assert calls == []
    _lint(generated, [str(generated / "MEMORY.md")])
    assert len(calls) == 1
