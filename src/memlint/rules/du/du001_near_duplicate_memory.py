"""## What it does
Reports two memories that say nearly the same thing: the word 3-grams of
their description and body overlap by at least `threshold` (Jaccard, default
0.8). Memories with fewer than `min-shingles` (8) 3-grams are skipped. CJK
text is split into characters, so it is compared as well.

Candidates come from MinHash signatures (one-permutation hashing, fixed
seeds) grouped by LSH bands; a pair must share two of the sixteen bands
(recall 99.7% at similarity 0.8, 99.99% at 0.85) and is then verified with
the exact Jaccard similarity, so the rule stays near-linear in the store size
and its result is deterministic.

The same comparison runs on the entries of a store whose `MEMORY.md` is the
memory itself (no memory files; sections separated by `§`, `---` or
headings), reported at the later entry, and on the records of each JSONL
file (a note's `fact`; in other schemas `text`, `content`, `value`, `note`,
`body`, `message`, `summary` or `memory`), reported at the later record.
Records that repeat another exactly are left to NT015 and NT020.

## Why is this bad?
Two copies of one fact drift apart: one gets corrected, the other keeps
telling the agent the old version. Both spend the index budget.

## Example
One memory says:
```memlint-file path=feedback_testing.md
---
name: Testing
description: Run the full test suite before pushing
type: feedback
---

Always run the full test suite with `make test` before pushing to any branch.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

and a later one says it again, in almost the same words:
```memlint-bad path=feedback_tests.md
---
name: Tests
description: Run the full test suite before pushing
type: feedback
---

Run the full test suite with `make test` before pushing to any branch.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

Use instead: one memory, with the other merged into it and removed (here
`feedback_tests.md` added nothing, so only `feedback_testing.md` stays).
```memlint-good path=feedback_testing.md
---
name: Testing
description: Run the full test suite before pushing
type: feedback
---

Always run the full test suite with `make test` before pushing to any branch.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

## Fix safety
No fix: which copy to keep, and what to merge, is the author's choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlint.diagnostics import Severity
from memlint.privacy import LazyPattern
from memlint.rules.base import ALL_PROFILES, LINKED_TYPED, Option, RuleMeta, Scope
from memlint.similarity import near_duplicates

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="DU001",
    name="near-duplicate-memory",
    summary="Two memories say nearly the same thing",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=ALL_PROFILES,
    options=(
        Option("threshold", float, 0.8, "the similarity reported", minimum=0.0, maximum=1.0),
        Option("min-shingles", int, 8, "the fewest shingles a compared memory has", minimum=1),
    ),
)
SECTION_BREAK = LazyPattern(r"[ \t]{0,3}(?:§|(?:[-*_][ \t]*){3,}|#{1,6}(?:[ \t].*)?)[ \t]*\r?")
NOTE_KEY = ("project", "fact")
RECORD_TEXT = ("fact", "text", "content", "value", "note", "body", "message", "summary", "memory")


class SimilarityTexts(Sequence[str]):
    """The memories' description+body, built only for the few pairs verified exactly."""

    def __init__(self, memories) -> None:
        self.memories = memories

    def __len__(self) -> int:
        return len(self.memories)

    def __getitem__(self, index):
        return self.memories[index].similarity_text


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    if store.profile in LINKED_TYPED:
        yield from _memory_pairs(ctx, store)
    threshold = float(ctx.options["threshold"])
    minimum = int(ctx.options["min-shingles"])
    index = store.index
    if index is not None and not store.memories and store.reports_on(index.file.path):
        entries = index_entries(index.file.text or "", index.body_start)
        texts = [text for _, text in entries]
        for first, second, jaccard in _first_partner(near_duplicates(texts, threshold, minimum)):
            line = entries[second][0]
            message = (
                f"entry nearly the same as the entry at line {entries[first][0]} "
                f"({jaccard:.0%} of their word 3-grams are shared)"
            )
            start = index.file.line_span(line)[0]
            yield ctx.report(index.file, start, start, message)
    jsonl = [s for s in (*store.notes, *store.files) if s.path.endswith(".jsonl")]
    if jsonl:
        from memlint.sources.jsonl import note_file  # (json: only for a store with JSONL files)
    for source in jsonl:
        if source.raw is None or not store.reports_on(source.path):
            continue
        records = [
            (record, text)
            for record in note_file(source).objects
            if (text := record_text(record.value))
        ]
        texts = [text for _, text in records]
        for first, second, jaccard in _first_partner(near_duplicates(texts, threshold, minimum)):
            one, other = records[first][0].value, records[second][0].value
            if one == other or _same_note(one, other):
                continue  # an exact repeat: NT020 / NT015
            record = records[second][0]
            message = (
                f"record nearly the same as line {records[first][0].line} "
                f"({jaccard:.0%} of their word 3-grams are shared)"
            )
            yield ctx.report_at(source.path, source.display, record.range(0, None), message)


def index_entries(text: str, body_start: int) -> list[tuple[int, str]]:
    """``(first line, text)`` of each section of a ``MEMORY.md`` that is the memory
    itself: sections end at a line holding `§`, a thematic break or a heading."""
    entries: list[tuple[int, str]] = []
    number = text.count("\n", 0, body_start)
    start = 0  # the first line of the section in ``lines``
    lines: list[str] = []
    for line in text[body_start:].split("\n"):
        number += 1
        if SECTION_BREAK.fullmatch(line) or not line.strip():
            if SECTION_BREAK.fullmatch(line) and lines:
                entries.append((start, "\n".join(lines)))
                lines = []
            continue
        if not lines:
            start = number
        lines.append(line)
    if lines:
        entries.append((start, "\n".join(lines)))
    return entries


def record_text(value: object) -> str:
    """The text a JSONL record holds: its string fields among ``RECORD_TEXT``."""
    if not isinstance(value, dict):
        return ""
    return "\n".join(v for k in RECORD_TEXT if isinstance(v := value.get(k), str))


def _first_partner(pairs):
    """Each second member once, with its earliest partner."""
    best: dict[int, tuple[int, int, float]] = {}
    for first, second, jaccard in pairs:
        if second not in best or first < best[second][0]:
            best[second] = (first, second, jaccard)
    return sorted(best.values(), key=lambda pair: pair[1])


def _same_note(one: dict, other: dict) -> bool:
    """Whether two note records have the same ``project`` and ``fact`` (NT015 compares them)."""
    return all(isinstance(one.get(k), str) and one.get(k) == other.get(k) for k in NOTE_KEY)


def _memory_pairs(ctx, store):
    memories = store.memories
    texts = SimilarityTexts(memories)
    threshold = float(ctx.options["threshold"])
    minimum = int(ctx.options["min-shingles"])
    fingerprints = [m.fingerprint for m in memories]
    reported = None  # findings are reported on the second memory: only those shown count
    if store.report is not None:
        shown = {id(m) for m in store.reported_memories}
        reported = {i for i, m in enumerate(memories) if id(m) in shown}
    found = near_duplicates(texts, threshold, minimum, fingerprints, reported)
    for first, second, jaccard in found:
        other, memory = memories[first], memories[second]
        message = (
            f"nearly the same as `{other.file.rel}` "
            f"({jaccard:.0%} of their word 3-grams are shared)"
        )
        yield ctx.report(memory.file, 0, 0, message)
