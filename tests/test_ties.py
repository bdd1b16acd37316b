"""``ties.BandColumns.followers``: every memory whose DU001 candidate pairs an edit changes
is among the edited memories and their followers, checked against
``similarity.candidate_pairs`` on random signatures drawn from a few values per band
(large buckets, where the neighbour windows matter), with the columns holding the
state after the edit (as ``engine`` builds them) or before it (as the server does)."""

from __future__ import annotations

import random

import pytest

from memlint.similarity import BAND_BYTES, SIGNATURE_SIZE, VALUE_BYTES, candidate_pairs
from memlint.ties import BandColumns, near_followers

BANDS = SIGNATURE_SIZE * VALUE_BYTES // BAND_BYTES
MINIMUM = 8


class Fingerprinted:
    """What ``BandColumns`` reads of a memory."""

    def __init__(self, count: int, signature: bytes) -> None:
        self.fingerprint = (count, signature)


def random_member(rng: random.Random) -> Fingerprinted:
    bands = [bytes([rng.randrange(3)]) * BAND_BYTES for _ in range(BANDS)]
    return Fingerprinted(rng.choice([3, 20, 20, 20]), b"".join(bands))


def partners(members: list[Fingerprinted]) -> dict[int, set[int]]:
    """Each member's candidate partners before it, as DU001 finds them (only members with
    enough shingles are compared)."""
    usable = [i for i, m in enumerate(members) if m.fingerprint[0] >= MINIMUM]
    found: dict[int, set[int]] = {i: set() for i in range(len(members))}
    for first, second in candidate_pairs([members[i].fingerprint[1] for i in usable]):
        found[usable[second]].add(usable[first])
    return found


@pytest.mark.parametrize("columns_after", [True, False])
def test_followers_hold_every_member_whose_pairs_an_edit_changes(columns_after: bool) -> None:
    rng = random.Random(7)
    for _ in range(300):
        before = [random_member(rng) for _ in range(rng.randint(2, 40))]
        edited = set(rng.sample(range(len(before)), k=rng.randint(1, min(3, len(before)))))
        after = [random_member(rng) if i in edited else m for i, m in enumerate(before)]
        then, now = partners(before), partners(after)
        changed = {
            z
            for z in range(len(before))
            if then[z] != now[z] or (then[z] | now[z]) & edited  # an edited text re-verified
        }
        bands = BandColumns(after if columns_after else before, MINIMUM)
        tied = set(edited)
        for at in sorted(edited):
            tied |= bands.followers(at, before[at], edited) | bands.followers(at, after[at], edited)
            if not columns_after:
                bands.put(at, after[at])
        assert changed <= tied, (changed - tied, edited)


def changed_members(before, after, edited: set[int]) -> set[int]:
    """The members whose DU001 findings may differ: another set of candidate partners,
    or an edited partner (its text is verified again)."""
    then, now = partners(before), partners(after)
    return {z for z in range(len(before)) if then[z] != now[z] or (then[z] | now[z]) & edited}


def test_near_followers_hold_every_member_whose_pairs_an_edit_changes() -> None:
    """``near_followers`` (one pass per band, as ``engine`` asks once a run) finds every
    member whose pairs change, among those ``BandColumns.followers`` finds; and fewer of
    them where an edit leaves most bands as they were (as most edits do)."""
    rng = random.Random(11)
    fewer = 0
    for _ in range(300):
        before = [random_member(rng) for _ in range(rng.randint(2, 40))]
        edited = set(rng.sample(range(len(before)), k=rng.randint(1, min(4, len(before)))))
        after = list(before)
        for at in edited:
            kept = before[at].fingerprint[1]
            bands = [kept[i : i + BAND_BYTES] for i in range(0, len(kept), BAND_BYTES)]
            for band in rng.sample(range(BANDS), k=rng.choice([0, 1, 2, BANDS])):
                bands[band] = bytes([rng.randrange(3)]) * BAND_BYTES
            after[at] = Fingerprinted(rng.choice([3, 20, 20, 20]), b"".join(bands))
        columns = BandColumns(after, MINIMUM)
        widest: set[int] = set()
        for at in edited:
            widest |= columns.followers(at, before[at], edited)
            widest |= columns.followers(at, after[at], edited)
        edits = [(at, before[at], after[at]) for at in sorted(edited)]
        found = near_followers(after, MINIMUM, edits)  # type: ignore[arg-type]
        assert changed_members(before, after, edited) <= found | edited, edited
        assert found <= widest
        fewer += len(found) < len(widest)
    assert fewer > 10
