"""The hook against whole-store linting: what the hook blames on a write is exactly
what two whole-store runs without cache (before and after the write) tell apart, for
60 generated stores and writes, with no cache, a cache warmed at the state before the
write (its memo is that state) and a cache warmed at another state (its memo is not)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from memlint import hook
from memlint.api import check
from memlint.cache import open_caches
from memlint.config import Settings
from memlint.diagnostics import Severity
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from tests.helpers import generate_store

SETTINGS = Settings()
SEEDS = range(60)
GONE = "gone-note"  # the stem of an index entry whose file does not exist
SECRET = "ghp_Zr8cQ2xVb7Nm4Lp9Ks3Jd6Hf1Gt5Wy0Ea2Uo"


def whole(store: Path) -> list:
    """Every finding of a whole-store run without cache."""
    found = []
    for loaded in discover([str(store)], SETTINGS, cwd=str(store.parent)):
        found.extend(lint_store(loaded, SETTINGS, selected_rules(SETTINGS)))
    return found


def keys(found: list) -> Counter:
    return Counter((d.code, d.path, d.message) for d in found if d.severity >= Severity.WARNING)


def _set_field(text: str, key: str, value: str) -> str:
    line = f"{key}: {value}"
    if re.search(rf"^{key}:.*$", text, flags=re.M):
        return re.sub(rf"^{key}:.*$", lambda _: line, text, count=1, flags=re.M)
    return text.replace("---\n", f"---\n{line}\n", 1) if text.startswith("---\n") else text


def mutate(rng: random.Random, text: str, others: list[str], other_texts: list[str]) -> str:
    """One write an agent might make: renames, collisions, links, near duplicates,
    supersession, broken YAML, credentials, type changes, plain edits."""
    other = rng.choice(others)
    kind = rng.randrange(13)
    if kind == 0:  # take another memory's name (a collision)
        return _set_field(text, "name", other)
    if kind == 1:  # a new name (links to the old one dangle)
        return _set_field(text, "name", f"renamed-{rng.randrange(1000)}")
    if kind == 2:  # YAML that does not parse
        return _set_field(text, "description", "broken: yaml: [here")
    if kind == 3:  # a link to another memory, or to nothing
        target = other if rng.random() < 0.6 else f"ghost-{rng.randrange(1000)}"
        return text + f"\nSee [[{target}]].\n"
    if kind == 4:  # another memory's body (a near duplicate)
        body = rng.choice(other_texts).split("\n---\n", 1)[-1]
        return text.split("\n---\n", 1)[0] + "\n---\n" + body
    if kind == 5:  # superseded by another memory
        return _set_field(text, "description", f"superseded by [[{other}]]")
    if kind == 6:  # an invalid or a changed type
        return _set_field(text, "type", rng.choice(["opinion", "user", "reference"]))
    if kind == 7:  # a credential
        return text + f"\ntoken {SECRET}\n"
    if kind == 8:  # no frontmatter at all
        return text.split("\n---\n", 1)[-1]
    if kind == 9:  # the name differs only in case from another memory's
        return _set_field(text, "name", other.upper())
    if kind == 10:  # a new description
        return _set_field(text, "description", f"now about {rng.choice(others)}")
    if kind == 11:  # the name a dangling index entry's filename guesses (IX003, IX002)
        return _set_field(text, "name", GONE)
    return text + "\nOne more line.\n"  # a plain edit


def _warm(project: Path, store: Path) -> None:
    caches = open_caches(None, SETTINGS, str(project))
    assert caches is not None
    check([str(store)], SETTINGS, caches=caches, cwd=str(project))
    caches.save()


def _case(tmp_path, monkeypatch, seed: int):
    """A generated store, one memory of it (or, one seed in four, a new file beside
    them, created from another memory's text) and the text a write gives it; the
    cache as ``seed % 3`` says, the file on disk as before the write."""
    rng = random.Random(seed)
    project = tmp_path / "project"
    store = generate_store(project / "memory", 16, seed=seed, defect_rate=0.35)
    with open(store / "MEMORY.md", "a", encoding="utf-8") as index:
        index.write(f"- [Gone]({GONE}.md) — removed long ago\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(project)
    paths = sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")
    texts = {p: p.read_text(encoding="utf-8") for p in paths}
    target = rng.choice(paths)
    others = [p.stem for p in paths if p != target]
    before = texts[target]
    after = mutate(rng, before, others, [texts[p] for p in paths if p != target])
    if seed % 4 == 3:  # a new file
        target, before = target.with_name(f"new-{seed}.md"), None
    cache = seed % 3  # 0: none, 1: warmed at the state before, 2: warmed at another state
    if cache == 2:
        target.write_text((before or "") + "\n<!-- another state -->\n", encoding="utf-8")
    if cache:
        _warm(project, store)
    if before is None:
        target.unlink(missing_ok=True)
    else:
        target.write_text(before, encoding="utf-8")
    return project, store, target, before, after


def _whole_after(store: Path, target: Path, after: str) -> list:
    text = target.read_text(encoding="utf-8") if target.exists() else None
    target.write_text(after, encoding="utf-8")
    found = whole(store)
    if text is None:
        target.unlink()
    else:
        target.write_text(text, encoding="utf-8")
    return found


@pytest.mark.parametrize("seed", SEEDS)
def test_the_hook_blames_what_whole_store_runs_tell_apart(tmp_path, monkeypatch, seed):
    project, store, target, before, after = _case(tmp_path, monkeypatch, seed)
    expected = keys(_whole_after(store, target, after)) - keys(whole(store))
    target.write_text(after, encoding="utf-8")
    response = {"type": "create", "filePath": str(target), "content": after}
    if before is not None:
        response = {"type": "update", "filePath": str(target), "originalFile": before}
    tool_input = {"file_path": str(target), "content": after}
    new, _ = hook.post_write(str(target), str(project), "Write", tool_input, response)
    assert keys(new) == expected, (seed, target.name)


@pytest.mark.parametrize("seed", SEEDS)
def test_strict_denies_what_whole_store_runs_tell_apart(tmp_path, monkeypatch, seed):
    project, store, target, _, after = _case(tmp_path, monkeypatch, seed)
    certain = set(hook.CERTAIN_BREAKAGE)
    expected = keys(_whole_after(store, target, after)) - keys(whole(store))
    expected = Counter({key: n for key, n in expected.items() if key[0] in certain})
    new, _ = hook.pre_write(str(target), str(project), after, target.exists())
    assert keys(new) == expected, (seed, target.name)


@pytest.mark.parametrize("seed", SEEDS)
def test_stop_blames_what_whole_store_runs_tell_apart(tmp_path, monkeypatch, seed):
    """Two memories the session wrote (one, one seed in four, a file it created):
    the errors in them that they had not in the store as it is with their texts as
    the session found them (a created file: all of its errors)."""
    project, store, target, before, after = _case(tmp_path, monkeypatch, seed)
    rng = random.Random(-seed)
    second = rng.choice(sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md"))
    first_text = second.read_text(encoding="utf-8")
    target.write_text(after, encoding="utf-8")
    written = {target: before, second: first_text}
    if second != target:
        others = [p.stem for p in store.rglob("*.md") if p != second]
        second.write_text(mutate(rng, first_text, others, [after]), encoding="utf-8")
    files = {str(p) for p in written}

    def errors(found) -> Counter:
        return Counter(
            (d.code, d.path, d.message)
            for d in found
            if d.severity is Severity.ERROR and d.path in files
        )

    now = errors(whole(store))
    known = {p: t for p, t in written.items() if t is not None}
    texts_now = {p: p.read_text(encoding="utf-8") for p in known}
    for path, text in known.items():
        path.write_text(text, encoding="utf-8")
    found_then = errors(d for d in whole(store) if Path(d.path) in known)
    for path, text in texts_now.items():
        path.write_text(text, encoding="utf-8")
    expected = now - found_then
    messages, _ = hook.session_errors({str(p): t for p, t in written.items()}, str(project))
    assert errors(messages) == expected, (seed, sorted(files))
