"""The server's lint after an edit re-lints only the files tied to the edited memory
(and keeps the store's tables when the edit leaves names and descriptions alone):
its findings must equal a whole-store lint of the same buffers, edit after edit."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from memlint.lsp.model import StoreLinter
from tests.helpers import generate_store


def findings(result) -> dict[str, list]:
    return {
        path: sorted(repr((d.code, d.range, d.message, d.severity, d.fix, d.notes)) for d in found)
        for path, found in result.by_path.items()
        if found
    }


def index_edit(rng: random.Random, text: str, names: list[str]) -> str:
    """MEMORY.md with a line dropped, an entry or a wikilink added, or a line changed."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    other = rng.choice(names)
    kind = rng.randrange(4)
    if kind == 0:
        del lines[at]
    elif kind == 1:
        lines.insert(at, f"- [{other}]({other}.md) — added again")
    elif kind == 2:
        lines.insert(at, f"See [[{other}]] and [[gone-{rng.randrange(3)}]].")
    else:
        lines[at] = lines[at].replace("—", "-").upper()
    return "\n".join(lines)


def edits(rng: random.Random, texts: dict[str, str], names: list[str], index: str):
    """Edits an editor session makes: body text, links, names, descriptions,
    supersession, copied bodies (near duplicates), hidden characters, suppressions,
    broken frontmatter, going back to the text on disk, and MEMORY.md edits."""
    paths = sorted(p for p in texts if p != index)
    while True:
        if rng.random() < 0.2:
            texts[index] = index_edit(rng, texts[index], names)
            yield index
            continue
        path = rng.choice(paths)
        text = texts[path]
        other = rng.choice(names)
        kind = rng.randrange(11)
        if kind == 0:
            text += f"\nMore words in round {rng.random():.6f}.\n"
        elif kind == 1:
            text += f"\nSee [[{other}]] and [[missing-{rng.randrange(3)}]].\n"
        elif kind == 2:
            text = re.sub(r"(?m)^name: .*$", f"name: {other}", text, count=1)
        elif kind == 3:
            text = re.sub(r"(?m)^name: (.*)$", lambda m: f"name: {m[1].upper()}", text, count=1)
        elif kind == 4:
            text = re.sub(r"(?m)^description: .*$", "description: changed words", text, count=1)
        elif kind == 5:
            text = re.sub(
                r"(?m)^description: .*$", f"description: superseded by [[{other}]]", text, count=1
            )
        elif kind == 6:
            donor = texts[rng.choice(paths)]
            text = text.split("\n---\n", 1)[0] + "\n---\n" + donor.split("\n---\n", 1)[-1]
        elif kind == 7:
            text += "\nHidden\u200b zero width.\n"
        elif kind == 8:
            text += "\n<!-- memlint: ignore[LK001] -->\n"
        elif kind == 9:
            text = text.replace("---\n", "---\nbroken: [\n", 1)
        else:
            text = Path(path).read_text(encoding="utf-8")
        texts[path] = text
        yield path


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_edits_lint_as_the_whole_store_does(tmp_path, seed):
    store = generate_store(tmp_path / "store", 60, seed=seed, defect_rate=0.2)
    paths = sorted(str(p) for p in store.rglob("*.md"))
    texts = {p: Path(p).read_text(encoding="utf-8") for p in paths}
    names = [Path(p).stem for p in paths if not p.endswith("MEMORY.md")]
    rng = random.Random(seed)
    kept = StoreLinter(str(tmp_path))
    try:
        buffers: dict[str, str] = {}
        stream = edits(rng, texts, names, str(store / "MEMORY.md"))
        for _ in range(40):
            path = next(stream)
            buffers[path] = texts[path]
            incremental = kept.lint(path, dict(buffers))
            whole = StoreLinter(str(tmp_path))
            try:
                expected = whole.lint(path, dict(buffers))
            finally:
                whole.close()
            assert findings(incremental) == findings(expected), path
    finally:
        kept.close()


def test_an_edit_of_a_body_relints_only_the_files_tied_to_it(tmp_path):
    """A body edit of a memory no other file names keeps the store's derived tables and
    runs the cross-file rules on that memory alone."""
    store = generate_store(tmp_path / "store", 60, seed=4, defect_rate=0.0)
    linter = StoreLinter(str(tmp_path))
    try:
        path = str(sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")[-1])
        text = Path(path).read_text(encoding="utf-8")
        first = linter.lint(path, {path: text + "\none\n"})
        tables = first.store.by_folded_name
        second = linter.lint(path, {path: text + "\ntwo\n"})
        assert second.store is first.store
        assert second.store.by_folded_name is tables
        assert linter.lint(path, {path: text + "\nthree\n"}).store is first.store
    finally:
        linter.close()


def test_an_edit_of_the_index_parses_only_the_index(tmp_path):
    """Typing in MEMORY.md keeps the store: its memories are neither read nor parsed
    again, and the name tables stay; the index's own tables are built again."""
    store = generate_store(tmp_path / "store", 60, seed=5, defect_rate=0.0)
    index = str(store / "MEMORY.md")
    text = Path(index).read_text(encoding="utf-8")
    linter = StoreLinter(str(tmp_path))
    try:
        first = linter.lint(index, {index: text + "\n"})
        names = first.store.by_folded_name
        memories = list(first.store.memories)
        lines = text.split("\n")
        entry = next(i for i, line in enumerate(lines) if line.startswith("- ["))
        dropped = "\n".join(lines[:entry] + lines[entry + 1 :])  # its memory is unindexed
        second = linter.lint(index, {index: dropped})
        assert second.store is first.store
        assert second.store.by_folded_name is names
        assert all(a is b for a, b in zip(second.store.memories, memories, strict=True))
        assert any(d.code == "IX002" for found in second.by_path.values() for d in found)
    finally:
        linter.close()


def test_memories_not_open_let_go_of_their_text_and_parsed_values(tmp_path):
    """Once its one-file rules ran, a memory that no buffer holds keeps neither its
    text nor its parsed values (the server held ~18 MiB of them at 10,000 memories):
    both come back from the file when asked for, and a file changed on disk meanwhile
    is refused rather than read as what was linted."""
    store = generate_store(tmp_path / "store", 30, seed=6, defect_rate=0.2)
    paths = sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")
    opened, other, changed = str(paths[0]), str(paths[1]), str(paths[2])
    text = Path(opened).read_text(encoding="utf-8")
    linter = StoreLinter(str(tmp_path))
    try:
        result = linter.lint(opened, {opened: text})
        memories = {m.file.path: m for m in result.store.memories}
        assert memories[opened].file.pending is None and memories[opened].loaded
        assert memories[other].file.pending is not None and not memories[other].loaded
        assert memories[other].file.text == Path(other).read_text(encoding="utf-8")
        assert memories[other].frontmatter is not None and memories[other].loaded
        Path(changed).write_text("---\nname: swapped\n---\n", encoding="utf-8")
        assert memories[changed].file.text is None
        assert memories[changed].file.problem is not None
    finally:
        linter.close()
