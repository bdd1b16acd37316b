"""PV006 grouped digits and timestamp plausibility, PV008 IBANs, PV009 international phone
numbers: must-flag and must-not-flag sets built at run time (check digits computed here,
so no real number sits in the repository), in memories, note facts and tags, and every
string of a JSONL file of another schema."""

from __future__ import annotations

import json
import random

import pytest

from memlint import privacy
from memlint.diagnostics import Severity
from tests.helpers import lint_files

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Country, account part shape ("n" digit, "a" upper-case letter, "c" either).
IBAN_SHAPES = [
    ("DE", "n" * 18), ("GB", "aaaa" + "n" * 14), ("FR", "n" * 10 + "c" * 11 + "nn"),
    ("NL", "aaaa" + "n" * 10), ("ES", "n" * 20), ("IT", "a" + "n" * 10 + "c" * 12),
    ("BE", "n" * 12), ("CH", "n" * 5 + "c" * 12), ("NO", "n" * 11),
    ("MT", "aaaa" + "n" * 5 + "c" * 18), ("PL", "n" * 24), ("SE", "n" * 20),
    ("AT", "n" * 16), ("IE", "aaaa" + "n" * 14),
]  # fmt: skip


def _random(shape: str, rng: random.Random) -> str:
    pools = {"n": DIGITS, "a": LETTERS, "c": DIGITS + LETTERS}
    return "".join(rng.choice(pools[kind]) for kind in shape)


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    remainder = int("".join(str(int(char, 36)) for char in moved)) % 97
    return f"{country}{98 - remainder:02d}{bban}"


def in_fours(value: str) -> str:
    return " ".join(value[i : i + 4] for i in range(0, len(value), 4))


def iban_must_flag() -> list[tuple[str, str]]:
    rng = random.Random(8)
    samples = []
    for country, shape in IBAN_SHAPES:
        number = iban(country, _random(shape, rng))
        samples.append((f"pay to {number} monthly", number))
        samples.append((f"IBAN: {in_fours(number)}.", in_fours(number)))
        samples.append((f'{{"fact":"refund to {in_fours(number)}"}}', in_fours(number)))
        samples.append((f"acct,{number},EUR", number))
    return samples


def iban_must_not_flag() -> list[str]:
    rng = random.Random(9)
    texts = [
        "version DE12.3.4, release 2026-01-02, commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "issue #4242424242 and order 483920175634 shipped",
        "listen on port 8080 at 52.520008, 13.404954; ISBN 978-3-16-148410-0",
        "epoch 1764547200123456, SKU GB00ABCD, DE00 0000 0000",
    ]
    for country, shape in IBAN_SHAPES:
        number = iban(country, _random(shape, rng))
        wrong = number[:2] + f"{(int(number[2:4]) + 1) % 100:02d}" + number[4:]
        texts.append(f"ref {wrong} failed")  # mod-97 fails
        texts.append(f"ref {in_fours(wrong)} failed")
        texts.append(f"ref {number}7 is longer than the country's IBAN")
        texts.append(f"ref {number[:-1]} is shorter")
    return texts


def phone(country: str, groups: list[int], rng: random.Random) -> list[str]:
    """The groups of a random number after ``+country`` (first digit not 0)."""
    parts = ["".join(rng.choice(DIGITS) for _ in range(size)) for size in groups]
    parts[0] = rng.choice("123456789") + parts[0][1:]
    return parts


def phone_must_flag() -> list[tuple[str, str]]:
    rng = random.Random(9)
    samples = []
    for country, groups in (("1", [3, 3, 4]), ("44", [2, 4, 4]), ("49", [3, 8]),
                            ("33", [1, 2, 2, 2, 2]), ("86", [3, 4, 4]), ("61", [1, 4, 4]),
                            ("353", [2, 3, 4]), ("7", [3, 3, 2, 2])):  # fmt: skip
        parts = phone(country, groups, rng)
        for shown in (
            f"+{country} " + " ".join(parts),
            f"+{country}-" + "-".join(parts),
            f"+{country}." + ".".join(parts),
            f"+{country} ({parts[0]}) " + " ".join(parts[1:]),
            f"+{country}" + "".join(parts),
        ):
            samples.append((f"call {shown} after 6", shown))
            samples.append((f'{{"tags":["{shown}"]}}', shown))
    return samples


def phone_must_not_flag() -> list[str]:
    return [
        "scores +100 and +1234567 (7 digits), +1234567890123456 (16 digits)",
        "coordinates +52.520008, +13.404954 and -33.868820",
        "UTC+05:30, GMT+1, 1e+10, C++14, a+12345678",
        "version +1.2.3, 2026-01-02, issue #12345678, port +8080",
        "placeholders +1 555 555 5555, +49 000 0000000, +0 123 456 7890",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b +12 lines",
    ]


def grouped_must_flag() -> list[tuple[str, str]]:
    rng = random.Random(6)
    samples = []
    for shape in ([3, 3, 4], [4, 7], [3, 4, 4], [2, 4, 4], [4, 3, 4], [3, 3, 3, 3]):
        parts = phone("", shape, rng)
        parts[0] = rng.choice("56789") + parts[0][1:]  # 1…: a plausible Unix time
        forms = ["-".join(parts), f"({parts[0]}) " + "-".join(parts[1:])]
        if len(set(shape)) > 1:  # equal groups split by spaces are a list of numbers
            forms.append(" ".join(parts))
        for shown in forms:
            samples.append((f"customer {shown} called", shown))
            samples.append((f"csv;{shown};x", shown))
        joined = "".join(parts)
        samples.append((f"billing,{joined},visa", joined))
    samples.append(("mastercard-like 5555555555554443 (not Luhn)", "5555555555554443"))
    samples.append(("epoch-like 7102444800123456 is past 2100", "7102444800123456"))
    return samples


def grouped_must_not_flag() -> list[str]:
    return [
        "timestamps 1764547200, 1764547200123, 1764547200123456, 1764547200123456789",
        "dates 20260102, 202601021530, 20260102153045, 2026-01-02 and 2026-01-02-1530-2000",
        "ports 8080 8443 9090 3000 and 3000, 8080, 9090",
        "years 2019 2020 2021 and 2019-2020-2021",
        "population 12 345 678 901 and 1,234,567,890 and ratio 0,4839201756",
        "ISBN 978-3-16-148410-0, 9783161484100, ISBN 0306406152",
        "issue #4839201756, PR #1234 567 890, v4839201756, build-4839201756",
        "hash 3f786850e387550fdab836ed7e6dc881de23001b, uuid 123e4567-e89b-12d3-a456-426614174000",
        "coordinates 52.5200066, 13.4049540 and decimal 0.48392017563",
        "lists 10 20 30 40 50 60, 100 200 300 400",
        "phone +1 415 555 2671 is PV009's",
    ]


def _values(detect, text):
    return [finding.value(text) for finding in detect(text)]


@pytest.mark.parametrize(
    ("detect", "samples"),
    [
        (privacy.find_ibans, iban_must_flag),
        (privacy.find_phones, phone_must_flag),
        (privacy.find_numeric_ids, grouped_must_flag),
    ],
    ids=["iban", "phone", "grouped"],
)
def test_recall_is_complete(detect, samples):
    cases = samples()
    missed = [(text, shown) for text, shown in cases if _values(detect, text) != [shown]]
    assert len(cases) >= 20
    assert missed == []


@pytest.mark.parametrize(
    ("detect", "texts"),
    [
        (privacy.find_ibans, iban_must_not_flag),
        (privacy.find_phones, phone_must_not_flag),
        (privacy.find_numeric_ids, grouped_must_not_flag),
    ],
    ids=["iban", "phone", "grouped"],
)
def test_no_false_hits(detect, texts):
    hits = {text: _values(detect, text) for text in texts()}
    assert {text: found for text, found in hits.items() if found} == {}


@pytest.mark.parametrize(
    "digits",
    ["1764547200123456", "946684800000000", "4102444799999999", "1764547200123456789"],
)
def test_microsecond_and_nanosecond_epochs_between_2000_and_2100_are_timestamps(digits):
    assert privacy.find_numeric_ids(f"at {digits} the job ran") == []


def test_snippets_mask_the_new_identifiers():
    rng = random.Random(3)
    number = in_fours(iban("DE", _random("n" * 18, rng)))
    text = f"pay {number}, call +44 20 7946 0958, customer 415-555-2671"
    masked = privacy.mask_text(text)
    assert number[5:-5] not in masked and "7946" not in masked and "555-" not in masked
    assert len(masked) == len(text)


MEMORY = "---\nname: pay\ndescription: pay\nmetadata:\n  type: user\n---\n"


def _store(body: str, **extra) -> dict:
    return {"MEMORY.md": "- [Pay](pay.md) — pay\n", "pay.md": MEMORY + body, **extra}


def test_memories_get_an_error_for_an_iban_and_a_warning_for_a_phone(tmp_path):
    number = iban("GB", _random("aaaa" + "n" * 14, random.Random(4)))
    files = _store(f"Salary to {in_fours(number)}; ring +44 20 7946 0958.\n")
    found = lint_files(tmp_path, files, select=["PV008", "PV009"])
    assert [(d.code, d.severity) for d in found] == [
        ("PV008", Severity.ERROR),
        ("PV009", Severity.WARNING),
    ]
    assert found[0].message.endswith(f"`{number[:4]}…{in_fours(number)[-4:]}`")
    assert found[1].message.endswith("`+44…0958`")
    assert all(d.fix is not None and d.fix.edits[0].content == "[REDACTED]" for d in found)


def test_note_facts_and_tags_are_errors_without_a_fix(tmp_path):
    number = iban("DE", _random("n" * 18, random.Random(5)))
    note = {"time": "2026-01-02T03:04:05Z", "project": "shop"}
    note["fact"] = f"Refunds go to {in_fours(number)}."
    note["tags"] = ["+1 (415) 555-2671", "contact 415-555-2672"]
    files = {"notes.jsonl": json.dumps(note) + "\n"}
    found = lint_files(
        tmp_path, files, select=["PV006", "PV008", "PV009"], config={"notes": ["notes.jsonl"]}
    )
    assert sorted((d.code, d.severity, d.fix) for d in found) == [
        ("PV006", Severity.WARNING, None),
        ("PV008", Severity.ERROR, None),
        ("PV009", Severity.ERROR, None),
    ]
    assert all("append-only" in d.message for d in found)


def test_every_string_of_another_jsonl_schema_is_checked(tmp_path):
    number = iban("FR", _random("n" * 10 + "c" * 11 + "nn", random.Random(6)))
    record = {"event": "signup", "user": {"phones": ["+33 6 12 34 56 78"], "bank": number}}
    files = _store("Nothing here.\n", **{"events.jsonl": json.dumps(record) + "\n"})
    found = lint_files(tmp_path, files, select=["PV008", "PV009"])
    assert sorted((d.code, d.display_path) for d in found) == [
        ("PV008", "events.jsonl"),
        ("PV009", "events.jsonl"),
    ]


def test_a_configured_severity_applies_to_notes_too(tmp_path):
    note = {"time": "2026-01-02T03:04:05Z", "project": "shop", "fact": "Ring +44 20 7946 0958."}
    config = {"notes": ["notes.jsonl"], "severity": {"PV009": "info"}}
    found = lint_files(
        tmp_path, {"notes.jsonl": json.dumps(note) + "\n"}, select=["PV009"], config=config
    )
    assert [(d.code, d.severity) for d in found] == [("PV009", Severity.INFO)]
