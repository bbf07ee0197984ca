"""Cell values as spreadsheets write them: dates, times, booleans, lists.

Each reader returns the value in the form ``cal.events.create`` takes, or raises
``BadValue`` with a sentence saying what to write instead. Accepted forms:

- dates: ``11/19/2014`` and ``11/19/14`` (month first, as the reference's US-made importer
  reads them), ``2014-11-19``, ``2014/11/19``, ``apr 19, 2016``, ``April 19 2016``,
  ``19 Apr 2016``; any other form python-dateutil reads month first, as long as it names
  a year, a month and a day (``2031``, ``May 2031`` or ``10`` are refused, never completed
  from today's date); a date may be followed by a time in any form a time cell takes
  (``2031-05-01 20:00``, ``2031-05-01T20:00:00``, ``05/01/2031 8 PM``), which is kept,
  with the UTC offset that may end it (``2026-03-08 01:30:00-05:00``, as spreadsheets and
  other tools' exports write a moment): as in a time cell, the offset says which pass of
  the wall time it is, and the reader checks it against the event's zone;
- times: ``7:30:00``, ``21:45``, ``9:30 pm``, ``9pm``, ``09:30 AM``, and with a fraction of
  a second (``20:00:00.000``, as databases export them), which is dropped; a time cell may
  end with a UTC offset (``01:30:00-05:00``), which says which pass of an hour the clocks
  repeat it is (the reader checks it against the event's zone);
- booleans: ``TRUE``, ``true``, ``Yes``, ``1`` and ``FALSE``, ``No``, ``0``, an empty cell;
- lists (categories, tags, organizers): comma-separated, each item trimmed.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone
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
    r"(?P<hour>[0-9]{1,2})(?::(?P<minute>[0-9]{2}))?(?::(?P<second>[0-9]{2})(?:[.,][0-9]+)?)?"
    r"\s*(?P<half>[ap]\.?\s*m\.?)?"
    r"(?:\s*(?P<offset>Z|(?P<sign>[+-])(?P<oh>[0-9]{2}):?(?P<om>[0-9]{2})?))?",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_US_DATE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4}|[0-9]{2})")
#: A time at the end of a date cell, as ``_TIME`` reads it, with a colon or an am/pm (a
#: number alone ends a date: ``19 Apr 2016``); and a UTC offset after it, if any.
_CLOCK = r"[0-9]{1,2}(?::[0-9]{2}){1,2}(?:[.,][0-9]+)?(?:\s*[ap]\.?\s*m\.?)?"
_HALF_DAY = r"[0-9]{1,2}\s*[ap]\.?\s*m\.?"
_TRAILING_TIME = re.compile(
    rf"[ T]\s*({_CLOCK}|{_HALF_DAY})\s*(Z|[+-][0-9]{{2}}(?::?[0-9]{{2}})?)?$", re.IGNORECASE
)
#: Two days no part of which is alike: what dateutil fills a part in from, twice, to tell a
#: part a cell names from one it leaves out.
_FILLS = (datetime(2001, 1, 1), datetime(2002, 2, 2))  # noqa: DTZ001 - wall days, no zone
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
    return _full_date(text, cleaned)


def _full_date(text: str, cleaned: str) -> date:
    """A date python-dateutil reads (month first) that names its year, month and day.

    dateutil fills a part the text leaves out from a default day, today's unless told:
    ``2031`` would be today's month and day in 2031. So the cell is read against two
    defaults with no part alike, and a date that differs between them named no such part.
    A time dateutil finds beside it (``8pm May 1 2031``) is refused too: the time of a
    date cell is written after the date, and would otherwise be lost.
    """
    from dateutil import parser

    try:
        found = [parser.parse(cleaned, default=fill, dayfirst=False) for fill in _FILLS]
    except (ValueError, OverflowError):
        raise BadValue(
            f"{text!r} is not a date; write it as 2014-11-19, 11/19/2014 or Apr 19, 2016"
        ) from None
    if found[0].date() != found[1].date():
        raise BadValue(
            f"{text!r} is not a whole date: it needs a year, a month and a day, as in "
            "2014-11-19, 11/19/2014 or Apr 19, 2016"
        )
    if found[0].time() != time() or found[0].tzinfo is not None:
        raise BadValue(f"{text!r} holds a time where a date goes; write the time after it")
    return found[0].date()


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
    """A date cell that may end with a time (``2031-05-01 20:00``, ``5/1/2031 8 pm``,
    ``2031-05-01T20:00:00.000``), and a UTC offset after it (``2026-03-08T01:30-05:00``).

    The offset is kept as the time's ``tzinfo``, as ``read_time`` keeps a time cell's:
    spreadsheets and other tools write a moment this way, and refusing it made their files
    unreadable. It does not move the time: the time stays the event's wall clock, and the
    CSV reader checks the offset against the event's zone as it checks a time cell's.
    """
    found = _TRAILING_TIME.search(text.strip())
    if found is None:
        return read_date(text), None
    return read_date(text.strip()[: found.start()]), read_time(found.group(1) + (found[2] or ""))


@lru_cache(maxsize=4096)
def read_time(text: str) -> time:
    """A time of day from a cell: 24-hour or with am/pm; with its UTC offset as ``tzinfo``
    when the cell ends with one (``01:30:00-05:00``), else naive."""
    match = _TIME.fullmatch(text.strip())
    if match is not None:
        hour, minute, second = (int(match[name] or 0) for name in ("hour", "minute", "second"))
        half = (match["half"] or "").lower().replace(".", "").replace(" ", "")
        if half and 1 <= hour <= 12:
            hour = hour % 12 + (12 if half == "pm" else 0)
        offset = _offset(match)
        if (
            hour < 24
            and minute < 60
            and second < 60
            and (not half or match["hour"] != "0")
            and (offset is None or abs(offset) < timedelta(hours=24))
        ):
            return time(hour, minute, second, tzinfo=None if offset is None else timezone(offset))
    raise BadValue(f"{text!r} is not a time of day; write it as 19:30, 7:30:00 or 7:30 pm")


def _offset(match: re.Match[str]) -> timedelta | None:
    """The UTC offset a time cell ends with (``Z``, ``-05:00``, ``+0530``), if any."""
    if not match["offset"]:
        return None
    if match["offset"].upper() == "Z":
        return timedelta(0)
    size = timedelta(hours=int(match["oh"]), minutes=int(match["om"] or 0))
    return -size if match["sign"] == "-" else size


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
