"""Word 3-gram fingerprints of memories, for near-duplicate detection (DU001).

A fingerprint is ``(shingle count, MinHash signature)``: computed once per
file at load time (in the process pool for large stores, and kept in the
result cache), so the cross-file rule only compares compact signatures.
Hashing is CRC-32 based, hence identical in every process and run.
"""

from __future__ import annotations

import re
import struct
import zlib

SIGNATURE_SIZE = 64
EMPTY = (1 << 64) - 1
MASK64 = (1 << 64) - 1
MIX_A, MIX_B, MIX_C = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
CJK = r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
TOKEN = re.compile(rf"[{CJK}]|[^\W{CJK}]+")

SIGNATURE_FORMAT = struct.Struct(f"<{SIGNATURE_SIZE}Q")
VALUE_BYTES = 8

Fingerprint = tuple[int, bytes]


def shingles(text: str) -> set[int]:
    """64-bit hashes of the word 3-grams of ``text`` (casefolded; CJK characters are words).

    Each word is hashed once (CRC-32); a 3-gram's hash mixes its three word
    hashes with odd 64-bit multipliers.
    """
    ids = list(map(zlib.crc32, map(str.encode, TOKEN.findall(text.casefold()))))
    return {
        ((a * MIX_A) ^ (b * MIX_B) ^ (c * MIX_C)) & MASK64
        for a, b, c in zip(ids, ids[1:], ids[2:], strict=False)
    }


def signature(hashes: set[int]) -> bytes:
    """One-permutation MinHash: the smallest hash in each of the buckets, packed as
    64-bit little-endian values (512 bytes, where a tuple of ints would take 2.5 KB)."""
    sig = [EMPTY] * SIGNATURE_SIZE
    for value in hashes:
        bucket = value % SIGNATURE_SIZE
        rest = value >> 6
        if rest < sig[bucket]:
            sig[bucket] = rest
    return SIGNATURE_FORMAT.pack(*sig)


def unpack(signature: bytes) -> tuple[int, ...]:
    return SIGNATURE_FORMAT.unpack(signature)


def fingerprint(text: str) -> Fingerprint:
    hashes = shingles(text)
    return len(hashes), signature(hashes)
