"""RFC 3339 §5.6 ``date-time`` validation with its own grammar and range checks.

``datetime.fromisoformat`` is no validator: it rejects leap seconds, lower-case
``t``/``z`` and year 0000, and accepts ``+0530``, week dates and ``,5``.
"""

from __future__ import annotations

import re

from memlint.records import dataclass

DATE_TIME = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})[Tt]"
    r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})"
    r"(?:\.(?P<fraction>[0-9]{1,30}))?"
    r"(?P<offset>[Zz]|(?P<sign>[+-])(?P<off_hour>[0-9]{2}):(?P<off_minute>[0-9]{2}))"
)
LONGEST = 64  # no longer text is a date-time
DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@dataclass(frozen=True, slots=True)
class Timestamp:
    """A valid RFC 3339 date-time: its offset in minutes and a sortable instant."""

    text: str
    offset_minutes: int
    unknown_offset: bool
    instant: tuple[int, str]

    @property
    def is_utc(self) -> bool:
        """``Z`` or ``+00:00``; ``-00:00`` means "offset unknown" (RFC 3339 §4.3)."""
        return self.offset_minutes == 0 and not self.unknown_offset


def is_leap_year(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    return 29 if month == 2 and is_leap_year(year) else DAYS_IN_MONTH[month - 1]


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 0000-03-01 style epoch (Howard Hinnant's algorithm); only order matters."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe


def parse(text: str) -> Timestamp | str:
    """A :class:`Timestamp`, or a short reason why ``text`` is not RFC 3339."""
    if len(text) > LONGEST:
        return "too long to be a date-time"
    match = DATE_TIME.fullmatch(text)
    if match is None:
        return _shape_reason(text)
    year, month, day = (int(match[k]) for k in ("year", "month", "day"))
    hour, minute, second = (int(match[k]) for k in ("hour", "minute", "second"))
    if not 1 <= month <= 12:
        return f"month {month:02d} is out of range"
    if not 1 <= day <= days_in_month(year, month):
        return f"{year:04d}-{month:02d} has no day {day:02d}"
    if hour > 23:
        return f"hour {hour:02d} is out of range"
    if minute > 59:
        return f"minute {minute:02d} is out of range"
    if second > 60:
        return f"second {second:02d} is out of range"
    offset = 0
    unknown = False
    if match["sign"]:
        off_hour, off_minute = int(match["off_hour"]), int(match["off_minute"])
        if off_hour > 23 or off_minute > 59:
            return f"offset {match['offset']} is out of range"
        offset = (off_hour * 60 + off_minute) * (1 if match["sign"] == "+" else -1)
        unknown = match["offset"] == "-00:00"
    minutes = _days_from_civil(year, month, day) * 1440 + hour * 60 + minute - offset
    if second == 60 and minutes % 1440 != 23 * 60 + 59:
        return "a leap second (:60) can only occur at 23:59 UTC"
    fraction = (match["fraction"] or "").rstrip("0")
    return Timestamp(text, offset, unknown, (minutes * 60 + second, fraction))


def _shape_reason(text: str) -> str:
    if re.fullmatch(r"[0-9]{1,20}", text):
        return "a number (epoch time?) instead of a date-time"
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return "a date without a time"
    if re.match(r"[0-9]{4}-?W", text):
        return "an ISO week date"
    if re.match(r"[0-9]{8}T", text):
        return "ISO basic format (no separators)"
    if re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2} ", text):
        return "a space instead of `T` between date and time"
    if re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}(?:[Zz+-]|$)", text):
        return "seconds are missing"
    tail = re.match(r".{19}(.*)", text)
    rest = tail[1] if tail else ""
    if rest.startswith(","):
        return "a comma as decimal sign"
    if rest.startswith(".") and not rest[1:2].isdigit():
        return "an empty fraction"
    if re.search(r"[+-][0-9]{4}$", rest):
        return "an offset without a colon (use +hh:mm)"
    if tail and re.fullmatch(r"(?:\.[0-9]{1,30})?", rest):
        return "no time offset (add Z for UTC)"
    return "not shaped YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)"
