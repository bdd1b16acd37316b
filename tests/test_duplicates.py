"""DU001 at scale: near-linear candidate search, exact verification."""

from __future__ import annotations

import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.rules.du.du001_near_duplicate_memory import near_duplicates

WORDS = [f"w{i}" for i in range(3000)]


def test_planted_near_duplicate_found_among_2000_memories_quickly():
    rng = random.Random(7)
    texts = [" ".join(rng.choice(WORDS) for _ in range(120)) for _ in range(2000)]
    words = texts[1234].split()
    words[60] = "changed"
    texts[1999] = " ".join(words)
    started = time.perf_counter()
    found = near_duplicates(texts, 0.8, 8)
    elapsed = time.perf_counter() - started
    assert [(a, b) for a, b, _ in found] == [(1234, 1999)]
    assert 0.9 < found[0][2] < 1.0
    assert elapsed < 10


def test_a_cluster_of_copies_costs_linear_pairs():
    texts = ["the same long memory text about running tests before every push"] * 300
    found = near_duplicates(texts, 0.8, 8)
    assert len(found) <= 300 * 8
    assert {b for _, b, _ in found} == set(range(1, 300))


def test_recall_on_planted_pairs_above_085():
    """Every planted pair at exact similarity >= 0.85 is found among unrelated texts."""
    from memlint.similarity import shingles

    rng = random.Random(13)
    texts = [" ".join(rng.choice(WORDS) for _ in range(120)) for _ in range(400)]
    planted = []
    for index in range(0, 400, 2):
        words = texts[index].split()
        for position in rng.sample(range(len(words)), rng.randint(1, 4)):
            words[position] = f"edit{position}"
        texts[index + 1] = " ".join(words)
        first, second = shingles(texts[index]), shingles(texts[index + 1])
        jaccard = len(first & second) / len(first | second)
        planted.append((index, index + 1, jaccard))
    found = {(a, b) for a, b, _ in near_duplicates(texts, 0.8, 8)}
    strong = [(a, b) for a, b, jaccard in planted if jaccard >= 0.85]
    assert len(strong) > 100
    assert [pair for pair in strong if pair not in found] == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=200))
def test_ascii_word_split_equals_the_token_pattern(text: str) -> None:
    import re
    import zlib

    from memlint.similarity import TOKEN, word_hashes

    expected = [zlib.crc32(w.encode()) for w in re.findall(TOKEN, text.casefold())]
    assert word_hashes(text) == expected


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1), max_size=300))
def test_signature_keeps_the_smallest_value_per_bucket(hashes: set[int]) -> None:
    from memlint.similarity import EMPTY, SIGNATURE_SIZE, signature, unpack

    expected = [EMPTY] * SIGNATURE_SIZE
    for value in hashes:
        bucket, rest = value % SIGNATURE_SIZE, value >> 6
        expected[bucket] = min(expected[bucket], rest)
    assert list(unpack(signature(hashes))) == expected
