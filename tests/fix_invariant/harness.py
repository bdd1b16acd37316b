"""The fix invariants, checked on one store, and a seeded mutation fuzzer of stores.

For a store: ``--fix`` (in-process, safe fixes only), then ``check``, then
``--fix`` again, and compare (README "Fixing"):

1. no (rule, file) finding is more frequent after the fix than before;
2. every written Markdown file's frontmatter keeps its keys and value types;
3. no rule failed to converge;
4. the second run changes nothing;
5. files the fix did not change keep their bytes; changed files hold exactly
   what the fix planned.

Run on demand with more stores: ``python -m tests.fix_invariant.harness
--stores 20000 --seed 7`` (from the repository root, ``PYTHONPATH=src``).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import stat
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from memlint import writer
from memlint.config import Settings
from memlint.discovery import UsageError
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from memlint.sources.yamledit import frontmatter_change


@dataclass
class Tally:
    """What the harness saw: stores checked, fixes applied, invariant violations."""

    stores: int = 0
    fixes: int = 0
    withheld: int = 0  # safe fixes the engine withheld because they would add a finding
    violations: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.stores += other.stores
        self.fixes += other.fixes
        self.withheld += other.withheld
        self.violations += other.violations

    def __str__(self) -> str:
        return (
            f"stores {self.stores}, fixes applied {self.fixes}, withheld {self.withheld}, "
            f"invariant violations {len(self.violations)}"
        )


def snapshot(root: Path) -> dict[str, bytes]:
    """Bytes of every regular file below ``root`` (never opening anything else)."""
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            try:
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    continue
                with open(path, "rb") as handle:
                    found[path] = handle.read()
            except OSError:
                continue
    return found


def check_store(root: Path, settings: Settings | None = None, rules=None) -> Tally:
    """Fix ``root`` in place and report every broken invariant (as text)."""
    settings = settings or Settings()
    rules = rules if rules is not None else selected_rules(settings)
    tally = Tally(stores=1)
    name = root.name if root.name != "memory" else f"{root.parent.name}/memory"
    before_bytes = snapshot(root)
    try:
        first = fix_paths([str(root)], settings, rules, cwd=str(root))
        second = fix_paths([str(root)], settings, rules, cwd=str(root), write=False)
    except UsageError:
        return tally
    except Exception as exc:  # any crash is a finding of the harness
        tally.violations.append(f"{name}: --fix raised {type(exc).__name__}: {exc}")
        return tally
    tally.fixes = len(first.fixed)
    tally.withheld = sum(
        1
        for d in first.remaining
        if any(n.startswith("fix withheld: it would add") for n in d.notes)
    )
    violations = tally.violations
    for error in first.errors:
        if "converge" in error:
            violations.append(f"{name}: invariant 3: {error}")
    before = Counter((d.code, d.path) for d in first.initial)
    after = Counter((d.code, d.path) for d in second.initial)
    for (code, path), count in sorted(after.items()):
        if count > before[(code, path)]:
            rel = os.path.relpath(path, root)
            was = before[(code, path)]
            violations.append(f"{name}: invariant 1: {code} in {rel} {was}->{count}")
    after_bytes = snapshot(root)
    planned = {change.path: change.new for change in first.changes}
    for path in sorted(set(before_bytes) | set(after_bytes)):
        rel = os.path.relpath(path, root)
        old, new = before_bytes.get(path), after_bytes.get(path)
        if path in planned:
            if new != planned[path]:
                violations.append(f"{name}: invariant 5: {rel} differs from the planned bytes")
            elif path.endswith(".md") and old is not None:
                reason = _frontmatter_reason(old, new)
                if reason:
                    violations.append(f"{name}: invariant 2: {rel}: {reason}")
        elif old != new:
            violations.append(f"{name}: invariant 5: {rel} changed outside the plan")
    again = [c for c in second.changes if _writable(root, c)]
    if again:
        shown = ", ".join(os.path.relpath(c.path, root) for c in again)
        violations.append(f"{name}: invariant 4: a second --fix would change {shown}")
    return tally


def _writable(root: Path, change) -> bool:
    """Whether ``--fix`` may write the file of ``change`` (a read-only file is refused)."""
    try:
        writer.check_target(str(root), change.path, change.old)
    except writer.WriteError:
        return False
    return True


def _frontmatter_reason(old: bytes, new: bytes) -> str | None:
    try:
        return frontmatter_change(old.decode("utf-8"), new.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def check_tree_copy(source: Path, workdir: Path, settings: Settings | None = None) -> Tally:
    """Copy ``source`` (regular files and folders only) into ``workdir`` and check it."""
    target = workdir / source.name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True, ignore=_special_files)
    for directory, _, names in os.walk(target):  # a copy to fix: its files are ours to write
        for name in names:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, os.lstat(path).st_mode | stat.S_IWUSR)
    return check_store(target, settings)


def _special_files(directory: str, names: list[str]) -> list[str]:
    ignored = []
    for name in names:
        try:
            mode = os.lstat(os.path.join(directory, name)).st_mode
        except OSError:
            ignored.append(name)
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            ignored.append(name)
    return ignored


# ---------------------------------------------------------------- mutation fuzzer

TYPES = ("user", "feedback", "project", "reference")
WORDS = "alpha beta gamma delta coffee tea deploy review token café naïve straße".split()  # noqa: SIM905
INSERTS = (
    "---\n",
    "```\n",
    "~~~\n",
    "<!-- note\n",
    "-->\n",
    "<details>\n",
    "`````` run\n",
    "[[missing link]]\n",
    "- [ghost](ghost.md) — gone\n",
    "\ufeff",
    "\u200b",
    "\r\n",
    "name: other\n",
    "  nested: [x, y]\n",
    "description: superseded by [[alpha]]\n",
    "# Heading\n",
    "> quote\n",
)


def seed_store(rng: random.Random) -> dict[str, bytes]:
    """A small linked or typed store with a few defects of its own."""
    typed = rng.random() < 0.4
    files: dict[str, str] = {}
    stems = []
    for _ in range(rng.randint(2, 6)):
        kind = rng.choice(TYPES)
        slug = "-".join(rng.sample(WORDS, 2))
        stem = f"{kind}_{slug.replace('-', '_')}" if typed else slug
        if stem in stems:
            continue
        stems.append(stem)
        name = stem if rng.random() < 0.8 else slug.replace("-", " ").title()
        link = f"See [[{rng.choice(stems)}]].\n" if rng.random() < 0.5 else ""
        type_line = f"type: {kind}\n" if typed else f"metadata:\n  type: {kind}\n"
        description = " ".join(rng.choices(WORDS, k=rng.randint(1, 8)))
        files[stem + ".md"] = (
            f"---\nname: {name}\ndescription: {description}\n{type_line}---\n\n"
            f"{description}.\n{link}"
        )
    lines = ["# Memory Index", ""]
    if typed and rng.random() < 0.5:
        for kind in TYPES:
            group = [s for s in stems if s.startswith(kind + "_")]
            if group:
                lines += [f"## {kind.title()}"]
                lines += [f"- [{s}]({s}.md) — {s}" for s in group if rng.random() < 0.8]
                lines.append("")
    else:
        lines += [f"- [{s}]({s}.md) — {s}" for s in stems if rng.random() < 0.8]
    files["MEMORY.md"] = "\n".join(lines) + "\n"
    return {rel: text.encode("utf-8") for rel, text in files.items()}


def mutate(files: dict[str, bytes], rng: random.Random) -> dict[str, bytes]:
    """``files`` with one to three random mutations."""
    files = dict(files)
    for _ in range(rng.randint(1, 3)):
        rel = rng.choice(sorted(files))
        data = files[rel]
        kind = rng.randrange(9)
        at = rng.randint(0, len(data))
        if kind == 0 and data:  # byte flip
            at = min(at, len(data) - 1)
            files[rel] = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
        elif kind == 1:  # truncation
            files[rel] = data[:at]
        elif kind in (2, 3):  # an inserted line: ---, fences, comments, links, keys
            start = data.rfind(b"\n", 0, at) + 1
            files[rel] = data[:start] + rng.choice(INSERTS).encode() + data[start:]
        elif kind == 4:  # unicode normalization forms, CRLF, BOM
            text = data.decode("utf-8", "replace")
            form = rng.choice(("NFD", "NFC", "NFKC", "CRLF", "BOM"))
            if form == "CRLF":
                files[rel] = text.replace("\n", "\r\n").encode()
            elif form == "BOM":
                files[rel] = b"\xef\xbb\xbf" + data
            else:
                files[rel] = unicodedata.normalize(form, text).encode()
        elif kind == 5 and rel != "MEMORY.md":  # a rename by hand
            new = rng.choice(WORDS) + "-" + rel
            files[new] = files.pop(rel)
        elif kind == 6 and len(files) > 1:  # a deletion
            del files[rel]
        elif kind == 7:  # a duplicated line
            lines = data.split(b"\n")
            line = rng.randrange(len(lines))
            lines.insert(line, lines[line])
            files[rel] = b"\n".join(lines)
        else:  # a new memory, unindexed
            word = rng.choice(WORDS)
            body = f"---\nname: {word}\ndescription: new {word}\nmetadata:\n  type: user\n---\n"
            files.setdefault(f"{word}-new.md", body.encode())
    return files


def write_store(root: Path, files: dict[str, bytes]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def fuzz(stores: int, seed: int, workdir: Path, extra_seeds=(), extra_share: float = 0.3) -> Tally:
    """Check ``stores`` mutated stores built from generated seed stores, or, for about
    ``extra_share`` of them, from ``extra_seeds`` (real stores)."""
    rng = random.Random(seed)
    settings = Settings()
    rules = selected_rules(settings)
    tally = Tally()
    pool = list(extra_seeds)
    for number in range(stores):
        base = rng.choice(pool) if pool and rng.random() < extra_share else seed_store(rng)
        root = workdir / f"store-{number % 4}"
        write_store(root, mutate(base, rng))
        found = check_store(root, settings, rules)
        found.violations = [f"seed {seed} #{number} {v}" for v in found.violations]
        tally.add(found)
    return tally


def read_seed(folder: Path) -> dict[str, bytes]:
    """A real store as a seed: its Markdown files (regular, at most 64 KiB each)."""
    files = {}
    for path in sorted(folder.rglob("*.md")):
        try:
            if stat.S_ISREG(os.lstat(path).st_mode) and path.stat().st_size <= 65536:
                files[str(path.relative_to(folder))] = path.read_bytes()
        except OSError:
            continue
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--real", type=Path, help="a folder of real stores used as seeds too")
    args = parser.parse_args(argv)
    seeds = []
    if args.real is not None:
        seeds = [read_seed(p) for p in sorted(args.real.iterdir()) if p.is_dir()]
    with tempfile.TemporaryDirectory() as workdir:
        tally = fuzz(args.stores, args.seed, Path(workdir), [s for s in seeds if s])
    for violation in tally.violations:
        print(violation)
    print(tally)
    return 1 if tally.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
