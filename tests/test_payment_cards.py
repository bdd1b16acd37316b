"""PV007 payment cards: must-flag and must-not-flag sets (numbers built at run time, so
no real card sits in the repository), masking, allowlist, JSONL notes; PV006 placeholders."""

from __future__ import annotations

import json
import random

import pytest

from memlint import privacy
from memlint.diagnostics import Severity
from tests.helpers import lint_files

ERROR = Severity.ERROR
# (issuer prefix, length) for every issuer family the rule knows.
ISSUERS = [
    ("4", 16), ("4", 13), ("4", 19), ("51", 16), ("55", 16), ("2221", 16), ("2720", 16),
    ("34", 15), ("37", 15), ("6011", 16), ("644", 16), ("65", 19), ("300", 14), ("36", 14),
    ("38", 16), ("3528", 16), ("3589", 19), ("62", 16), ("2200", 16), ("50", 13), ("67", 19),
]  # fmt: skip


def check_digit(partial: str) -> str:
    for digit in "0123456789":
        if privacy.luhn_valid(partial + digit):
            return digit
    raise AssertionError("unreachable")


def card(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    return body + check_digit(body)


def grouped(number: str, separator: str) -> str:
    if len(number) == 15:
        sizes = (4, 6, 5)
    elif len(number) == 14:
        sizes = (4, 6, 4)
    else:
        sizes = (4,) * (len(number) // 4) + ((len(number) % 4,) if len(number) % 4 else ())
    parts, at = [], 0
    for size in sizes:
        parts.append(number[at : at + size])
        at += size
    return separator.join(parts)


def must_flag() -> list[tuple[str, str]]:
    """(text, the number as written) pairs."""
    rng = random.Random(24)
    samples = [
        ("Customer card 4242 4242 4242 4242 is on file.", "4242 4242 4242 4242"),
        ("test card 4000-0566-5566-5556 for 3DS", "4000-0566-5566-5556"),
        ("billing,4242424242424242,visa", "4242424242424242"),
        ("mastercard 5555555555554444", "5555555555554444"),
        ("amex (378282246310005).", "378282246310005"),
    ]
    for prefix, length in ISSUERS:
        number = card(prefix, length, rng)
        samples.append((f"card {number} on file", number))
        for separator in (" ", "-"):
            shown = grouped(number, separator)
            samples.append((f"pays with {shown}.", shown))
        samples.append((f"csv;{number};", number))
    return samples


def must_not_flag() -> list[str]:
    rng = random.Random(25)
    texts = [
        "epoch 1764547200 and 1764547200123 and 1764547200123456 and 1764547200123456789",
        "microseconds 2208988800000000 since 1970",
        "call +1 415 555 2671 or +44 20 7946 0958 or (415) 555-2671",
        "ISBN 978-3-16-148410-0 and 9783161484100 and 979-10-90636-07-1",
        "version 4242.4242.4242.4242 and ratio 0.4242424242424242",
        "uuid 123e4567-e89b-12d3-a456-426614174000, sha 3f786850e387550fdab836ed7e6dc881de23001b",
        "issue #4242424242424242",
        "1234 5678 9012 3456 is the sample from the docs",
        "card [REDACTED] on file",
    ]
    for prefix, length in ISSUERS:  # order ids: card-shaped but failing Luhn
        number = card(prefix, length, rng)
        wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
        texts.append(f"order {wrong} shipped")
        texts.append(f"order {grouped(wrong, ' ')} shipped")
    return texts


def test_recall_is_complete():
    missed = [
        (text, shown)
        for text, shown in must_flag()
        if [f.value(text) for f in privacy.find_cards(text)] != [shown]
    ]
    assert missed == []


def test_no_false_hits():
    hits = {text: privacy.find_cards(text) for text in must_not_flag()}
    assert {text: found for text, found in hits.items() if found} == {}


def test_cards_are_not_reported_twice_as_numeric_identifiers():
    assert privacy.find_numeric_ids("mastercard 5555555555554444 on file") == []


def test_a_masked_finding_shows_the_first_and_last_digits_only(tmp_path):
    files = {
        "MEMORY.md": "- [Billing](billing.md) — billing\n",
        "billing.md": "---\nname: billing\ndescription: card 4000-0566-5566-5556\nmetadata:\n"
        "  type: user\n---\nPays with 5555 5555 5555 4444.\n",
    }
    found = lint_files(tmp_path, files, select=["PV007"])
    assert [(d.range.start.line, d.severity) for d in found] == [(3, ERROR), (7, ERROR)]
    assert [d.message.rsplit(" ", 1)[-1] for d in found] == ["`4…5556`", "`5…4444`"]
    assert all(d.fix is not None and "[REDACTED]" in d.fix.edits[0].content for d in found)


def test_note_facts_are_checked_without_a_fix(tmp_path):
    fact = {"time": "2026-01-02T03:04:05Z", "project": "shop"}
    fact["fact"] = "Customer card 4242 4242 4242 4242 is on file."
    files = {"notes.jsonl": json.dumps(fact) + "\n"}
    found = lint_files(tmp_path, files, select=["PV007"], config={"notes": ["notes.jsonl"]})
    assert [(d.code, d.severity, d.fix) for d in found] == [("PV007", ERROR, None)]
    assert "4242 4242" not in found[0].message


def test_documented_test_numbers_need_the_allowlist(tmp_path):
    files = {
        "MEMORY.md": "- [Stripe](stripe.md) — test cards\n",
        "stripe.md": "---\nname: stripe\ndescription: test cards\nmetadata:\n  type: project\n"
        "---\nUse 4242 4242 4242 4242 and 5555555555554444 in test mode.\n",
    }
    assert len(lint_files(tmp_path, files, select=["PV007"])) == 2
    config = {"rules": {"PV007": {"allow-numbers": ["4242-4242-4242-4242"]}}}
    found = lint_files(tmp_path, files, select=["PV007"], config=config)
    assert [d.message.rsplit(" ", 1)[-1] for d in found] == ["`5…4444`"]


@pytest.mark.parametrize(
    "digits",
    ["0000000000", "9999999999999", "1234567890", "0123456789", "9876543210", "4930000000000",
     "8613800000000", "12345678901234567890"],
)  # fmt: skip
def test_placeholder_numbers_are_not_identifiers(digits):
    assert privacy.find_numeric_ids(f"call {digits} for help") == []


@pytest.mark.parametrize("digits", ["4930123456", "8613812345678", "4930000001", "5550123456"])
def test_real_looking_numbers_stay_identifiers(digits):
    assert len(privacy.find_numeric_ids(f"call {digits} for help")) == 1
