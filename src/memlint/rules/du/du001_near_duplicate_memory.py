"""## What it does
Reports two memories that say nearly the same thing: the word 3-grams of
their description and body overlap by at least `threshold` (Jaccard, default
0.8). Memories with fewer than `min-shingles` (8) 3-grams are skipped. CJK
text is split into characters, so it is compared as well.

Candidates come from MinHash signatures (one-permutation hashing, fixed
seeds) grouped by LSH bands, and every candidate is verified with the exact
Jaccard similarity, so the rule stays near-linear in the store size and its
result is deterministic. Memories only: duplicate notes are NT015.

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

import hashlib
import re
import struct

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope

SIGNATURE_SIZE = 64
BAND_ROWS = 4
EMPTY = (1 << 64) - 1
NEIGHBOURS = 8
TOKEN = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]+"
)
KEY = b"memlint-du001"

META = RuleMeta(
    code="DU001",
    name="near-duplicate-memory",
    summary="Two memories say nearly the same thing",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
    options={"threshold": 0.8, "min-shingles": 8},
)


def shingles(text: str, size: int = 3) -> set[int]:
    """64-bit hashes of the word ``size``-grams of ``text`` (casefolded)."""
    words = TOKEN.findall(text.casefold())
    grams = (" ".join(words[i : i + size]) for i in range(len(words) - size + 1))
    return {
        struct.unpack("<Q", hashlib.blake2b(g.encode(), digest_size=8, key=KEY).digest())[0]
        for g in grams
    }


def signature(hashes: set[int]) -> list[int]:
    """One-permutation MinHash: the smallest hash in each of the buckets."""
    sig = [EMPTY] * SIGNATURE_SIZE
    for value in hashes:
        bucket = value % SIGNATURE_SIZE
        rest = value >> 6
        if rest < sig[bucket]:
            sig[bucket] = rest
    return sig


def candidate_pairs(signatures: list[list[int]]) -> set[tuple[int, int]]:
    """Pairs sharing a whole LSH band; each bucket pairs a member with its next
    few members only, so a large cluster costs linear, not quadratic, work."""
    pairs: set[tuple[int, int]] = set()
    for band in range(0, SIGNATURE_SIZE, BAND_ROWS):
        buckets: dict[tuple[int, ...], list[int]] = {}
        for index, sig in enumerate(signatures):
            key = tuple(sig[band : band + BAND_ROWS])
            if all(value == EMPTY for value in key):
                continue
            buckets.setdefault(key, []).append(index)
        for members in buckets.values():
            for position, first in enumerate(members):
                for second in members[position + 1 : position + 1 + NEIGHBOURS]:
                    pairs.add((first, second))
    return pairs


def near_duplicates(texts: list[str], threshold: float, min_shingles: int):
    """``(i, j, jaccard)`` for each pair of ``texts`` at or above ``threshold``."""
    sets = [shingles(text) for text in texts]
    usable = [i for i, s in enumerate(sets) if len(s) >= min_shingles]
    sigs = [signature(sets[i]) for i in usable]
    found = []
    for a, b in sorted(candidate_pairs(sigs)):
        first, second = sets[usable[a]], sets[usable[b]]
        jaccard = len(first & second) / len(first | second)
        if jaccard >= threshold:
            found.append((usable[a], usable[b], jaccard))
    return found


def check(ctx, store):
    memories = store.memories
    texts = [f"{m.description or ''}\n{m.body}" for m in memories]
    threshold = float(ctx.options["threshold"])
    minimum = int(ctx.options["min-shingles"])
    for first, second, jaccard in near_duplicates(texts, threshold, minimum):
        other, memory = memories[first], memories[second]
        message = (
            f"nearly the same as `{other.file.rel}` "
            f"({jaccard:.0%} of their word 3-grams are shared)"
        )
        yield ctx.report(memory.file, 0, 0, message)
