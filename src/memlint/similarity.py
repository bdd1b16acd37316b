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
from array import array
from itertools import repeat
from operator import and_

SIGNATURE_SIZE = 64
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
    as ``EMPTY - 1``. Built by C-level maps: in descending order the last hash
    written to a bucket is its smallest; the 64-bit packing is then cut to
    bytes 1 to 4 (bits 8 to 39) of each value.
    """
    descending = sorted(hashes, reverse=True)
    lowest = dict(zip(map(and_, descending, repeat(SIGNATURE_SIZE - 1)), descending, strict=True))
    wide = HASHES_FORMAT.pack(*map(lowest.get, range(SIGNATURE_SIZE), repeat(-1)))
    packed = array(UINT32, wide[1:-3])[::2].tobytes()  # bytes 8k+1 .. 8k+4, for each k
    # every empty bucket holds EMPTY; more (or misaligned) runs of EMPTY mean a value to move
    if packed.count(EMPTY_VALUE) != SIGNATURE_SIZE - len(lowest):
        lowest = {bucket: min((value >> 8) & EMPTY, EMPTY - 1) for bucket, value in lowest.items()}
        packed = SIGNATURE_FORMAT.pack(*map(lowest.get, range(SIGNATURE_SIZE), repeat(EMPTY)))
    return packed


def unpack(signature: bytes) -> tuple[int, ...]:
    return SIGNATURE_FORMAT.unpack(signature)


def fingerprint(text: str) -> Fingerprint:
    hashes = shingles(text)
    return len(hashes), signature(hashes)
