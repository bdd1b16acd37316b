"""Word 3-gram fingerprints of memories, for near-duplicate detection (DU001).

A fingerprint is ``(shingle count, MinHash signature)``: computed once per
file at load time (in the process pool for large stores, and kept in the
result cache), so the cross-file rule only compares compact signatures.
Words are hashed with CRC-32 and 3-grams with the hash of a tuple of ints,
which (unlike a string's hash) is not salted: identical in every process
and run of one Python version (the cache key includes it).

``near_duplicates`` finds the pairs of texts at or above a Jaccard similarity:
candidates from LSH bands of the signatures, each verified exactly.
"""

from __future__ import annotations

import re
import struct
import zlib
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import compress, groupby, repeat
from operator import eq, itemgetter

SIGNATURE_SIZE = 64
ABOVE_ALL = 1 << 63  # above every 64-bit hash
EMPTY = 0xFFFFFFFF  # an empty bucket; no bucket's value is this (see ``signature``)
CJK = r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
TOKEN = rf"[{CJK}]|[^\W{CJK}]+"  # compiled (by re's cache) on first non-ASCII text: 6 ms
ASCII_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")  # \w, lower-cased ASCII
# Every other byte becomes a space, so that ``split()`` yields TOKEN's words of ASCII text.
ASCII_WORDS_ONLY = bytes(byte if byte in ASCII_WORD_BYTES else 32 for byte in range(256))

SIGNATURE_FORMAT = struct.Struct(f"<{SIGNATURE_SIZE}I")
VALUE_BYTES = 4
EMPTY_VALUE = EMPTY.to_bytes(VALUE_BYTES, "little")
HASHES_FORMAT = struct.Struct(f"<{SIGNATURE_SIZE}q")
UINT32 = next(code for code in "IL" if array(code).itemsize == 4)  # array's native 4-byte type

Fingerprint = tuple[int, bytes]


def word_hashes(text: str) -> list[int]:
    """CRC-32 of each word of ``text`` (casefolded; CJK characters are words)."""
    if text.isascii():  # the same words, found 2x faster on bytes
        words = text.encode("ascii").lower().translate(ASCII_WORDS_ONLY).split()
        return list(map(zlib.crc32, words))
    return list(map(zlib.crc32, map(str.encode, re.findall(TOKEN, text.casefold()))))


def shingles(text: str) -> set[int]:
    """64-bit hashes of the word 3-grams of ``text``."""
    ids = word_hashes(text)
    return set(map(hash, zip(ids, ids[1:], ids[2:], strict=False)))


def signature(hashes: set[int]) -> bytes:
    """One-permutation MinHash: for each of the 64 buckets (a hash's low 6 bits)
    the smallest hash in it, kept as its bits 8 to 39 and packed as 32-bit
    little-endian values (256 bytes). Equal minima give equal values; the top
    bits decide the minimum, so the kept bits are uniform and two different
    minima match with probability 2**-32. A value equal to ``EMPTY`` is stored
    as ``EMPTY - 1``. The minima are found in one pass (sorting the 64-bit hashes
    cost twice as much); the 64-bit packing is then cut to bytes 1 to 4 (bits 8
    to 39) of each value.
    """
    lowest: dict[int, int] = {}
    least = lowest.get
    for value in hashes:
        bucket = value & (SIGNATURE_SIZE - 1)
        if value < least(bucket, ABOVE_ALL):
            lowest[bucket] = value
    wide = HASHES_FORMAT.pack(*map(lowest.get, range(SIGNATURE_SIZE), repeat(-1)))
    packed = array(UINT32, wide[1:-3])[::2].tobytes()  # bytes 8k+1 .. 8k+4, for each k
    # every empty bucket holds EMPTY; more (or misaligned) runs of EMPTY mean a value to move
    if packed.count(EMPTY_VALUE) != SIGNATURE_SIZE - len(lowest):
        lowest = {bucket: min((value >> 8) & EMPTY, EMPTY - 1) for bucket, value in lowest.items()}
        packed = SIGNATURE_FORMAT.pack(*map(lowest.get, range(SIGNATURE_SIZE), repeat(EMPTY)))
    return packed


def unpack(signature: bytes) -> tuple[int, ...]:
    return SIGNATURE_FORMAT.unpack(signature)


def fingerprint(text: str, min_shingles: int = 0) -> Fingerprint:
    """``(shingle count, signature)``; the signature is empty below ``min_shingles``
    (such a text is never compared)."""
    hashes = shingles(text)
    return len(hashes), signature(hashes) if len(hashes) >= min_shingles else b""


# Candidate pairs: LSH bands of the signatures, then the exact Jaccard similarity.
BAND_ROWS = 4
BAND_BYTES = BAND_ROWS * VALUE_BYTES
EMPTY_BAND = EMPTY.to_bytes(VALUE_BYTES, "little") * BAND_ROWS
NEIGHBOURS = 4
MIN_SHARED_BANDS = 2
ESTIMATE_MARGIN = 0.2
PAIR_PARTS = 64
PAIR_VALUES = 1 << 32  # a part's pairs must be below this
FEW_SECONDS = 16  # pairs are gathered by second member for at most one memory in this many


def estimated_jaccard(
    first: tuple[int, ...], second: tuple[int, ...], empty_first: int, empty_second: int
) -> float:
    """The share of buckets filled in both signatures that hold the same minimum
    (buckets empty in one signature count as empty in both: a lower bound);
    ``empty_*`` are the signatures' counts of empty buckets."""
    filled = SIGNATURE_SIZE - max(empty_first, empty_second)
    if filled <= 0:
        return 0.0
    return (sum(map(eq, first, second)) - min(empty_first, empty_second)) / filled


def candidate_pairs(signatures: list[bytes]) -> list[tuple[int, int]]:
    """The pairs (sorted) that share at least ``MIN_SHARED_BANDS`` whole LSH bands.

    Each bucket pairs a member with its next few members only, so a large
    cluster costs linear, not quadratic, work. Requiring two of the sixteen
    bands drops the pairs that share one template-made band by chance, and
    keeps a pair at Jaccard 0.8 with probability 0.997 (0.9999 at 0.85).

    Nearly every pair is met in one band only (about a million of them in a
    store of 100,000 memories), so they are filed by first member in about
    ``PAIR_PARTS`` arrays of 32-bit values and counted one array at a time:
    13 MiB at that size, where a list of them and one ``Counter`` took 115 MB.
    """
    count = len(signatures)
    # a part holds the pairs of `span` first members: (first, second) as the
    # 32-bit value (first - part's first member) * count + second
    span = max(1, min(-(-count // PAIR_PARTS), PAIR_VALUES // max(count, 1)))
    parts = [array(UINT32) for _ in range(0, count, span)]
    for band in range(0, SIGNATURE_SIZE * VALUE_BYTES, BAND_BYTES):
        first_of: dict[bytes, int] = {}  # band value -> its first member
        shared: dict[int, list[int]] = {}  # first member -> all members, for shared values only
        claim = first_of.setdefault
        keys: Iterator[bytes] = map(itemgetter(slice(band, band + BAND_BYTES)), signatures)
        for index, key in enumerate(keys):
            first = claim(key, index)
            if first != index:
                members = shared.get(first)
                if members is None:
                    shared[first] = [first, index]
                else:
                    members.append(index)
        shared.pop(first_of.get(EMPTY_BAND, -1), None)
        del first_of, claim  # freed before the pairs grow
        for members in shared.values():
            for position, first in enumerate(members):
                part, offset = divmod(first, span)
                base = offset * count
                parts[part].extend(
                    [base + s for s in members[position + 1 : position + 1 + NEIGHBOURS]]
                )
    found: list[tuple[int, int]] = []
    parts.reverse()  # popped from the first: each part is freed once counted
    for start in range(0, count, span):
        counted = Counter(parts.pop())
        repeated = sorted(p for p, bands in counted.items() if bands >= MIN_SHARED_BANDS)
        del counted
        pairs_of_part = map(divmod, repeated, repeat(count))
        found.extend((start + offset, second) for offset, second in pairs_of_part)
    return found


def pairs_ending_at(signatures: list[bytes], seconds: set[int]) -> list[tuple[int, int]]:
    """The pairs of ``candidate_pairs`` whose second member is in ``seconds`` (a run
    that reports on a few memories, as pre-commit does, needs only those: a finding
    is reported on the pair's second memory). Only the buckets of those members are
    gathered (the members holding one of their values found in C-level passes, then
    grouped), each second's window found by bisection, so the pairs are the same."""
    if len(seconds) <= FEW_SEARCHED:
        return _pairs_searched(signatures, seconds)
    counted: Counter = Counter()
    positions = range(len(signatures))
    for band in range(0, SIGNATURE_SIZE * VALUE_BYTES, BAND_BYTES):
        keys = list(map(itemgetter(slice(band, band + BAND_BYTES)), signatures))
        key_of = keys.__getitem__
        wanted = set(map(key_of, seconds))
        wanted.discard(EMPTY_BAND)
        if not wanted:
            continue
        members = sorted(compress(positions, map(wanted.__contains__, keys)), key=key_of)
        buckets = {key: list(group) for key, group in groupby(members, key_of)}  # in order
        for second in seconds:
            bucket = buckets.get(keys[second])
            if bucket is not None and bucket[0] != second:  # (first in its bucket: no pair)
                at = bisect_left(bucket, second)
                counted.update(zip(bucket[max(0, at - NEIGHBOURS) : at], repeat(second)))
    return sorted(pair for pair, bands in counted.items() if bands >= MIN_SHARED_BANDS)


FEW_SEARCHED = 8  # up to this many seconds, each one's window is found by a byte search


def _pairs_searched(signatures: list[bytes], seconds: set[int]) -> list[tuple[int, int]]:
    """``pairs_ending_at`` for a few ``seconds`` (pre-commit names one memory): in each
    band, the ``NEIGHBOURS`` members before a second that hold its band value are found
    searching back from it through the band's column (every member's value of the band,
    one after the other: a hit is a whole band value, or off the values' boundaries and
    passed over), instead of gathering the buckets of every member (buckets of a shared
    template band hold thousands)."""
    counted: Counter = Counter()
    count = len(signatures)
    joined = b"".join(signatures)
    values = memoryview(joined).cast(UINT32)  # type: ignore[call-overload]  # ("I" or "L")
    column = bytearray(len(joined))  # the bands one after the other, C-level strided copies
    columns = memoryview(column).cast(UINT32)  # type: ignore[call-overload]
    for at in range(SIGNATURE_SIZE):
        band, row = divmod(at, BAND_ROWS)
        start = band * count * BAND_ROWS + row
        columns[start : start + count * BAND_ROWS : BAND_ROWS] = values[at::SIGNATURE_SIZE]
    for band in range(0, SIGNATURE_SIZE * VALUE_BYTES, BAND_BYTES):
        cut = slice(band, band + BAND_BYTES)
        base = band * count  # where the band's column starts
        for second in seconds:
            key = signatures[second][cut]
            if key == EMPTY_BAND:
                continue
            end, firsts = base + second * BAND_BYTES, 0
            while firsts < NEIGHBOURS:
                hit = column.rfind(key, base, end)
                if hit == -1:
                    break
                end = hit + BAND_BYTES - 1  # the next hit starts before this one
                first, off = divmod(hit - base, BAND_BYTES)
                if off == 0:
                    counted[first, second] += 1
                    firsts += 1
    return sorted(pair for pair, bands in counted.items() if bands >= MIN_SHARED_BANDS)


def band_partners(signatures: list[bytes], index: int) -> set[int]:
    """The members sharing at least ``MIN_SHARED_BANDS`` whole LSH bands with member
    ``index``: every candidate pair that holds ``index`` is among them."""
    counted: Counter = Counter()
    members = range(len(signatures))
    for band in range(0, SIGNATURE_SIZE * VALUE_BYTES, BAND_BYTES):
        cut = slice(band, band + BAND_BYTES)
        key = signatures[index][cut]
        if key != EMPTY_BAND:
            keys = map(itemgetter(cut), signatures)
            counted.update(compress(members, map(eq, keys, repeat(key))))
    counted.pop(index, None)
    return {other for other, bands in counted.items() if bands >= MIN_SHARED_BANDS}


def near_duplicates(
    texts: Sequence[str],
    threshold: float,
    min_shingles: int,
    fingerprints: list[Fingerprint] | None = None,
    seconds: set[int] | None = None,
):
    """``(i, j, jaccard)`` for each pair of ``texts`` at or above ``threshold``, only
    those with ``j`` in ``seconds`` when given.

    Candidates come from the texts' fingerprints (computed here when not given);
    a candidate whose estimated similarity is within ``ESTIMATE_MARGIN`` of the
    threshold is verified with the exact Jaccard similarity of the shingle sets.
    """
    if fingerprints is None:
        fingerprints = [fingerprint(text, min_shingles) for text in texts]
    usable = array("q", (i for i, (count, _) in enumerate(fingerprints) if count >= min_shingles))
    sigs = [fingerprints[i][1] for i in usable]
    wanted = None if seconds is None else {a for a, i in enumerate(usable) if i in seconds}
    if wanted is not None and len(wanted) * FEW_SECONDS <= len(sigs):
        pairs = pairs_ending_at(sigs, wanted)  # its counter grows with the members wanted
    else:
        pairs = candidate_pairs(sigs)
        if wanted is not None:
            pairs = [pair for pair in pairs if pair[1] in wanted]
    exact: dict[int, set[int]] = {}
    unpacked: dict[int, tuple[tuple[int, ...], int]] = {}  # member -> its values, empty count
    found = []
    for a, b in pairs:
        smaller, larger = sorted((fingerprints[usable[a]][0], fingerprints[usable[b]][0]))
        if larger and smaller / larger < threshold:
            continue  # the Jaccard similarity is at most this
        first_sig, empty_first = unpacked.get(a) or unpacked.setdefault(a, _values(sigs[a]))
        second_sig, empty_second = unpacked.get(b) or unpacked.setdefault(b, _values(sigs[b]))
        estimate = estimated_jaccard(first_sig, second_sig, empty_first, empty_second)
        if estimate < threshold - ESTIMATE_MARGIN:
            continue
        first = exact.get(a) or exact.setdefault(a, shingles(texts[usable[a]]))
        second = exact.get(b) or exact.setdefault(b, shingles(texts[usable[b]]))
        shared = len(first & second)
        jaccard = shared / (len(first) + len(second) - shared)
        if jaccard >= threshold:
            found.append((usable[a], usable[b], jaccard))
    return found


def _values(signature: bytes) -> tuple[tuple[int, ...], int]:
    values = unpack(signature)
    return values, values.count(EMPTY)
