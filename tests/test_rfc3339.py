"""RFC 3339 §5.6 verdicts, including where ``datetime.fromisoformat`` gets them wrong."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import rfc3339

VALID = [
    "2024-01-01T00:00:00Z",
    "2024-01-01t00:00:00z",
    "2024-01-01T00:00:00+05:30",
    "2024-01-01T00:00:00-00:00",
    "2016-12-31T23:59:60Z",
    "2016-12-31T18:59:60-05:00",
    "2024-01-01T00:00:00.123456789Z",
    "0000-01-01T00:00:00Z",
    "2024-02-29T12:00:00Z",
]
INVALID = [
    "2024-01-01 00:00:00Z",
    "2024-01-01T00:00:00",
    "2024-01-01T00:00:00+0530",
    "2024-01-01T00:00Z",
    "20240101T000000Z",
    "2024-W01-1",
    "2024-01-01",
    "2024-01-01T24:00:00Z",
    "2024-02-30T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-01-01T00:00:00+24:00",
    "2024-01-01T00:00:00.Z",
    "2024-01-01T00:00:00,5Z",
    "2024-06-30T12:00:60Z",
    "1700000000",
    "",
    "２０２４-01-01T00:00:00Z",
]


@pytest.mark.parametrize("text", VALID)
def test_valid(text):
    assert isinstance(rfc3339.parse(text), rfc3339.Timestamp)


@pytest.mark.parametrize("text", INVALID)
def test_invalid_with_reason(text):
    reason = rfc3339.parse(text)
    assert isinstance(reason, str) and reason


def test_utc_and_unknown_offset():
    assert rfc3339.parse("2024-01-01T00:00:00Z").is_utc
    assert rfc3339.parse("2024-01-01T00:00:00+00:00").is_utc
    unknown = rfc3339.parse("2024-01-01T00:00:00-00:00")
    assert unknown.unknown_offset and not unknown.is_utc
    assert not rfc3339.parse("2024-01-01T00:00:00+01:00").is_utc


def test_instants_order_across_offsets():
    earlier = rfc3339.parse("2024-01-01T10:00:00+02:00")  # 08:00Z
    later = rfc3339.parse("2024-01-01T09:00:00Z")
    assert earlier.instant < later.instant
    assert rfc3339.parse("2024-01-01T09:00:00.5Z").instant > later.instant
    assert (
        rfc3339.parse("2024-01-01T09:00:00.50Z").instant
        == rfc3339.parse("2024-01-01T09:00:00.5Z").instant
    )


def test_reasons_are_specific():
    assert "space" in rfc3339.parse("2024-01-01 00:00:00Z")
    assert "colon" in rfc3339.parse("2024-01-01T00:00:00+0530")
    assert "week" in rfc3339.parse("2024-W01-1")
    assert "comma" in rfc3339.parse("2024-01-01T00:00:00,5Z")
    assert "offset" in rfc3339.parse("2024-01-01T00:00:00")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_never_raises(text):
    assert isinstance(rfc3339.parse(text), (str, rfc3339.Timestamp))


@settings(max_examples=150, deadline=None)
@given(st.datetimes())
def test_python_datetimes_are_valid(moment):
    text = f"{moment.year:04d}-" + moment.strftime("%m-%dT%H:%M:%S.%fZ")
    assert isinstance(rfc3339.parse(text), rfc3339.Timestamp)
