"""Time: parsing user dates, time zones, day rounding and the default list window.

Why it looks like this:

- **PHP's parser, not ours.** The reference (The Events Calendar) validates every date with PHP's
  ``strtotime``, so its clients send whatever that accepts: ``2031-05-01 19:00``, ``2031/05/01``,
  ``November 3, 2031 10:00am``, ``tomorrow 9am``, ``+2 weeks``. For wire compatibility we call the
  same parser (timelib, through the ``strtotime`` package) instead of writing our own. The package
  reads zone-less text as UTC wall time, so we hand it "now" as the calendar's local wall clock
  dressed up as UTC and read the answer back as wall fields in the calendar's zone: "tomorrow" is
  local midnight of the local tomorrow. Text that names its own zone or offset is an instant.
- **Wall clock plus zone.** An event keeps its local wall time and its zone; instants (UTC) are
  for comparisons. Wall times that fall into a DST gap move forward (02:30 -> 03:30, as PHP
  does); ambiguous ones take the first occurrence (zoneinfo's ``fold=0``).
- **To the second.** The wire format is ``YYYY-MM-DD HH:MM:SS``; parsed values drop microseconds
  so that what is compared is what is shown. All-day events run 00:00:00-23:59:59.
- **No hidden clock.** "Now" is always passed in (see ``Clock``), so tests never depend on it.

Deliberate differences from the reference: a numeric timestamp is an instant (the reference
renders it as UTC wall time and reads that as local); impossible days (``2031-02-30``), years
outside 1000-9999 and blank text are refused instead of rolled over or read as "now".
"""

from __future__ import annotations

import math
import re
import threading
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from decimal import Decimal
from functools import cache, lru_cache
from typing import Literal, Protocol
from zoneinfo import ZoneInfo, available_timezones

from strtotime import strtotime

from events_calendar.errors import InvalidParameter

__all__ = [
    "UTC",
    "Clock",
    "FixedClock",
    "SystemClock",
    "all_day_span",
    "default_window",
    "end_of_day",
    "format_wall",
    "iana_zone_names",
    "months_ahead",
    "on_wall_clock",
    "parse_datetime",
    "query_bound",
    "repeat_offset",
    "resolve_zone",
    "start_of_day",
    "to_utc",
    "zone_abbr",
    "zone_name",
]


_DATE_HINT = (
    "send a date such as '2031-05-01 19:00', '2031-05-01T19:00:00+02:00', "
    "a Unix timestamp or a phrase such as 'tomorrow 9am'"
)
_ZONE_HINT = "send an IANA time zone such as 'Europe/Paris' or an offset such as 'UTC+2'"
_OFFSET = re.compile(r"UTC([+-])(\d{1,2})(?::(\d{2})|\.(\d+))?", re.IGNORECASE)
_NUMERIC = re.compile(r"[+-]?\d+(?:\.\d+)?")
_LONG_NUMBER = re.compile(r"(?<![\d.,@+-])\d{5,}")  # a year past 9999 (timelib misreads these)
#: A phrase of hours, minutes and seconds only ("+90 minutes", "-1 hour 30 min", "2 hours
#: ago"): elapsed time from now, not a move of the wall clock (``_parse_text``).
_ELAPSED = re.compile(
    r"(?:\s*[+-]?\s*\d+\s*(?:sec(?:ond)?s?|min(?:ute)?s?|hours?)\b)+(?:\s+ago)?\s*",
    re.IGNORECASE,
)
_LEADING_DAY = re.compile(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?!\d)")
# Appended to zone-less text it changes the answer; text with its own zone keeps it (first wins).
_PROBE_ZONE = " Asia/Karachi"
_HOST_ONLY_ZONES = frozenset({"localtime", "Factory"})


class Clock(Protocol):
    """Where "now" comes from."""

    def now(self) -> datetime:
        """The current instant, aware, in UTC."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current instant, aware, in UTC."""
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to (tests, replays)."""

    def __init__(self, at: datetime) -> None:
        self._lock = threading.Lock()
        self._now = to_utc(at)

    def now(self) -> datetime:
        """The instant last set: the same answer until ``set`` or ``advance`` moves it."""
        return self._now

    def set(self, at: datetime) -> None:
        """Jump to ``at`` (aware; kept in UTC), e.g. past a day boundary a test depends on."""
        self._now = to_utc(at)

    def advance(self, delta: timedelta) -> datetime:
        """Move on by ``delta`` and return the new instant; safe from several threads."""
        with self._lock:
            self._now += delta
            return self._now


# --- zones ---------------------------------------------------------------------------------


@cache
def iana_zone_names() -> list[str]:
    """The IANA zone names ``resolve_zone`` reads (besides ``UTC+2``-style offsets), sorted."""
    return sorted(_zone_keys().values())


@cache
def _zone_keys() -> dict[str, str]:
    """Lower-cased IANA name -> canonical name (PHP accepts any case).

    Cached: ``available_timezones`` walks the zone directories on disk each call (tens of
    milliseconds on a system tzdata), and every date a row carries resolves a zone.
    """
    return {key.lower(): key for key in available_timezones() - _HOST_ONLY_ZONES}


@lru_cache(maxsize=256)
def _iana_zone(key: str) -> tzinfo:
    return UTC if key == "UTC" else ZoneInfo(key)


def _offset_label(offset: timedelta) -> str:
    minutes, rest = divmod(int(offset.total_seconds()), 60)
    if rest:
        raise ValueError(f"offset {offset} is not a whole number of minutes")
    hours, minutes = divmod(abs(minutes), 60)
    sign = "-" if offset < timedelta(0) else "+"
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


#: How the reference reads a "UTC±n" zone: as the IANA zone PHP's ``timezone_name_from_abbr``
#: gives for that standard offset (timelib's fallback map), daylight saving time included.
#: "UTC+2" is therefore Eastern European time: 09:30 on 1 August 2031 is 06:30 UTC, exactly as
#: the reference stores it (recording ``ev_offset_tz``). Offsets the map lacks stay fixed.
_REFERENCE_OFFSET_ZONES: dict[int, str] = {
    -660: "Pacific/Apia",
    -600: "Pacific/Honolulu",
    -540: "America/Anchorage",
    -480: "America/Los_Angeles",
    -420: "America/Denver",
    -360: "America/Chicago",
    -300: "America/New_York",
    -270: "America/Caracas",
    -240: "America/Halifax",
    -180: "America/Sao_Paulo",
    -60: "Atlantic/Azores",
    60: "Europe/Paris",
    120: "Europe/Helsinki",
    180: "Europe/Moscow",
    240: "Asia/Dubai",
    300: "Asia/Karachi",
    330: "Asia/Kolkata",
    345: "Asia/Kathmandu",
    420: "Asia/Krasnoyarsk",
    480: "Asia/Shanghai",
    540: "Asia/Tokyo",
    600: "Australia/Melbourne",
    720: "Pacific/Auckland",
}


class OffsetZone(tzinfo):
    """A "UTC±n" zone as the reference reads it: labelled "UTC+2", timed by an IANA zone.

    The label is what the event shows as its ``timezone`` and ``timezone_abbr``; the instants
    follow the IANA zone the reference substitutes (see ``_REFERENCE_OFFSET_ZONES``).
    """

    def __init__(self, label: str, zone: ZoneInfo, nominal: timedelta) -> None:
        self.label = label
        self.zone = zone
        self.nominal = nominal

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return self.zone.utcoffset(dt.replace(tzinfo=self.zone) if dt is not None else None)

    def dst(self, dt: datetime | None) -> timedelta | None:
        return self.zone.dst(dt.replace(tzinfo=self.zone) if dt is not None else None)

    def tzname(self, dt: datetime | None) -> str:
        return self.label

    def fromutc(self, dt: datetime) -> datetime:
        return self.zone.fromutc(dt.replace(tzinfo=self.zone)).replace(tzinfo=self)

    def __repr__(self) -> str:
        return f"OffsetZone({self.label!r}, {self.zone.key!r})"


@lru_cache(maxsize=64)
def _offset_zone(total_minutes: int) -> tzinfo:
    offset = timedelta(minutes=total_minutes)
    label = _offset_label(offset)
    if total_minutes in _REFERENCE_OFFSET_ZONES:
        return OffsetZone(label, ZoneInfo(_REFERENCE_OFFSET_ZONES[total_minutes]), offset)
    return timezone(offset, label)


def resolve_zone(name: str, *, field: str = "timezone") -> tzinfo:
    """An IANA zone ("Europe/Paris", "UTC") or an offset label ("UTC+2", "UTC-5", "UTC+5:30").

    Offset labels are read as the reference reads them (``_REFERENCE_OFFSET_ZONES``).
    """
    if not isinstance(name, str):
        raise InvalidParameter.one(field, f"the time zone is empty; {_ZONE_HINT}")
    return _zone_from_text(name, field)


@lru_cache(maxsize=1024)  # every date read resolves a zone, and a calendar names a handful
def _zone_from_text(name: str, field: str) -> tzinfo:
    """``resolve_zone`` of a text; a refusal is raised again each time, never remembered."""
    text = name.strip()
    if not text:
        raise InvalidParameter.one(field, f"the time zone is empty; {_ZONE_HINT}")
    match = _OFFSET.fullmatch(text)
    if match:
        sign, hours, minutes, fraction = match.groups()
        extra = Decimal(f"0.{fraction}") * 60 if fraction else Decimal(minutes or 0)
        total = int(hours) * 60 + int(extra)
        if extra != int(extra) or extra >= 60 or total > 14 * 60:
            raise InvalidParameter.one(
                field, f"{name!r} is not an offset between UTC-14 and UTC+14; {_ZONE_HINT}"
            )
        return _offset_zone(-total if sign == "-" else total)
    key = _zone_keys().get(text.lower())
    if key is None:
        raise InvalidParameter.one(field, f"unknown time zone {name!r}; {_ZONE_HINT}")
    return _iana_zone(key)


def zone_name(tz: tzinfo) -> str:
    """The name ``resolve_zone`` reads back: "Europe/Paris", "UTC+2", "UTC"."""
    if isinstance(tz, ZoneInfo) and tz.key:
        return tz.key
    if isinstance(tz, OffsetZone):
        return tz.label
    if isinstance(tz, timezone):
        offset = tz.utcoffset(None)
        return "UTC" if tz.tzname(None) == "UTC" and not offset else _offset_label(offset)
    raise TypeError(f"{tz!r} is neither a ZoneInfo nor a fixed offset")


def zone_abbr(dt: datetime) -> str:
    """The zone's abbreviation at that instant: "EDT", "CEST", "UTC"; "UTC+2" for offsets."""
    tz = dt.tzinfo
    if tz.__class__ is ZoneInfo:  # an event's own zone, always aware: every event read asks
        return dt.tzname() or ""
    tz = _require_aware(dt, "dt").tzinfo
    if isinstance(tz, timezone | OffsetZone):
        return zone_name(tz)
    return dt.tzname() or ""


# --- parsing -------------------------------------------------------------------------------


def _require_aware(dt: datetime, what: str) -> datetime:
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"{what} must be an aware datetime, got {dt!r}")
    return dt


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unreadable(field: str, value: object) -> InvalidParameter:
    return InvalidParameter.one(field, f"cannot read {_show(value)} as a date; {_DATE_HINT}")


def _out_of_range(field: str, value: object) -> InvalidParameter:
    return InvalidParameter.one(
        field, f"{_show(value)} is outside the years 1000-9999; {_DATE_HINT}"
    )


def _settle(dt: datetime) -> datetime:
    """The same instant on its zone's real wall clock (a DST-gap time moves forward)."""
    zone = dt.tzinfo
    if zone is None:
        raise ValueError(f"dt must be an aware datetime, got {dt!r}")
    return dt.astimezone(UTC).astimezone(zone)


def on_wall_clock(dt: datetime, zone: tzinfo) -> datetime:
    """``dt``'s wall time in ``zone``, as a date written in that zone reads (an event moved
    to another zone keeps its wall clock): a time in the zone's DST gap moves forward."""
    return _settle(dt.replace(tzinfo=zone))


def _instant(seconds: float, zone: tzinfo, field: str, value: object) -> datetime:
    try:
        return datetime.fromtimestamp(math.floor(seconds), UTC).astimezone(zone)
    except (OverflowError, ValueError, OSError):
        raise _out_of_range(field, value) from None


def _parse_text(value: str, zone: tzinfo, local_now: datetime, field: str) -> datetime:
    text = value.strip()
    if not text or not text.isprintable():
        raise _unreadable(field, value)
    if _NUMERIC.fullmatch(text):
        return _instant(float(text), zone, field, value)
    try:
        iso = datetime.fromisoformat(text)
    except ValueError:
        pass
    else:
        return iso.astimezone(zone) if iso.tzinfo else _settle(iso.replace(tzinfo=zone))
    if _LONG_NUMBER.search(text):
        raise _out_of_range(field, value)
    day = _LEADING_DAY.match(text)
    if day:
        try:
            date(*map(int, day.groups()))
        except ValueError:
            why = f"{_show(value)} names no calendar day; {_DATE_HINT}"
            raise InvalidParameter.one(field, why) from None
    wall_now = math.floor(local_now.replace(tzinfo=UTC).timestamp())
    try:
        as_wall = strtotime(text, wall_now)
    except ValueError:
        raise _unreadable(field, value) from None
    try:
        zoned = strtotime(text + _PROBE_ZONE, wall_now) == as_wall
    except ValueError:
        zoned = False
    if zoned:  # "... Europe/Paris", "... CET", "@1700000000": the text fixes the instant
        return _instant(strtotime(text, math.floor(local_now.timestamp())), zone, field, value)
    if _ELAPSED.fullmatch(text):  # in a repeated or skipped hour the wall clock is no guide:
        # "+1 second" at the second 01:30 was read as 01:30:01 of the first, an hour back
        elapsed = timedelta(seconds=as_wall - wall_now)
        return (local_now.replace(microsecond=0).astimezone(UTC) + elapsed).astimezone(zone)
    try:
        wall = datetime.fromtimestamp(as_wall, UTC).replace(tzinfo=zone)
    except (OverflowError, ValueError, OSError):
        raise _out_of_range(field, value) from None
    if wall.replace(tzinfo=None) == local_now.replace(microsecond=0, tzinfo=None):
        return local_now  # "now" keeps its fold in a repeated hour
    return _settle(wall)


def parse_datetime(value: object, *, zone: tzinfo, now: datetime, field: str) -> datetime:
    """Read a user-supplied date as an aware datetime in ``zone``, to the second.

    Naive datetimes and zone-less text are wall time in ``zone``; aware datetimes, text with an
    offset or zone, and Unix timestamps (numbers or digit strings) are instants. Relative phrases
    ("tomorrow", "+2 weeks", "next monday 9am") count from ``now`` on ``zone``'s wall clock.
    """
    local_now = _require_aware(now, "now").astimezone(zone)
    try:
        if isinstance(value, datetime):
            if value.tzinfo is None or value.utcoffset() is None:
                result = _settle(value.replace(tzinfo=zone))
            else:  # via UTC: ``astimezone`` into its own zone would keep a DST-gap wall time
                result = _settle(value.astimezone(zone))
        elif isinstance(value, date):
            result = _settle(datetime.combine(value, time(), tzinfo=zone))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise _unreadable(field, value)
            result = _instant(value, zone, field, value)
        elif isinstance(value, str):
            result = _parse_text(value, zone, local_now, field)
        else:
            raise _unreadable(field, value)
    except OverflowError:
        raise _out_of_range(field, value) from None
    if not 1000 <= result.year <= 9999:
        raise _out_of_range(field, value)
    return result.replace(microsecond=0)


# --- formatting and day rounding -----------------------------------------------------------


def format_wall(dt: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS`` on ``dt``'s own wall clock."""
    return (
        f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d} {dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}"
    )


def repeat_offset(dt: datetime) -> str:
    """``dt``'s UTC offset (``-05:00``) when its wall time is the second pass of an hour its
    zone repeats (the clocks went back), else ``""``.

    A wall time without an offset is read as its first pass, so written text adds this to
    the wall time to read back as the same instant, and stays as it was everywhere else."""
    offset = _require_aware(dt, "dt").utcoffset()
    first = dt.replace(fold=0).utcoffset()
    if not dt.fold or offset is None or first is None or first <= offset:
        return ""
    sign, size = ("-", -offset) if offset < timedelta(0) else ("+", offset)
    hours, rest = divmod(int(size.total_seconds()), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def start_of_day(dt: datetime) -> datetime:
    """00:00:00 of ``dt``'s local date (the first existing second if midnight is skipped)."""
    return _settle(
        _require_aware(dt, "dt").replace(hour=0, minute=0, second=0, microsecond=0, fold=0)
    )


def end_of_day(dt: datetime) -> datetime:
    """23:59:59 of ``dt``'s local date (the later one when that hour repeats)."""
    last = _require_aware(dt, "dt").replace(hour=23, minute=59, second=59, microsecond=0, fold=1)
    return _settle(last)


def all_day_span(start: datetime, end: datetime) -> tuple[datetime, datetime]:
    """An all-day event's span: start of the first day to 23:59:59 of the last.

    The end of 9999-12-31 west of UTC is in the year 10000, an instant no date here can
    hold: that end is refused as out of range, as a timed end there is when it is read."""
    try:
        return start_of_day(start), end_of_day(end)
    except OverflowError:
        raise _out_of_range("end_date", format_wall(end)) from None


def to_utc(dt: datetime) -> datetime:
    """The same instant in UTC (naive datetimes are refused: their instant is unknown)."""
    return _require_aware(dt, "dt").astimezone(UTC)


# --- list filters --------------------------------------------------------------------------


def query_bound(
    value: object,
    *,
    edge: Literal["start", "end"],
    strict: bool,
    zone: tzinfo,
    now: datetime,
    field: str,
) -> datetime:
    """A list-filter bound as a UTC instant; without ``strict`` it widens to the whole local day.

    A bound past the last instant Python can hold (the end of 9999-12-31 west of UTC is in
    the year 10000) is that last instant: no event is later, as none ends after 9999."""
    bound = parse_datetime(value, zone=zone, now=now, field=field)
    try:
        if not strict:
            bound = start_of_day(bound) if edge == "start" else end_of_day(bound)
        return to_utc(bound)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC)


def months_ahead(day: date, months: int) -> date:
    """``day`` so many months on, as PHP's ``+N months`` counts: a day the month lacks rolls
    over into the next (29 February + 24 months is 1 March), where ``relativedelta`` would
    stop at the month's last day and the default window would end a day short."""
    years, month = divmod(day.month - 1 + months, 12)
    return date(day.year + years, month + 1, 1) + timedelta(days=day.day - 1)


def default_window(now: datetime, zone: tzinfo) -> tuple[datetime, datetime]:
    """The default event-list window in UTC: start of local yesterday to the end of the local
    day 24 calendar months ahead."""
    return _window_of_day(to_utc(now).astimezone(zone).date(), zone)


@lru_cache(maxsize=64)
def _window_of_day(today: date, zone: tzinfo) -> tuple[datetime, datetime]:
    """``default_window`` of a local day: every list without dates asks for it, and it
    changes once a day (the calendar arithmetic was a tenth of an uncached list's time)."""
    first = datetime.combine(today - timedelta(days=1), time(), tzinfo=zone)
    last = datetime.combine(months_ahead(today, 24), time(), tzinfo=zone)
    return to_utc(start_of_day(first)), to_utc(end_of_day(last))
