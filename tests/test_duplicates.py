"""DU001 at scale: near-linear candidate search, exact verification."""

from __future__ import annotations

import random
import time

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.similarity import near_duplicates

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


def _expected_signature(hashes: set[int]) -> list[int]:
    """Each bucket's smallest hash, as its bits 8 to 39, never ``EMPTY``."""
    from memlint.similarity import EMPTY, SIGNATURE_SIZE

    smallest: list[int | None] = [None] * SIGNATURE_SIZE
    for value in hashes:
        bucket = value % SIGNATURE_SIZE
        if smallest[bucket] is None or value < smallest[bucket]:
            smallest[bucket] = value
    return [EMPTY if v is None else min((v >> 8) & 0xFFFFFFFF, EMPTY - 1) for v in smallest]


# Hashes whose kept bits (8 to 39) are all ones or half ones: the empty marker's bytes.
MARKER_LIKE = st.builds(
    lambda high, ones, low: (high << 40 | ones << 8 | low) - (1 << 63),
    st.integers(0, (1 << 23) - 1),
    st.sampled_from([0xFFFFFFFF, 0xFFFF0000, 0x0000FFFF, 0xFFFFFF00, 0x00FFFFFF]),
    st.integers(0, 255),
)


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1) | MARKER_LIKE, max_size=300)
)
def test_signature_keeps_the_smallest_value_per_bucket(hashes: set[int]) -> None:
    from memlint.similarity import SIGNATURE_SIZE, VALUE_BYTES, signature, unpack

    packed = signature(hashes)
    assert len(packed) == SIGNATURE_SIZE * VALUE_BYTES == 256
    assert list(unpack(packed)) == _expected_signature(hashes)


def test_a_real_value_never_reads_as_an_empty_bucket() -> None:
    """A minimum whose kept bits are all ones is stored as EMPTY - 1, so the
    signature's count of EMPTY is its count of empty buckets (DU001 relies on it)."""
    from memlint.similarity import EMPTY, SIGNATURE_SIZE, signature, unpack

    ones = (0xFFFFFFFF << 8) | 5  # bucket 5, kept bits all ones
    straddle = [(0xFFFF0000 << 8) | 6, (0x0000FFFF << 8) | 7]  # EMPTY's bytes across buckets 6-7
    values = unpack(signature({ones, *straddle, 1 << 8 | 9}))
    assert values[5] == EMPTY - 1
    assert values[6:8] == (0xFFFF0000, 0x0000FFFF)
    assert values[9] == 1
    assert values.count(EMPTY) == SIGNATURE_SIZE - 4
    assert signature(set()) == b"\xff" * 256


def test_bands_cover_the_signature_and_the_empty_band_is_all_empty_buckets() -> None:
    from memlint.similarity import (
        BAND_BYTES,
        BAND_ROWS,
        EMPTY_BAND,
        SIGNATURE_SIZE,
        VALUE_BYTES,
        signature,
    )

    empty = signature(set())
    assert BAND_BYTES == BAND_ROWS * VALUE_BYTES and len(empty) == SIGNATURE_SIZE * VALUE_BYTES
    assert empty[:BAND_BYTES] == EMPTY_BAND
    ones = signature({(0xFFFFFFFF << 8) | bucket for bucket in range(BAND_ROWS)})
    assert ones[:BAND_BYTES] != EMPTY_BAND


def test_candidate_pairs_do_not_depend_on_how_they_are_parted(monkeypatch) -> None:
    """Parts of one first member each (32-bit offsets at their smallest) or one
    part for all: the same sorted pairs."""
    from memlint import similarity
    from memlint.similarity import fingerprint

    rng = random.Random(3)
    texts = [" ".join(rng.choice(WORDS[:40]) for _ in range(30)) for _ in range(150)]
    texts += [text + " extra words here" for text in texts[:50]]
    rng.shuffle(texts)
    signatures = [fingerprint(text)[1] for text in texts]
    expected = similarity.candidate_pairs(signatures)
    assert len(expected) >= 50 and expected == sorted(set(expected))
    monkeypatch.setattr(similarity, "PAIR_VALUES", len(signatures))  # span 1: one part per member
    assert similarity.candidate_pairs(signatures) == expected
    monkeypatch.setattr(similarity, "PAIR_VALUES", 1 << 32)
    monkeypatch.setattr(similarity, "PAIR_PARTS", 1)
    assert similarity.candidate_pairs(signatures) == expected


def test_pairs_ending_at_some_members_are_those_of_all_pairs() -> None:
    """A run that reports on a few memories gets exactly the candidate pairs whose second
    member it reports on: clusters larger than the neighbour window, empty bands."""
    from memlint import similarity
    from memlint.similarity import fingerprint

    rng = random.Random(5)
    texts = [" ".join(rng.choice(WORDS[:40]) for _ in range(30)) for _ in range(120)]
    texts += [text + " extra words here" for text in texts[:40]]
    texts += ["the same long memory text about running tests before every push"] * 12
    texts += ["two words", "", "a b c"]  # empty buckets
    rng.shuffle(texts)
    signatures = [fingerprint(text)[1] for text in texts]
    every = similarity.candidate_pairs(signatures)
    assert len(every) >= 50
    for size in (1, 3, 20, len(texts)):
        for _ in range(5):
            seconds = set(rng.sample(range(len(texts)), size))
            expected = [pair for pair in every if pair[1] in seconds]
            assert similarity.pairs_ending_at(signatures, seconds) == expected
    members = {b for _, b in every}
    assert similarity.pairs_ending_at(signatures, members) == every


def test_pairs_ending_at_a_few_members_found_by_search() -> None:
    """A few seconds' windows are found searching back through a band's first values
    (``_pairs_searched``), more of them in their buckets gathered: signatures drawn from a
    few 4-byte values, so that a band's first value matches where the band does not,
    across bands, or off the values' boundaries, and buckets outgrow the windows."""
    from memlint import similarity
    from memlint.similarity import EMPTY_VALUE, SIGNATURE_SIZE

    rng = random.Random(9)
    values = [EMPTY_VALUE, b"\x01\x01\x01\x01", b"\x01\x01\x02\x02", b"\x02\x02\x01\x01"]
    for _ in range(200):
        signatures = [
            b"".join(rng.choice(values[: rng.randint(2, 4)]) for _ in range(SIGNATURE_SIZE))
            for _ in range(rng.randint(2, 40))
        ]
        every = similarity.candidate_pairs(signatures)
        few = rng.randint(1, min(similarity.FEW_SEARCHED, len(signatures)))
        for size in (few, rng.randint(few, len(signatures))):  # searched, then grouped
            seconds = set(rng.sample(range(len(signatures)), size))
            expected = [pair for pair in every if pair[1] in seconds]
            assert similarity.pairs_ending_at(signatures, seconds) == expected


def test_near_duplicates_ending_at_some_texts_are_those_of_all_texts() -> None:
    """Few wanted (pairs gathered by second member) or many (all pairs, filtered)."""
    rng = random.Random(9)
    texts = [" ".join(rng.choice(WORDS) for _ in range(60)) for _ in range(400)]
    for index in range(0, 400, 5):
        texts[index + 1] = texts[index] + " one more"
    every = near_duplicates(texts, 0.8, 8)
    assert len(every) >= 70
    for seconds in ({1, 6, 11}, set(range(1, 400, 2))):
        wanted = [found for found in every if found[1] in seconds]
        assert wanted and near_duplicates(texts, 0.8, 8, seconds=seconds) == wanted


def _reference_near_duplicates(texts, threshold, min_shingles):
    """Every candidate pair's estimate, then its exact Jaccard similarity: no size
    filter, a signature for every text."""
    from memlint.similarity import (
        EMPTY,
        ESTIMATE_MARGIN,
        candidate_pairs,
        estimated_jaccard,
        fingerprint,
        shingles,
        unpack,
    )

    prints = [fingerprint(text) for text in texts]
    usable = [i for i, (count, _) in enumerate(prints) if count >= min_shingles]
    sigs = [prints[i][1] for i in usable]
    found = []
    for a, b in candidate_pairs(sigs):
        one, other = unpack(sigs[a]), unpack(sigs[b])
        estimate = estimated_jaccard(one, other, one.count(EMPTY), other.count(EMPTY))
        if estimate < threshold - ESTIMATE_MARGIN:
            continue
        first, second = shingles(texts[usable[a]]), shingles(texts[usable[b]])
        jaccard = len(first & second) / len(first | second)
        if jaccard >= threshold:
            found.append((usable[a], usable[b], jaccard))
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(WORDS[:12]), max_size=16), min_size=2, max_size=40),
    st.sampled_from([0.0, 0.3, 0.5, 0.8, 0.875, 1.0]),
    st.integers(min_value=1, max_value=10),
)
@example([WORDS[:12], WORDS[:10]], 0.8, 8)  # 8 of 10 shingles shared: exactly the threshold
def test_near_duplicates_are_those_of_every_candidate_verified(
    texts: list[list[str]], threshold: float, min_shingles: int
) -> None:
    """The size filter (a pair of 8 and 10 shingles is at most 0.8 similar), the short
    texts' missing signatures and the shared unpacking change no pair found."""
    joined = [" ".join(words) for words in texts]
    expected = _reference_near_duplicates(joined, threshold, min_shingles)
    if texts == [WORDS[:12], WORDS[:10]]:
        assert expected == [(0, 1, 0.8)]
    assert near_duplicates(joined, threshold, min_shingles) == expected
