"""Word 3-gram fingerprints of memories, for near-duplicate detection (DU001).

A fingerprint is ``(shingle count, MinHash signature)``: computed once per
file at load time (in the process pool for large stores, and kept in the
result cache), so the cross-file rule only compares compact signatures.
Words are hashed with CRC-32 and 3-grams with the hash of a tuple of ints,
which (unlike a string's hash) is not salted: identical in every process
and run of one Python version (the cache key includes it).
"""

from __future__ import annotations

import re
import struct
import zlib
from itertools import repeat
from operator import and_, rshift

SIGNATURE_SIZE = 64
BUCKET_BITS = 6  # log2(SIGNATURE_SIZE)
EMPTY = (1 << 63) - 1
CJK = r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
TOKEN = rf"[{CJK}]|[^\W{CJK}]+"  # compiled (by re's cache) on first non-ASCII text: 6 ms
ASCII_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")  # \w, lower-cased ASCII
# Every other byte becomes a space, so that ``split()`` yields TOKEN's words of ASCII text.
ASCII_WORDS_ONLY = bytes(byte if byte in ASCII_WORD_BYTES else 32 for byte in range(256))

SIGNATURE_FORMAT = struct.Struct(f"<{SIGNATURE_SIZE}q")
VALUE_BYTES = 8

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
    """One-permutation MinHash: the smallest hash in each of the buckets (the low
    bits pick the bucket), packed as 64-bit little-endian values (512 bytes,
    where a tuple of ints would take 2.5 KB). Built by C-level maps: in
    descending order the last value written to a bucket is its smallest."""
    descending = sorted(hashes, reverse=True)
    lowest = dict(
        zip(
            map(and_, descending, repeat(SIGNATURE_SIZE - 1)),
            map(rshift, descending, repeat(BUCKET_BITS)),
            strict=True,
        )
    )
    return SIGNATURE_FORMAT.pack(*map(lowest.get, range(SIGNATURE_SIZE), repeat(EMPTY)))


def unpack(signature: bytes) -> tuple[int, ...]:
    return SIGNATURE_FORMAT.unpack(signature)


def fingerprint(text: str) -> Fingerprint:
    hashes = shingles(text)
    return len(hashes), signature(hashes)
