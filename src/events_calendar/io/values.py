"""Cell values as spreadsheets write them: dates, times, booleans, lists.

Each reader returns the value in the form ``cal.events.create`` takes, or raises
``BadValue`` with a sentence saying what to write instead. Accepted forms:

- dates: ``11/19/2014`` and ``11/19/14`` (month first, as the reference's US-made importer
  reads them), ``2014-11-19``, ``2014/11/19``, ``apr 19, 2016``, ``April 19 2016``,
  ``19 Apr 2016``; any other form python-dateutil reads unambiguously (month first); a
  date may be followed by a time (``2031-05-01 20:00``);
- times: ``7:30:00``, ``21:45``, ``9:30 pm``, ``9pm``, ``09:30 AM``;
- booleans: ``TRUE``, ``true``, ``Yes``, ``1`` and ``FALSE``, ``No``, ``0``, an empty cell;
- lists (categories, tags, organizers): comma-separated, each item trimmed.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from functools import lru_cache

__all__ = ["BadValue", "read_bool", "read_date", "read_list", "read_moment", "read_time"]

_DATE_FORMATS = (
    "%Y-%m-%d",
    "%m/%d/%Y",
    "%m/%d/%y",
    "%Y/%m/%d",
    "%b %d, %Y",
    "%b %d %Y",
    "%B %d, %Y",
    "%B %d %Y",
    "%d %b %Y",
    "%d %B %Y",
    "%m-%d-%Y",
)
_TIME = re.compile(
    r"(?P<hour>[0-9]{1,2})(?::(?P<minute>[0-9]{2}))?(?::(?P<second>[0-9]{2}))?\s*"
    r"(?P<half>[ap]\.?\s*m\.?)?",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_US_DATE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4}|[0-9]{2})")
_TRAILING_TIME = re.compile(
    r"[ T]([0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:\s*[ap]\.?\s*m\.?)?)$", re.IGNORECASE
)
_TRUE = frozenset({"true", "yes", "1", "y", "on"})
_FALSE = frozenset({"false", "no", "0", "n", "off", ""})


class BadValue(ValueError):
    """A cell that cannot be read; the message says what to write instead."""


@lru_cache(maxsize=4096)  # a season repeats its dates and times on many rows
def read_date(text: str) -> date:
    """A calendar date from a cell (see the module docstring for the forms)."""
    cleaned = " ".join(text.split())
    numeric = _numeric_date(cleaned)  # the common forms, without strptime's locale work
    if numeric is not None:
        return numeric
    for form in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, form).date()  # noqa: DTZ007 - a date, no zone
        except ValueError:
            continue
    from dateutil import parser

    try:
        return parser.parse(cleaned, dayfirst=False, yearfirst=False).date()
    except (ValueError, OverflowError):
        raise BadValue(
            f"{text!r} is not a date; write it as 2014-11-19, 11/19/2014 or Apr 19, 2016"
        ) from None


def _numeric_date(text: str) -> date | None:
    """``2014-11-19``, ``11/19/2014`` or ``11/19/14`` (two-digit years as strptime reads
    them: 69-99 are 1900s, 00-68 2000s); ``None`` for any other form."""
    found = _ISO_DATE.fullmatch(text)
    if found is not None:
        year, month, day = (int(part) for part in found.groups())
    else:
        found = _US_DATE.fullmatch(text)
        if found is None:
            return None
        month, day, year = (int(part) for part in found.groups())
        if len(found.group(3)) == 2:
            year += 1900 if year >= 69 else 2000
    try:
        return date(year, month, day)
    except ValueError:
        return None


def read_moment(text: str) -> tuple[date, time | None]:
    """A date cell that may end with a time (``2031-05-01 20:00``, ``5/1/2031 8:00 pm``)."""
    found = _TRAILING_TIME.search(text.strip())
    if found is None:
        return read_date(text), None
    return read_date(text.strip()[: found.start()]), read_time(found.group(1))


@lru_cache(maxsize=4096)
def read_time(text: str) -> time:
    """A time of day from a cell: 24-hour or with am/pm."""
    match = _TIME.fullmatch(text.strip())
    if match is not None:
        hour, minute, second = (int(match[name] or 0) for name in ("hour", "minute", "second"))
        half = (match["half"] or "").lower().replace(".", "").replace(" ", "")
        if half and 1 <= hour <= 12:
            hour = hour % 12 + (12 if half == "pm" else 0)
        if hour < 24 and minute < 60 and second < 60 and (not half or match["hour"] != "0"):
            return time(hour, minute, second)
    raise BadValue(f"{text!r} is not a time of day; write it as 19:30, 7:30:00 or 7:30 pm")


def read_bool(text: str) -> bool:
    """A yes/no cell; an empty one is no."""
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise BadValue(f"{text!r} is not a yes or no; write TRUE or FALSE (Yes/No, 1/0)")


def read_list(text: str) -> list[str]:
    """Comma-separated items, trimmed, empty ones dropped, each once."""
    return list(dict.fromkeys(item.strip() for item in text.split(",") if item.strip()))
