"""Differential fuzzer: a store goes through a random sequence of edits (renames, name
changes, deletions, new files, index edits, supersession, nested stores, excludes,
symlinks swapped in, rewrites keeping size and mtime) and after each step a check with
a warm cache, with the pool and on the changed files alone reports what ``--no-cache``
reports. The seed is fixed; ``MEMLINT_FUZZ_STEPS`` and ``MEMLINT_FUZZ_SEED`` run it
longer or elsewhere (e.g. ``MEMLINT_FUZZ_STEPS=2000``)."""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from pathlib import Path

from tests.helpers import check_json

STEPS = int(os.environ.get("MEMLINT_FUZZ_STEPS", "60"))
SEED = int(os.environ.get("MEMLINT_FUZZ_SEED", "20261201"))
OLD = time.time_ns() - 3600 * 10**9  # an mtime the cache trusts (well before the run)
NAMES = [f"m{i}" for i in range(14)]
SECRET = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def memory_text(rng: random.Random, name: str) -> str:
    links = " ".join(f"[[{rng.choice([*NAMES, 'ghost'])}]]" for _ in range(rng.randint(0, 3)))
    description = rng.choice(
        [
            f"fact about {name}",
            f"superseded by [[{rng.choice(NAMES)}]]",
            "the same description",
            f"key {SECRET}",
        ]
    )
    kind = rng.choice(["user", "project", "feedback", "reference"])
    body = rng.choice(
        [
            "The user prefers tea over coffee in the morning and at work.\n",
            "The user prefers tea over coffee in the morning and at home.\n",
            "**Why:** it matters.\n**How to apply:** do it.\n",
            "<!-- memlint: ignore[LK001] -->\n",
            "",
        ]
    )
    frontmatter = f"name: {name}\ndescription: {description}\nmetadata:\n  type: {kind}\n"
    return f"---\n{frontmatter}---\n{body}{links}\n"


class Store:
    """The mutated tree: ``root/mem`` is the store; ``mem/sub`` may become a nested one."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.top = root
        self.root = root / "mem"
        self.rng = rng
        self.aged = 0
        self.root.mkdir(parents=True)
        (self.root / "sub").mkdir()
        (self.root / "drafts").mkdir()
        for name in NAMES[:8]:
            self.write(f"{name}.md", memory_text(rng, name))
        self.write("sub/m8.md", memory_text(rng, "m8"))
        self.write_index()
        self.write("notes.jsonl", '{"time":"2024-01-01T00:00:00Z","project":"p","fact":"A."}\n')

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        if path.is_symlink() or path.is_dir():
            self.remove(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def remove(self, rel: str) -> None:
        path = self.root / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()

    def memories(self) -> list[str]:
        return sorted(
            str(p.relative_to(self.root))
            for p in self.root.rglob("*.md")
            if p.name != "MEMORY.md" and not p.is_symlink() and p.is_file()
        )

    def write_index(self, rels: list[str] | None = None) -> None:
        rels = self.memories() if rels is None else rels
        lines = ["# Index", ""]
        for rel in rels:
            lines.append(f"- [{Path(rel).stem}]({rel}) — fact about {Path(rel).stem}")
        self.write("MEMORY.md", "\n".join(lines) + "\n")

    # -- the edits --------------------------------------------------------------

    def edit_body(self) -> str:
        rel = self.pick()
        self.write(rel, memory_text(self.rng, Path(rel).stem))
        return f"edit {rel}"

    def change_name(self) -> str:
        rel = self.pick()
        text = (self.root / rel).read_text(encoding="utf-8")
        new = self.rng.choice(NAMES)
        self.write(rel, re.sub(r"(?m)^name: .*$", f"name: {new}", text, count=1))
        return f"name {rel} -> {new}"

    def rename(self) -> str:
        rel = self.pick()
        new = self.rng.choice(["", "sub/", "drafts/"]) + self.rng.choice(NAMES) + ".md"
        if new == rel:
            return "rename none"
        self.remove(new)
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        os.rename(self.root / rel, self.root / new)
        return f"rename {rel} -> {new}"

    def delete(self) -> str:
        rel = self.pick()
        self.remove(rel)
        return f"delete {rel}"

    def new_file(self) -> str:
        name = self.rng.choice(NAMES)
        rel = self.rng.choice(["", "sub/", "drafts/"]) + name + ".md"
        self.write(rel, memory_text(self.rng, name))
        return f"new {rel}"

    def edit_index(self) -> str:
        rels = self.memories()
        chosen = self.rng.sample(rels, k=self.rng.randint(0, len(rels)))
        chosen += self.rng.sample(["ghost.md", "sub/m9.md", "drafts/m1.md", "m13.md"], k=2)
        self.write_index(chosen)
        return f"index {len(chosen)} entries"

    def toggle_nested(self) -> str:
        index = self.root / "sub" / "MEMORY.md"
        if index.exists():
            index.unlink()
            return "nested store removed"
        (self.root / "sub").mkdir(exist_ok=True)
        index.write_text("- [m8](m8.md) — fact about m8\n", encoding="utf-8")
        return "nested store added"

    def toggle_exclude(self) -> str:
        config = self.root / ".memlint.toml"
        if config.exists():
            config.unlink()
            return "config removed"
        pattern = self.rng.choice(["drafts", "sub/*", "m1.md", "m2.md"])
        config.write_text(f'extend-exclude = ["{pattern}"]\n', encoding="utf-8")
        return f"exclude {pattern}"

    def swap_symlink(self) -> str:
        rel = self.rng.choice(NAMES[:10]) + ".md"
        path = self.root / rel
        if path.is_symlink():
            path.unlink()
            self.write(rel, memory_text(self.rng, Path(rel).stem))
            return f"symlink {rel} -> file"
        self.remove(rel)
        path.symlink_to(self.rng.choice(["m0.md", "sub/m8.md", "../outside.md"]))
        return f"file {rel} -> symlink"

    def same_size_same_mtime(self) -> str:
        """Change one byte keeping size and mtime (only ctime tells)."""
        rel = self.pick()
        path = self.root / rel
        data = path.read_bytes()
        st = os.lstat(path)
        at = data.find(b"tea")
        new = data.replace(b"tea", b"tee", 1) if at >= 0 else data.replace(b"---", b"+++", 1)
        path.write_bytes(new)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        return f"same size and mtime {rel}"

    def append_note(self) -> str:
        with open(self.root / "notes.jsonl", "a", encoding="utf-8") as out:
            out.write(self.rng.choice(['{"time":"2023-01-01T00:00:00Z","fact":"B."}\n', "{\n"]))
        return "note appended"

    def dir_swap(self) -> str:
        rel = self.rng.choice(NAMES[:10]) + ".md"
        self.remove(rel)
        (self.root / rel).mkdir()
        return f"folder {rel}"

    def pick(self) -> str:
        rels = self.memories()
        return self.rng.choice(rels) if rels else self.new_file().split()[-1]

    def step(self) -> str:
        edits = [
            self.edit_body,
            self.change_name,
            self.rename,
            self.delete,
            self.new_file,
            self.edit_index,
            self.toggle_nested,
            self.toggle_exclude,
            self.swap_symlink,
            self.same_size_same_mtime,
            self.append_note,
            self.dir_swap,
        ]
        weights = [6, 3, 3, 2, 3, 3, 1, 1, 1, 3, 1, 1]
        done = [self.rng.choices(edits, weights)[0]() for _ in range(self.rng.randint(1, 3))]
        if self.rng.random() < 0.7:  # aged: the next run may trust its signatures
            self.age()
        return "; ".join(done)

    def age(self) -> None:
        """Set every mtime back (a restore keeps a backup's times), one second later
        than the last time: the cache may trust the files' signatures."""
        self.aged += 10**9
        for path in [self.root, *self.root.rglob("*")]:
            if not path.is_symlink():
                os.utime(path, ns=(OLD + self.aged, OLD + self.aged))


def differ(got: list[dict], expected: list[dict]) -> str:
    """What one run reported and the other did not (code, file, message)."""

    def brief(found: list[dict]) -> list[tuple]:
        return [(d["code"], d["filename"], d["location"]["row"], d["message"]) for d in found]

    extra = [d for d in brief(got) if d not in brief(expected)]
    missing = [d for d in brief(expected) if d not in brief(got)]
    return f"extra {extra}, missing {missing}"


def test_warm_cache_pool_and_named_files_report_what_no_cache_does(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    rng = random.Random(SEED)
    store = Store(tmp_path / "tree", rng)
    (tmp_path / "tree" / "outside.md").write_text(memory_text(rng, "outside"), encoding="utf-8")
    monkeypatch.chdir(store.root)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    history = []
    for step in range(STEPS):
        history.append(store.step())
        reference = check_json(capsys, ".", "--no-cache")
        runs = [("warm cache", [".", *cache], reference)]
        if rng.random() < 0.2:
            runs.append(("pool", [".", "--no-cache", "--jobs", "2"], reference))
        if rng.random() < 0.3 and store.memories():
            named = rng.sample(store.memories(), k=min(2, len(store.memories())))
            on_named = [d for d in reference if d["filename"] in named]
            runs.append((f"named {named}", [*named, *cache], on_named))
        runs.append(("warm cache again", [".", *cache], reference))
        for mode, args, expected in runs:
            got = check_json(capsys, *args)
            assert got == expected, f"{mode}, seed {SEED}, step {step}: {history}\n" + differ(
                got, expected
            )


def server_findings(result) -> dict[str, list]:
    if result is None:
        return {}
    return {
        path: sorted(repr((d.code, d.range, d.message, d.severity, d.fix, d.notes)) for d in found)
        for path, found in result.by_path.items()
        if found
    }


def test_the_servers_kept_store_lints_as_a_fresh_load_does(tmp_path: Path) -> None:
    """Buffers of memories and of MEMORY.md edited, opened and closed, files changed on
    disk with the server told (``forget``, as a watched-file event does): the kept store's
    lint after each step equals a fresh server's lint of the same buffers."""
    from memlint.lsp.model import StoreLinter

    rng = random.Random(SEED + 1)
    store = Store(tmp_path / "tree", rng)
    kept = StoreLinter(str(store.root))
    buffers: dict[str, str] = {}
    history: list[str] = []
    try:
        for step in range(STEPS):
            kind = rng.random()
            rels = store.memories()
            if kind < 0.15 or not rels:  # the disk changes and the server is told
                before = set(store.root.rglob("*"))
                history.append(store.step())
                for path in list(buffers):
                    if not os.path.isfile(path) or os.path.islink(path):
                        del buffers[path]
                for changed in before | set(store.root.rglob("*")):  # the watched-file events
                    kept.recheck(str(changed))
                if "config" in history[-1] or "exclude" in history[-1]:
                    kept.reload()
            elif kind < 0.25 and buffers:  # a buffer closed
                closed = rng.choice(sorted(buffers))
                del buffers[closed]
                history.append(f"close {os.path.relpath(closed, store.root)}")
            else:
                rel = "MEMORY.md" if kind < 0.4 else rng.choice(rels)
                path = str(store.root / rel)
                text = buffers.get(path) or (store.root / rel).read_text(encoding="utf-8")
                if rel == "MEMORY.md":
                    target = rng.choice([*rels, "ghost.md"])
                    text += f"- [{Path(target).stem}]({target}) — fact about it\n"
                else:
                    text = edit_text(rng, text)
                buffers[path] = text
                history.append(f"buffer {rel}")
            path = rng.choice(sorted(buffers)) if buffers else str(store.root / "MEMORY.md")
            got = server_findings(kept.lint(path, dict(buffers)))
            fresh = StoreLinter(str(store.root))
            try:
                expected = server_findings(fresh.lint(path, dict(buffers)))
            finally:
                fresh.close()
            assert got == expected, f"seed {SEED}, step {step}: {history}\n" + "\n".join(
                f"{path}: extra {sorted(set(got.get(path, [])) - set(expected.get(path, [])))}"
                f" missing {sorted(set(expected.get(path, [])) - set(got.get(path, [])))}"
                for path in sorted(set(got) | set(expected))
                if got.get(path) != expected.get(path)
            )
    finally:
        kept.close()


def edit_text(rng: random.Random, text: str) -> str:
    other = rng.choice(NAMES)
    kind = rng.randrange(8)
    if kind == 0:
        return text + f"\nSee [[{other}]].\n"
    if kind == 1:
        return re.sub(r"(?m)^name: .*$", f"name: {other}", text, count=1)
    if kind == 2:
        return re.sub(r"(?m)^name: (.*)$", lambda m: f"name: {m[1].upper()}", text, count=1)
    if kind == 3:
        new = rng.choice(["fact about it", f"superseded by [[{other}]]", "the same description"])
        return re.sub(r"(?m)^description: .*$", f"description: {new}", text, count=1)
    if kind == 4:
        return text + "\n<!-- memlint: ignore[LK001] -->\n"
    if kind == 5:
        return text.replace("---\n", "---\nbroken: [\n", 1)
    if kind == 6:
        return re.sub(r"(?m)^  type: .*$", f"  type: {rng.choice(['user', 'bogus'])}", text)
    return text + "The user prefers tea over coffee in the morning and at work.\n"
