#!/usr/bin/env python3
"""Write a deterministic synthetic memory store for benchmarks and tests.

Usage: python bench/gen_store.py OUTDIR --files N [--seed S] [--defect-rate R]
       [--nesting F] [--notes M] [--store-files K] [--force]

OUTDIR gets N memory files (``<slug>.md``, a fraction F inside nested
folders such as ``projects/<p>/decisions``), a ``MEMORY.md`` index with one
``- [Title](path.md) — summary`` line per memory, and, with ``--notes M``,
a ``notes.jsonl`` of M facts in time order. Frontmatter mixes the shapes real
stores use: a flat ``type:`` or a nested ``metadata:`` block, dates, quoted
values, booleans and numbers. A fraction R of memories carry one defect (a
dangling wikilink, a missing description, an unknown type, broken YAML, a
missing or extra index line), and so does a fraction R of notes (a duplicate
fact, a time that goes backwards, a missing field).

More than K memories (10,000 by default) are split into sub-stores
``OUTDIR/store-NN/`` of at most K each, every one with its own index and
notes: a 10k index stays under memlint's 1 MiB file cap (about 85 bytes a
line), so the index and note rules run on every size instead of stopping at
``file-too-large``. The same arguments always write the same bytes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import sys

TYPES = ("user", "feedback", "project", "reference")
WORD_TEXT = (
    "api auth build cache cli config deploy docker error flag git http index "
    "infra json lint log metrics mock node oauth proxy pytest queue redis "
    "release retry schema secret service session sql staging style test "
    "token trace ui worker yaml billing search export sync backup alerts "
    "budget roadmap oncall incident runbook vendor audit prefer avoid keep "
    "split merge rebase naming branch version wheel coverage flaky unit load"
)
WORDS = tuple(WORD_TEXT.split())
SUBJECTS = ("The user", "Alice", "The team", "Our CI", "Staging", "Reviewers", "Dana", "Ops")
VERBS = ("prefers", "avoids", "relies on", "pinned", "rolled back", "documented", "wants")
OBJECTS = (
    "small pull requests", "pytest -x", "Postgres 15", "squash merges", "Redis sessions",
    "feature flags", "ruff format", "the nightly export", "uv installs", "JWT refresh tokens",
)  # fmt: skip
SENTENCES = (
    "The user prefers small pull requests for anything touching billing.",
    "Our CI relies on pytest -x because CI minutes are limited.",
    "The team decided to keep Postgres 15 until the migration lands.",
    "Reviewers asked to avoid squash merges on release branches.",
    "Staging uses a dedicated database since the March incident.",
    "Use `uv pip install` for installs; the old `[[wiki]]` syntax is code here.",
    "Rate limits on the public API are documented in the runbook.",
)
FOLDERS = ("projects/{p}", "projects/{p}/decisions", "people", "reference", "archive/2025")
PROJECTS = ("atlas", "beacon", "cobalt", "delta", "ember", "falcon")
DEFECTS = (
    "dangling_wikilink",
    "missing_description",
    "unknown_type",
    "bad_frontmatter",
    "index_missing",
    "index_extra",
)
SUMMARIES = (  # as many as SENTENCES: the choice draws the same random bits
    "prefers small PRs",
    "CI runs pytest -x",
    "Postgres 15 for now",
    "no squash on release",
    "own staging database",
    "uv for installs",
    "API rate limits",
)
NOTE_DEFECTS = ("duplicate_fact", "time_backwards", "missing_field")
STORE_FILES = 10_000
CODE_BLOCK = '```bash\nif [[ -n "$CI" ]]; then\n  make test\nfi\n```\n'


def slugs_for(rng: random.Random, count: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        slug = "-".join(rng.choice(WORDS) for _ in range(2 + rng.randrange(3)))
        if slug in seen:
            slug = f"{slug}-{len(out)}"
        if slug not in seen:
            seen.add(slug)
            out.append(slug)
    return out


def frontmatter(rng: random.Random, slug: str, kind: str, defect: str | None) -> str:
    title = slug.replace("-", " ").capitalize()
    lines = [f"name: {slug}"]
    if defect != "missing_description":
        description = rng.choice(SENTENCES).rstrip(".")
        if rng.random() < 0.15:
            description = '"' + description.replace('"', "'") + '"'
        lines.append(f"description: {description}")
    memory_type = "opinion" if defect == "unknown_type" else kind
    if rng.random() < 0.5:
        lines.append(f"type: {memory_type}")
    else:
        lines.append("metadata:")
        lines.append(f"  type: {memory_type}")
        if rng.random() < 0.5:
            lines.append(f"  confidence: {rng.choice(('0.8', '1', 'high'))}")
    if rng.random() < 0.4:
        lines.append(f"created: 2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}")
    if rng.random() < 0.1:
        lines.append(f"pinned: {rng.choice(('true', 'false', 'yes', 'no'))}")
    if rng.random() < 0.05:
        lines.append(f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]")
    if rng.random() < 0.05:
        lines.append(f"title: '{title}'")
    if defect == "bad_frontmatter":
        lines.append("broken: [unclosed, list")
    return "---\n" + "\n".join(lines) + "\n---\n"


def sentence(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return rng.choice(SENTENCES)
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 8)))
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} for {words}."


def body(rng: random.Random, slug: str, kind: str, links: list[str], defect: str | None) -> str:
    title = slug.replace("-", " ").capitalize()
    parts = [f"# {title}\n\n"]
    for _ in range(1 + rng.randrange(6)):
        parts.append(" ".join(sentence(rng) for _ in range(1 + rng.randrange(4))) + "\n\n")
    if kind in ("feedback", "project"):
        parts.append(f"**Why:** {rng.choice(SENTENCES)}\n\n")
        parts.append(f"**How to apply:** {rng.choice(SENTENCES)}\n\n")
    if links:
        parts.append("Related: " + ", ".join(f"[[{link}]]" for link in links) + "\n")
    if defect == "dangling_wikilink":
        parts.append(f"See also [[ghost-{rng.randrange(10**6)}]].\n")
    if rng.random() < 0.03:
        parts.append("\n" + CODE_BLOCK)
    return "".join(parts)


def generate(
    outdir: str,
    files: int,
    seed: int = 0,
    defect_rate: float = 0.05,
    nesting: float = 0.3,
    notes: int = 0,
    store_files: int = STORE_FILES,
) -> dict[str, int]:
    """Write the store into ``outdir`` (created), or sub-stores of at most
    ``store_files`` memories each when ``files`` is larger; return counts of injected
    defects."""
    if files <= store_files:
        return generate_store(outdir, files, seed, defect_rate, nesting, notes)
    parts = -(-files // store_files)
    counts: dict[str, int] = {}
    for part in range(parts):
        share = files // parts + (part < files % parts)
        note_share = notes // parts + (part < notes % parts)
        store = os.path.join(outdir, f"store-{part:02d}")
        made = generate_store(store, share, seed * 1000 + part, defect_rate, nesting, note_share)
        for defect, count in made.items():
            counts[defect] = counts.get(defect, 0) + count
    return counts


def generate_store(
    outdir: str, files: int, seed: int, defect_rate: float, nesting: float, notes: int
) -> dict[str, int]:
    """Write one store (its memories, ``MEMORY.md`` and ``notes.jsonl``) into ``outdir``."""
    rng = random.Random(seed)
    slugs = slugs_for(rng, files)
    os.makedirs(outdir, exist_ok=True)
    index_lines: dict[str, list[str]] = {kind: [] for kind in TYPES}
    counts: dict[str, int] = {}
    made_dirs: set[str] = set()
    for position, slug in enumerate(slugs):
        kind = rng.choice(TYPES)
        defect = rng.choice(DEFECTS) if rng.random() < defect_rate else None
        if defect:
            counts[defect] = counts.get(defect, 0) + 1
        folder = ""
        if rng.random() < nesting:
            folder = rng.choice(FOLDERS).format(p=rng.choice(PROJECTS))
        rel = f"{folder}/{slug}.md" if folder else f"{slug}.md"
        links = [slugs[rng.randrange(files)] for _ in range(rng.randrange(3))] if position else []
        text = frontmatter(rng, slug, kind, defect) + body(rng, slug, kind, links, defect)
        directory = os.path.join(outdir, folder) if folder else outdir
        if directory not in made_dirs:
            os.makedirs(directory, exist_ok=True)
            made_dirs.add(directory)
        with open(os.path.join(outdir, rel), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        title = slug.replace("-", " ").capitalize()
        if defect != "index_missing":
            index_lines[kind].append(f"- [{title}]({rel}) — {rng.choice(SUMMARIES)}")
        if defect == "index_extra":
            index_lines[kind].append(f"- [Gone]({slug}-gone.md) — removed long ago")
    index = ["# Memory index", ""]
    for kind in TYPES:
        index += [f"## {kind.capitalize()}", "", *index_lines[kind], ""]
    with open(os.path.join(outdir, "MEMORY.md"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(index))
    if notes:
        write_notes(os.path.join(outdir, "notes.jsonl"), notes, rng, defect_rate, counts)
    return counts


def write_notes(
    path: str, notes: int, rng: random.Random, defect_rate: float, counts: dict[str, int]
) -> None:
    """``notes`` facts, one a minute from 2025-01-01; a fraction ``defect_rate`` of
    them (the first excepted) repeat the note before, go back two minutes or lack
    ``project`` (counted into ``counts``)."""
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    fact = project = ""
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for number in range(notes):
            defect = rng.choice(NOTE_DEFECTS) if rng.random() < defect_rate else None
            defect = defect if number else None
            if defect:
                counts[defect] = counts.get(defect, 0) + 1
            minute = number - 2 if defect == "time_backwards" else number
            if defect != "duplicate_fact":
                words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 9)))
                fact = (
                    f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} for {words}."
                )
                project = rng.choice(PROJECTS)
            note = {
                "time": (start + datetime.timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "project": project,
                "fact": fact,
                "tags": [rng.choice(WORDS)],
            }
            if defect == "missing_field":
                del note["project"]
            handle.write(json.dumps(note) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("outdir")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--defect-rate", type=float, default=0.05)
    parser.add_argument("--nesting", type=float, default=0.3, help="fraction in nested folders")
    parser.add_argument("--notes", type=int, default=0, help="lines of notes.jsonl")
    parser.add_argument(
        "--store-files", type=int, default=STORE_FILES, help="most memories in one store"
    )
    parser.add_argument("--force", action="store_true", help="replace OUTDIR if it exists")
    args = parser.parse_args(argv)
    if os.path.exists(args.outdir):
        if not args.force:
            print(f"{args.outdir} exists (use --force)", file=sys.stderr)
            return 2
        shutil.rmtree(args.outdir)
    counts = generate(
        args.outdir,
        args.files,
        args.seed,
        args.defect_rate,
        args.nesting,
        args.notes,
        args.store_files,
    )
    print(json.dumps({"files": args.files, "defects": counts}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
