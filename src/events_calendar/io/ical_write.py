"""Writing events as an iCalendar (RFC 5545) file that calendar applications import.

What Google Calendar, Outlook and Apple Calendar need, and what this writes (the mapping is in
``docs/icalendar.md``): ``PRODID``, ``VERSION``, ``CALSCALE`` and ``METHOD:PUBLISH``; one
VTIMEZONE per zone the events use, generated from the zone database over the years the events
span (``icalendar.Timezone.from_tzinfo``); times as wall clock plus ``TZID`` (UTC events,
and the second of a repeated hour, as ``Z`` times); all-day events as ``DATE`` values with an
exclusive ``DTEND``; UIDs ``event-<id>@<calendar identity>.events-calendar``, which stay the
same from one export to the next, so a subscribed calendar updates events instead of
duplicating them, and differ from every other calendar's, so an import can tell them apart.

The output depends only on the events (``DTSTAMP`` is the event's last modification, not the
time of the export): the same events give the same bytes, which is what lets the feed answer
``304 Not Modified``. No events give the VTIMEZONE of the calendar's own zone around the
current year (RFC 5545 wants a component in every VCALENDAR). Folding and CRLF line ends
are the ``icalendar`` package's; TEXT is escaped here (``_escaped``).
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, BinaryIO

import icalendar

from ..dates import resolve_zone, zone_name
from ..markup import plain_text
from ..records import Event
from .ical_read import DESCRIPTION_PROPERTY, TIMEZONE_PROPERTY
from .keys import own_uid

if TYPE_CHECKING:
    from ..calendar import Calendar
    from ..events import Related

__all__ = ["PRODID", "SPOOL_BYTES", "event_uid", "write_calendar", "write_events"]

PRODID = "-//events-calendar//events-calendar//EN"
#: Bytes of VEVENTs ``write_calendar`` holds in memory before it spools them to disk.
SPOOL_BYTES = 8 * 1024 * 1024
_END = b"END:VCALENDAR\r\n"


def event_uid(cal: Calendar, event_id: int) -> str:
    """The UID the event has in every export of ``cal``: ``keys.own_uid``, which an import
    into the same calendar reads back to the id."""
    return own_uid(event_id, cal.backend.calendar_identity())


def write_events(cal: Calendar, events: Iterable[Event]) -> bytes:
    """The events as one VCALENDAR (UTF-8 bytes, CRLF line ends, lines folded)."""
    out = io.BytesIO()
    write_calendar(cal, [list(events)], out)
    return out.getvalue()


def write_calendar(cal: Calendar, batches: Iterable[list[Event]], out: BinaryIO) -> int:
    """``write_events`` of every batch, written to ``out`` in memory bounded by a batch;
    returns the number of events written.

    The VTIMEZONEs come before the events (some applications read zones before the events
    that use them) but depend on every event, so the VEVENTs are written as they come to a
    spool (memory up to ``SPOOL_BYTES``, a temporary file beyond) and copied after the
    header and zones. Nothing reaches ``out`` until every event was read: a failed read
    writes nothing.
    """
    calendar = cal.backend.calendar_identity()
    span = _ZoneSpan()
    count = 0
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
        for batch in batches:
            related = cal.events.related(batch)
            for event in batch:
                body.write(_vevent_bytes(event, related, own_uid(event.id, calendar)))
                span.add(event)
            count += len(batch)
        document = icalendar.Calendar()
        document.add("PRODID", PRODID)
        document.add("VERSION", "2.0")
        document.add("CALSCALE", "GREGORIAN")
        document.add("METHOD", "PUBLISH")
        for timezone in span.timezones() if count else [_calendar_timezone(cal)]:
            document.add_component(timezone)
        head = bytes(document.to_ical())
        out.write(head.removesuffix(_END))
        body.seek(0)
        shutil.copyfileobj(body, out)
        out.write(_END)
    return count


class _ZoneSpan:
    """The zones timed events use (UTC needs none) and the years the events span."""

    def __init__(self) -> None:
        self.zones: set[str] = set()
        self.first: datetime | None = None
        self.last: datetime | None = None

    def add(self, event: Event) -> None:
        if not event.all_day and event.timezone != "UTC":
            self.zones.add(event.timezone)
        if self.first is None or event.utc_start_date < self.first:
            self.first = event.utc_start_date
        if self.last is None or event.utc_end_date > self.last:
            self.last = event.utc_end_date

    def timezones(self) -> list[icalendar.Timezone]:
        """One VTIMEZONE per zone, covering the year before the first event to two after
        the last."""
        if not self.zones or self.first is None or self.last is None:
            return []
        first, last = self.first.year - 1, self.last.year + 2
        return [_timezone(name, first, last) for name in sorted(self.zones)]


def _calendar_timezone(cal: Calendar) -> icalendar.Timezone:
    """The VTIMEZONE of the calendar's own zone (``Settings.timezone``, UTC's too), for the
    year before today to two after: what a VCALENDAR of no events holds, since RFC 5545 3.4
    wants at least one component in it. An export or a feed of no events is so a calendar
    applications read as one with no events, not a broken file; a subscriber's feed that
    ran empty keeps working."""
    year = cal.now().year
    return _timezone(zone_name(cal.zone), year - 1, year + 2)


@lru_cache(maxsize=128)
def _timezone(name: str, first_year: int, last_year: int) -> icalendar.Timezone:
    """A zone's VTIMEZONE (slow to compute, so kept)."""
    return icalendar.Timezone.from_tzinfo(
        resolve_zone(name),
        tzid=name,
        first_date=date(max(first_year, 1), 1, 1),
        last_date=date(min(last_year, 9999), 1, 1),
    )


def _vevent_bytes(event: Event, related: Related, uid: str) -> bytes:
    """The VEVENT of ``_vevent``, byte for byte, written as text lines: building it through
    ``icalendar``'s components (type inference, parameter objects, a fold character by
    character) was three quarters of a 5,000-event feed (1.3 s of 1.7). An event with a
    value whose escaping or quoting only ``icalendar`` knows (``_lines`` says) is built by
    ``_vevent``; ``tests/test_ical_write.py`` holds both to the same bytes."""
    lines = _lines(event, related, uid)
    if lines is None:
        return bytes(_vevent(event, related, uid).to_ical())
    folded = "".join(f"{_fold(line)}\r\n" for line in lines)
    return f"BEGIN:VEVENT\r\n{folded}END:VEVENT\r\n".encode()


#: The properties a VEVENT lists first, in this order (``icalendar.Event.canonical_order``);
#: the others follow by name.
_LEADING = ("SUMMARY", "DTSTART", "DTEND", "DTSTAMP", "UID")
#: Characters ``icalendar`` escapes in a TEXT value (``vText``) and in a parameter value
#: (RFC 6868): a value holding one is left to ``_vevent``.
_TEXT_ESCAPED = frozenset("\\;,\r\n")
_PARAMETER_ESCAPED = frozenset('^"\r\n')
#: Characters for which ``icalendar`` quotes a parameter value (``parameter.QUOTABLE``),
#: and a ``CN`` one besides (``Parameters.quote_also``).
_QUOTED = frozenset(",;:\u2019")
_CN_QUOTED = _QUOTED | frozenset(" '")


def _lines(event: Event, related: Related, uid: str) -> list[str] | None:
    """``_vevent``'s content lines, unfolded, in its order; None when a value holds what
    ``icalendar`` would escape or quote in a way this does not copy (never for the text
    properties, which ``_escaped`` escapes either way)."""
    if not _TEXT_ESCAPED.isdisjoint(uid) or not _TEXT_ESCAPED.isdisjoint(event.timezone):
        return None
    props: dict[str, str] = {"UID": f"UID:{uid}"}
    props["DTSTAMP"] = f"DTSTAMP:{_utc_time(event.modified_utc)}"
    zone_property = False
    if event.all_day:
        first, last = event.start_date.date(), event.end_date.date()
        props["DTSTART"] = f"DTSTART;VALUE=DATE:{_date(first)}"
        props["DTEND"] = f"DTEND;VALUE=DATE:{_date(last + timedelta(days=1))}"
        zone_property = True
    elif event.timezone == "UTC":
        props["DTSTART"] = f"DTSTART:{_utc_time(event.utc_start_date)}"
        props["DTEND"] = f"DTEND:{_utc_time(event.utc_end_date)}"
    else:
        tzid = _parameter(event.timezone, _QUOTED)
        if tzid is None:
            return None
        for name, value in (("DTSTART", event.start_date), ("DTEND", event.end_date)):
            if _first_of_its_wall_time(value):
                props[name] = f"{name};TZID={tzid}:{_time(value)}"
            else:
                props[name] = f"{name}:{_utc_time(value)}"
                zone_property = True
    if zone_property:
        props[TIMEZONE_PROPERTY] = f"{TIMEZONE_PROPERTY}:{event.timezone}"
    props["SUMMARY"] = f"SUMMARY:{_escaped(event.title)}"
    description = plain_text(event.description)
    if description:
        props["DESCRIPTION"] = f"DESCRIPTION:{_escaped(description)}"
        if description != event.description.strip():
            props["X-ALT-DESC"] = f"X-ALT-DESC;FMTTYPE=text/html:{_escaped(event.description)}"
        if "\r" in event.description:
            exact = _escaped(event.description, exact=True)
            props[DESCRIPTION_PROPERTY] = f"{DESCRIPTION_PROPERTY}:{exact}"
    venues = related.venues_of(event)
    if venues:
        props["LOCATION"] = f"LOCATION:{_escaped(venues[0].venue)}"
    with_email = [o for o in related.organizers_of(event) if o.email]
    if with_email:
        email = with_email[0].email
        cn = _parameter(with_email[0].organizer, _CN_QUOTED)
        if cn is None or "\r" in email or "\n" in email:
            return None
        props["ORGANIZER"] = f"ORGANIZER;CN={cn}:mailto:{email}"
    categories = [c.name for c in related.categories_of(event)]
    if categories:
        props["CATEGORIES"] = "CATEGORIES:" + ",".join(_escaped(name) for name in categories)
    if event.website:
        if "\r" in event.website or "\n" in event.website:
            return None
        props["URL"] = f"URL:{event.website}"
    props["LAST-MODIFIED"] = f"LAST-MODIFIED:{_utc_time(event.modified_utc)}"
    return [props.pop(name) for name in _LEADING] + [props[name] for name in sorted(props)]


def _parameter(value: str, quoted: frozenset[str]) -> str | None:
    """A parameter value as ``icalendar`` writes it: in double quotes if it holds one of
    ``quoted``; None if it holds what RFC 6868 escapes."""
    if not _PARAMETER_ESCAPED.isdisjoint(value):
        return None
    return value if quoted.isdisjoint(value) else f'"{value}"'


def _date(value: date) -> str:
    return f"{value.year:04}{value.month:02}{value.day:02}"


def _time(value: datetime) -> str:
    """A DATE-TIME's wall clock, as ``icalendar.vDatetime`` writes it (no fraction)."""
    return f"{_date(value)}T{value.hour:02}{value.minute:02}{value.second:02}"


def _utc_time(value: datetime) -> str:
    return f"{_time(value.astimezone(UTC))}Z"


#: Octets a content line holds before ``icalendar`` folds it (its ``_foldline``: the line
#: break goes in when a character would reach 75).
_FOLD_AT = 75


def _fold(line: str) -> str:
    """``line`` folded as ``icalendar``'s ``Contentline.to_ical`` folds it (RFC 5545 3.1):
    at most 74 octets a line, a character never split, and a backslash or caret escape
    never split from what it escapes (an escape's first character starts the next line).
    ASCII lines, nearly all, are cut by slicing instead of character by character."""
    if len(line) < _FOLD_AT and (line.isascii() or len(line.encode()) < _FOLD_AT):
        return line
    if not line.isascii():
        return _fold_characters(line)
    width = _FOLD_AT - 1
    parts: list[str] = []
    start = 0
    while len(line) - start > width:
        end = start + width
        if line[end - 1] in "\\^":  # the escape's first character moves to the next line
            end -= 1
        parts.append(line[start:end])
        start = end
    parts.append(line[start:])
    return "\r\n ".join(parts)


def _fold_characters(line: str) -> str:
    """``_fold`` of a line with characters of several octets, character by character."""
    parts: list[str] = []
    current: list[str] = []
    octets = 0
    for char in line:
        size = len(char.encode())
        if current and octets + size >= _FOLD_AT:
            if len(current) > 1 and current[-1] in "\\^":
                escape = current.pop()
                parts.append("".join(current))
                current, octets = [escape], len(escape.encode())
            else:
                parts.append("".join(current))
                current, octets = [], 0
        current.append(char)
        octets += size
    if current:
        parts.append("".join(current))
    return "\r\n ".join(parts)


def _vevent(event: Event, related: Related, uid: str) -> icalendar.Event:
    vevent = icalendar.Event()
    vevent.add("UID", uid)
    vevent.add("DTSTAMP", event.modified_utc.astimezone(UTC))
    if event.all_day:
        first, last = event.start_date.date(), event.end_date.date()
        vevent.add("DTSTART", first)
        vevent.add("DTEND", last + timedelta(days=1))
        vevent.add(TIMEZONE_PROPERTY, event.timezone)
    elif event.timezone == "UTC":
        vevent.add("DTSTART", event.utc_start_date)
        vevent.add("DTEND", event.utc_end_date)
    else:
        zone = {"TZID": event.timezone}
        for name, value in (("DTSTART", event.start_date), ("DTEND", event.end_date)):
            if _first_of_its_wall_time(value):
                vevent.add(name, value.replace(tzinfo=None, fold=0), parameters=zone)
            else:  # the second 02:30 of a night the clocks go back: no wall time names it
                vevent.add(name, value.astimezone(UTC))
                if TIMEZONE_PROPERTY not in vevent:
                    vevent.add(TIMEZONE_PROPERTY, event.timezone)
    vevent.add("SUMMARY", _Text(event.title))
    description = plain_text(event.description)
    if description:
        vevent.add("DESCRIPTION", _Text(description))
        if description != event.description.strip():  # markup: kept beside the text
            vevent.add("X-ALT-DESC", _Text(event.description), parameters={"FMTTYPE": "text/html"})
        if "\r" in event.description:  # TEXT has no escape for a CR: the exact text beside
            vevent.add(DESCRIPTION_PROPERTY, _ExactText(event.description))
    venues = related.venues_of(event)
    if venues:
        vevent.add("LOCATION", _Text(venues[0].venue))
    with_email = [o for o in related.organizers_of(event) if o.email]
    if with_email:
        organizer = with_email[0]
        address = icalendar.vCalAddress(f"mailto:{organizer.email}")
        address.params["CN"] = organizer.organizer
        vevent.add("ORGANIZER", address)
    categories = [c.name for c in related.categories_of(event)]
    if categories:
        vevent.add("CATEGORIES", _Categories(categories))
    if event.website:
        vevent.add("URL", event.website)
    vevent.add("LAST-MODIFIED", event.modified_utc.astimezone(UTC))
    return vevent


def _first_of_its_wall_time(value: datetime) -> bool:
    """Whether ``value``'s wall clock with its TZID names it: a TZID time in a repeated hour
    is the first of the two (RFC 5545 3.3.5), so the second is written in UTC instead."""
    return value.replace(fold=0).astimezone(UTC) == value.astimezone(UTC)


def _escaped(text: str, *, exact: bool = False) -> str:
    """TEXT as RFC 5545 3.3.11 escapes it: backslash, semicolon, comma and line breaks (a
    CR, a LF or both are one line break, ``\\n``); ``exact``: a CR as ``\\r``, which only
    ``DESCRIPTION_PROPERTY`` holds (RFC 5545 has no escape for it).

    ``icalendar``'s own escaping reads a literal ``\\N`` in the text as a line break, so a
    title such as ``C:\\New`` would not come back as written.
    """
    text = text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    if exact:
        text = text.replace("\r", "\\r")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


class _Text(icalendar.vText):
    """A TEXT value escaped by ``_escaped``."""

    def to_ical(self) -> bytes:
        return _escaped(str(self)).encode()


class _ExactText(icalendar.vText):
    """A text escaped by ``_escaped`` with its CRs kept (``exact``)."""

    def to_ical(self) -> bytes:
        return _escaped(str(self), exact=True).encode()


class _Categories(icalendar.vCategory):
    """CATEGORIES whose names are escaped by ``_escaped``."""

    def to_ical(self) -> bytes:
        return ",".join(_escaped(str(name)) for name in self.cats).encode()
