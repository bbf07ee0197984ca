"""Reading iCalendar (RFC 5545) files into import rows: one ``SourceRow`` per VEVENT occurrence.

The reader knows the format and nothing of storage (see ``rows``). Its rules, documented for
users in ``docs/icalendar.md``:

- **Times.** A ``TZID`` names the event's zone: an IANA name, one of this library's offset
  labels (``UTC+2``, as its own export writes them) or a Windows name that ``icalendar`` maps to
  IANA (``W. Europe Standard Time``). A zone only its VTIMEZONE describes keeps the instant and
  is shown in the fallback zone. UTC times (``Z``) are UTC events, and floating times and
  all-day dates are read in the file's ``X-WR-TIMEZONE``, else ``zone``, else they are left
  naive so that the calendar reads them in its own zone. A file's ``X-WR-TIMEZONE`` turns its
  UTC times into that zone, as Google Calendar means it. A ``TZID`` that is unknown and has
  no VTIMEZONE refuses its event (a series as one row), ``X-WR-TIMEZONE`` or not.
- **All-day.** ``DATE`` values with an exclusive ``DTEND`` become the library's all-day event,
  which runs from 00:00:00 of the first day to 23:59:59 of the last.
- **Recurrence.** A series (``RRULE``/``RDATE`` with ``EXDATE`` and ``RECURRENCE-ID``
  overrides) becomes one row per occurrence inside a bounded window, expanded by
  ``recurring-ical-events``; a series with more than ``MAX_OCCURRENCES`` occurrences there is
  refused rather than flooding the calendar. An override with ``RANGE=THISANDFUTURE`` applies
  to each later occurrence, which keeps its own key (the recurrence it stands for) and lasts
  the override's DTEND length or DURATION.
- **Mapping.** SUMMARY, DESCRIPTION, LOCATION (a venue by name), ORGANIZER (CN and mailto),
  CATEGORIES, URL (http and https only) and STATUS (``CANCELLED`` makes a draft, whatever
  status the import gives the others). GEO and
  TRANSP have no place in the records and are ignored.

- **Durations.** A DURATION's days and weeks are wall-clock days, its hours, minutes and
  seconds elapsed time (RFC 5545 3.3.6; ``ical_duration``), for a series' occurrences too.

``icalendar`` and friends are imported here (and by ``ical_duration``, which this imports)
only, so ``import events_calendar`` stays light.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from itertools import chain, islice
from typing import IO, Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
import x_wr_timezone
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from ..coerce import WholeText
from ..dates import SystemClock, default_window, resolve_zone, zone_name
from ..errors import InvalidParameter
from ..markup import plain_text
from ..web_addresses import read_web_url
from .ical_chunks import chunks
from .ical_duration import end_after, parse_calendars
from .rows import MAX_LINE, SourceRow, UnreadableFile, one_line, refuse_utf16, too_large

__all__ = [
    "DESCRIPTION_PROPERTY",
    "MAX_OCCURRENCES",
    "TIMEZONE_PROPERTY",
    "count_vevents",
    "read_file",
    "read_rows",
]

#: The most occurrences one series may bring in from its window.
MAX_OCCURRENCES = 5000
#: The zone of an all-day event, written by ``ical_write`` beside its DATE values (which
#: cannot carry a TZID) so that the day boundaries survive a round trip.
TIMEZONE_PROPERTY = "X-EVENTS-CALENDAR-TIMEZONE"

#: A description holding a CR, exactly, written by ``ical_write`` beside ``DESCRIPTION``:
#: TEXT has no escape for a CR (a CRLF would come back a LF), so this one writes it ``\\r``.
DESCRIPTION_PROPERTY = "X-EVENTS-CALENDAR-DESCRIPTION"

_Window = tuple[datetime, datetime]


class _Refused(Exception):
    """Internal: why one VEVENT cannot be imported."""


def count_vevents(data: bytes, *, where: str) -> int:
    """How many VEVENT components the file holds (recurring series count once)."""
    return sum(len(c.walk("VEVENT")) for c in _parse(_decoded(data, where), where))


def read_rows(
    data: bytes,
    *,
    where: str,
    window: _Window | None = None,
    zone: tzinfo | None = None,
    outside: list[str] | None = None,
) -> Iterator[SourceRow]:
    """One ``SourceRow(kind="event")`` per VEVENT occurrence of ``data``, in file order.

    ``where`` names the file in errors; ``window`` bounds the expansion of recurring events
    (default: ``dates.default_window`` at the system clock, yesterday to 24 months ahead, in
    ``zone`` or UTC); ``zone`` reads floating times when the file names no zone. The UID of
    each series with no occurrence in the window is added to ``outside`` as the rows are
    read: such a series gives no row, and an import says so rather than nothing. Raises
    ``UnreadableFile`` when ``data`` is not an iCalendar file at all. The file is parsed a
    few thousand events at a time (``ical_chunks``), the first of them now, so a parse
    error further on is raised while the rows are read.
    """
    text = _decoded(data, where)  # raises now, not at the first row
    bounds = window or default_window(SystemClock().now(), zone or UTC)
    cut = chunks(text)
    if cut is None:
        whole = _parse(text, where)
        return (
            row
            for calendar in whole
            for row in _Reader(calendar, zone, outside=outside).rows(bounds)
        )
    pending = (chunk for calendar in cut for chunk in calendar)
    readers = (
        _Reader(_parse(c.text, where)[0], zone, c.first_number, outside=outside) for c in pending
    )
    first = next(readers, None)  # parsed now, like a whole file
    rest = (row for reader in readers for row in reader.rows(bounds))
    return chain(first.rows(bounds) if first is not None else (), rest)


# --- the file ------------------------------------------------------------------------------


def read_file(stream: IO[bytes], *, where: str, max_line: int = MAX_LINE) -> bytes:
    """The bytes of an .ics file, read a block at a time; ``UnreadableFile`` for a line
    longer than ``max_line`` bytes (its line break included) or a file too large for memory.

    RFC 5545 folds content lines at 75 octets, so no iCalendar writer comes near the limit,
    and the parser would hold such a line several times over. The check streams: a line is
    refused once ``max_line`` bytes of it were read, so a 2 GB line costs a megabyte. A
    block is never longer than ``max_line``, so only a line that runs across blocks can be
    too long, and that is what is tracked.
    """
    block_size = max(1, min(max_line, MAX_LINE))
    parts: list[bytes] = []
    lines = run = 0  # line breaks before the current line, and its bytes so far
    try:
        while block := stream.read(block_size):
            first = block.find(b"\n")
            if run + (len(block) if first < 0 else first + 1) > max_line:
                raise UnreadableFile(
                    where,
                    f"line {lines + 1} is longer than {max_line:,} bytes; no iCalendar line "
                    "is (they are folded at 75 bytes)",
                )
            if first >= 0:
                lines += block.count(b"\n")
                run = len(block) - block.rfind(b"\n") - 1
            else:
                run += len(block)
            parts.append(block)
        return b"".join(parts)
    except MemoryError:
        parts.clear()
        raise too_large(stream, where, "an iCalendar file is read whole") from None


def _decoded(data: bytes, where: str) -> str:
    """The file as text, or ``UnreadableFile`` when it cannot be an iCalendar file."""
    refuse_utf16(data, where)
    if b"\x00" in data[:65536]:
        raise UnreadableFile(where, "this is a binary file, not an iCalendar (.ics) file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        raise UnreadableFile(
            where,
            f"the file is not UTF-8 text (byte 0x{data[bad.start]:02X} at offset {bad.start}); "
            "iCalendar files are UTF-8, so save it as UTF-8 and import it again",
        ) from None
    # The ends alone: upper-casing the whole text would copy it twice more.
    if not text[:4096].lstrip().upper().startswith("BEGIN:VCALENDAR"):
        raise UnreadableFile(
            where, "this is not an iCalendar file: it does not begin with BEGIN:VCALENDAR"
        )
    if not text[-4096:].rstrip().upper().endswith("END:VCALENDAR"):
        raise UnreadableFile(
            where, "the iCalendar file is truncated: it does not end with END:VCALENDAR"
        )
    return text


def _parse(text: str, where: str) -> list[icalendar.Calendar]:
    """The VCALENDARs of a text, or ``UnreadableFile`` saying in one sentence what is wrong."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = parse_calendars(text)
    except (ValueError, KeyError, IndexError) as bad:
        raise UnreadableFile(
            where, f"the iCalendar file cannot be read: {_first_line(bad)}"
        ) from None
    calendars = [c for c in found if isinstance(c, icalendar.Calendar)]
    if not calendars:
        raise UnreadableFile(
            where, "the iCalendar file cannot be read: its BEGIN and END lines do not pair up"
        )
    return calendars


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__


# --- one calendar --------------------------------------------------------------------------


class _Reader:
    """The VEVENTs of one VCALENDAR, read with the zones it declares."""

    def __init__(
        self,
        calendar: icalendar.Calendar,
        zone: tzinfo | None,
        first_number: int = 1,
        *,
        outside: list[str] | None = None,
    ) -> None:
        self.first_number = first_number  # of the calendar's first VEVENT, in its file
        self.outside = outside  # the UIDs of series with no occurrence in the window
        declared = _named_zone(calendar.get("X-WR-TIMEZONE"))
        self.floating = declared or zone
        self.fallback = self.floating or UTC
        self.calendar = calendar
        if declared is not None:  # an X-WR-TIMEZONE no zone database knows is ignored
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                converted = x_wr_timezone.to_standard(calendar, timezone=declared)
            self.calendar = _unknown_zones_kept(calendar, converted)

    def rows(self, window: _Window) -> Iterator[SourceRow]:
        events = self.calendar.events
        series: dict[str, list[icalendar.Component]] = {
            _uid(e): [] for e in events if _is_series(e)
        }
        zones: list[icalendar.Component] = []
        for component in self.calendar.subcomponents:  # once: a series reads only its own
            if component.name == "VTIMEZONE":
                zones.append(component)
            elif (uid := _uid(component)) in series:
                series[uid].append(component)
        done: set[str] = set()
        for number, event in enumerate(events, self.first_number):
            uid = _uid(event)
            if not uid:
                yield SourceRow(f"VEVENT {number}", "event", refused="it has no UID")
            elif uid not in series:
                suffix = _recurrence_key(event.get("RECURRENCE-ID"))
                yield self._row(event, uid, suffix)
            elif uid not in done:
                done.add(uid)
                yield from self._occurrences(uid, [*zones, *series[uid]], window)

    def _row(self, event: icalendar.Event, uid: str, suffix: str | None) -> SourceRow:
        where = f"UID {one_line(uid)}" + (f" {suffix}" if suffix else "")
        key = f"uid:{uid}" + (f"#{suffix}" if suffix else "")
        try:
            fields = self._fields(event)
        except _Refused as why:
            return SourceRow(where, "event", key=key, refused=str(why))
        cancelled = "status" in fields  # set only for a cancelled event
        return SourceRow(
            where, "event", fields, key=key, one_of=_ONE_LINKED, keeps_status=cancelled
        )

    def _occurrences(
        self, uid: str, components: list[icalendar.Component], window: _Window
    ) -> Iterator[SourceRow]:
        """The occurrences of one series inside the window, overrides applied, in order:
        ``components`` are the calendar's VTIMEZONEs and the components of that UID."""
        subset = icalendar.Calendar()
        for component in components:
            subset.add_component(component)
        refused: str | None = None
        found: list[Any] = []
        try:
            # The rule engine drops a TZID that nothing describes and expands the series
            # as floating times: refused here, as such a single event is.
            unknown = next(filter(None, map(_unknown_zone, subset.walk("VEVENT"))), None)
            refused = _unknown_zone_refusal(unknown) if unknown else _runaway_rule(subset)
            if refused is None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    # Each series' ``between`` is a generator: at most one more occurrence
                    # than allowed is ever computed.
                    for series in recurring_ical_events.of(subset).series:
                        found.extend(islice(series.between(*window), MAX_OCCURRENCES + 1))
        except Exception as bad:  # any fault of a third-party rule engine is one refusal
            refused = f"its recurrence cannot be expanded: {_first_line(bad)}"
        if refused is None and len(found) > MAX_OCCURRENCES:
            refused = (
                f"the series has more than {MAX_OCCURRENCES} occurrences in the import window; "
                "import a shorter window"
            )
        if refused is not None:
            yield SourceRow(f"UID {one_line(uid)}", "event", key=f"uid:{uid}", refused=refused)
            return
        if not found and self.outside is not None:
            self.outside.append(uid)
        events = [c for c in components if c.name == "VEVENT"]
        durations = {_recurrence_key(c.get("RECURRENCE-ID")): c.get("DURATION") for c in events}
        moves = _future_moves(events)
        for occurrence in sorted(found):
            event = occurrence.as_component(False)
            source = _recurrence_key(event.get("RECURRENCE-ID"))  # the override it copies
            suffix = _own_recurrence_key(event, moves.get(source)) or source
            # A later occurrence of a THISANDFUTURE override lasts that override's DURATION
            # (RFC 5545 3.8.4.4), not its series' length: it is looked up by the override's
            # key, since its own names no component.
            _restore_duration(
                event, durations.get(suffix, durations.get(source, durations.get(None)))
            )
            yield self._row(event, uid, suffix)

    # -- fields ------------------------------------------------------------------------------
    def _fields(self, event: icalendar.Event) -> dict[str, Any]:
        title = _text(event.get("SUMMARY"))
        if not title:
            raise _Refused("it has no SUMMARY (the event's title)")
        fields: dict[str, Any] = {"title": title} | self._span(event)
        description = _description(event)
        if description:
            fields["description"] = description
        location = _text(event.get("LOCATION"))
        if location:
            fields["venue"] = {"venue": location}
        organizers = _organizers(event.get("ORGANIZER"))
        if organizers:
            fields["organizer"] = organizers
        categories = _categories(event.get("CATEGORIES"))
        if categories:
            fields["categories"] = categories
        website = _text(event.get("URL"))
        if read_web_url(website):
            fields["website"] = website
        if _text(event.get("STATUS")).upper() == "CANCELLED":  # whatever the import's status=
            fields["status"] = "draft"
        return fields

    def _span(self, event: icalendar.Event) -> dict[str, Any]:
        """``start_date``, ``end_date``, ``timezone`` and ``all_day`` of one VEVENT."""
        if event.get("DTSTART") is None:
            raise _Refused("it has no DTSTART (the event's start)")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start, end = event.start, event.end
        except (ValueError, TypeError) as bad:
            raise _Refused(f"its dates cannot be read: {_first_line(bad)}") from None
        if not isinstance(start, datetime):
            if isinstance(end, datetime):
                raise _Refused("DTSTART is a date but DTEND is a date-time; send both alike")
            last = max(start, end - timedelta(days=1))
            zone = _named_zone(event.get(TIMEZONE_PROPERTY)) or self.floating
            span: dict[str, Any] = {"start_date": _midnight(start, zone), "all_day": True}
            span["end_date"] = _midnight(last, zone)
            if zone is not None:
                span["timezone"] = zone_name(zone)
            return span
        if not isinstance(end, datetime):
            raise _Refused("DTSTART is a date-time but DTEND is a date; send both alike")
        tzid = event["DTSTART"].params.get("TZID")
        dtend = event.get("DTEND")
        start = _on_named_clock(start, tzid)
        if dtend is None and event.get("DURATION") is not None:
            end = end_after(start, event["DURATION"])  # its hours are elapsed time
        else:
            end = _on_named_clock(end, dtend.params.get("TZID") if dtend is not None else tzid)
        zone = _named_zone(event.get(TIMEZONE_PROPERTY)) or self._zone(start, tzid)
        if zone is None:  # floating, and no zone to read it in: the calendar's own
            return {"start_date": start, "end_date": end.replace(tzinfo=None)}
        return {
            "start_date": _in_zone(start, zone),
            "end_date": _in_zone(end, zone),
            "timezone": zone_name(zone),
        }

    def _zone(self, value: datetime, tzid: str | None) -> tzinfo | None:
        """The zone a date-time is shown in (see the module docstring)."""
        if value.tzinfo is None:
            if tzid and _named_zone(tzid) is None:
                raise _Refused(_unknown_zone_refusal(tzid))
            return _named_zone(tzid) or self.floating
        key = value.tzinfo.key if isinstance(value.tzinfo, ZoneInfo) else None
        return _named_zone(key) or _named_zone(tzid) or self.fallback


#: Rule parts that repeat an event more than a few times an hour: no calendar event does, and
#: the rule engine would compute every repetition since the series began.
_RUNAWAY = {"FREQ": {"SECONDLY", "MINUTELY"}, "BYSECOND": None}


def _restore_duration(occurrence: icalendar.Event, duration: Any) -> None:
    """Put back the DURATION of the component an occurrence comes from (its series, or its
    override), in place of the DTEND the expander added on the wall clock, so that its hours
    count as elapsed time (``end_after``). An occurrence whose end is not that sum keeps its
    DTEND (the expander's end stands when ``duration`` is not the one it used)."""
    start, end = occurrence.get("DTSTART"), occurrence.get("DTEND")
    if duration is None or start is None or end is None or not isinstance(start.dt, datetime):
        return
    if end.dt.replace(tzinfo=None) - start.dt.replace(tzinfo=None) == duration.dt:
        del occurrence["DTEND"]
        occurrence["DURATION"] = duration


def _future_moves(events: list[icalendar.Component]) -> dict[str | None, timedelta]:
    """How far each ``RANGE=THISANDFUTURE`` override moves its occurrences, by its key: its
    DTSTART less its RECURRENCE-ID, as the expander adds it to each later occurrence."""
    moves: dict[str | None, timedelta] = {}
    for event in events:
        recurrence, start = event.get("RECURRENCE-ID"), event.get("DTSTART")
        if recurrence is None or start is None:
            continue
        if str(recurrence.params.get("RANGE", "")).upper() != "THISANDFUTURE":
            continue
        try:
            moves[_recurrence_key(recurrence)] = start.dt - recurrence.dt
        except TypeError:  # a date beside a date-time, or naive beside aware: not moved
            moves[_recurrence_key(recurrence)] = timedelta(0)
    return moves


def _own_recurrence_key(occurrence: icalendar.Component, move: timedelta | None) -> str | None:
    """The key of a later occurrence of a ``RANGE=THISANDFUTURE`` override, which the
    expander gives as a copy of that override, its RECURRENCE-ID included: every later
    occurrence would share the override's key and the import refuse all but the first as
    the same event. Its own key is the recurrence it stands for (its start less the
    override's move), the one a RECURRENCE-ID naming it alone would give; ``None`` when
    ``move`` is (no such override) or for the override itself."""
    start = occurrence.get("DTSTART")
    if move is None or start is None:
        return None
    own = _recurrence_key(icalendar.vDDDTypes(start.dt - move))
    return None if own == _recurrence_key(occurrence.get("RECURRENCE-ID")) else own


def _runaway_rule(series: icalendar.Calendar) -> str | None:
    """Why a series' RRULE is refused before it is expanded, or ``None``."""
    for event in series.walk("VEVENT"):
        rules = event.get("RRULE")
        for rule in rules if isinstance(rules, list) else [rules] if rules is not None else []:
            for part, values in _RUNAWAY.items():
                given = {str(v).upper() for v in rule.get(part, [])}
                if given and (values is None or given & values):
                    return (
                        f"its RRULE repeats it every second or minute ({part}="
                        f"{','.join(sorted(given))}); import no more than hourly repetitions"
                    )
    return None


def _uid(component: icalendar.Component) -> str:
    return str(component.get("UID", "")).strip()


def _is_series(event: icalendar.Event) -> bool:
    return "RRULE" in event or "RDATE" in event


def _unknown_zones_kept(
    original: icalendar.Calendar, converted: icalendar.Calendar
) -> icalendar.Calendar:
    """``converted`` (the file read as its X-WR-TIMEZONE says), with each VEVENT whose start
    is in an unknown zone put back as the file has it.

    icalendar leaves a time whose TZID nothing describes (no zone of that name, no
    VTIMEZONE) without a zone, and x_wr_timezone reads every such time as floating: it moved
    it to the X-WR-TIMEZONE, TZID included, so the event was imported in a zone the file
    never gave it. Put back, it is refused as it is in a file without X-WR-TIMEZONE. The
    converter keeps the components in their order (it copies only those it changes)."""
    if converted is original:
        return original
    for position, component in enumerate(original.subcomponents):
        if component.name == "VEVENT" and _unknown_zone(component) is not None:
            converted.subcomponents[position] = component
    return converted


def _unknown_zone(event: icalendar.Component) -> str | None:
    """The TZID of ``event``'s DTSTART when it neither names a zone this library knows nor
    has a VTIMEZONE (icalendar then leaves the time without a zone), else ``None``."""
    start = event.get("DTSTART")
    value = getattr(start, "dt", None)
    tzid = start.params.get("TZID") if hasattr(start, "params") else None
    if isinstance(value, datetime) and value.tzinfo is None and tzid:
        return None if _named_zone(tzid) is not None else str(tzid)
    return None


def _unknown_zone_refusal(tzid: str) -> str:
    return f"its time zone {tzid!r} is unknown and the file describes none"


def _named_zone(name: object) -> tzinfo | None:
    """The zone ``resolve_zone`` knows by this name (or, for a Windows zone name such as
    Outlook writes, by its IANA equivalent), else ``None``."""
    return _zone_named("" if name is None else str(name).strip())


@functools.lru_cache(maxsize=1024)  # a file names a few zones, on every one of its events
def _zone_named(text: str) -> tzinfo | None:
    for candidate in (text, WINDOWS_TO_OLSON.get(text, "")):
        if candidate:
            try:
                return resolve_zone(candidate)
            except InvalidParameter:
                pass
    return None


def _on_named_clock(value: datetime, tzid: str | None) -> datetime:
    """A date-time whose TZID names a zone this library knows, read as that zone's wall clock
    (the first of a repeated hour, as RFC 5545 3.3.5 says), not by the file's VTIMEZONE: a
    VTIMEZONE may place a transition an hour off, and the zone database does not.

    A value already on that zone's clock keeps its instant: a UTC time that X-WR-TIMEZONE
    moved into the second pass of a repeated hour carries ``fold=1``, and a wall time read
    from the file has ``fold=0`` anyway."""
    named = _named_zone(tzid) if value.tzinfo is not None else None
    if named is None or _same_zone(value.tzinfo, named):
        return value
    return value.replace(tzinfo=named, fold=0)


def _same_zone(given: tzinfo | None, named: tzinfo) -> bool:
    """Whether ``given`` is the zone database's ``named`` zone (not a VTIMEZONE's version)."""
    if given is named:
        return True
    return isinstance(given, ZoneInfo) and isinstance(named, ZoneInfo) and given.key == named.key


def _in_zone(value: datetime, zone: tzinfo) -> datetime:
    return value.replace(tzinfo=zone) if value.tzinfo is None else value.astimezone(zone)


def _midnight(day: date, zone: tzinfo | None) -> datetime:
    return datetime.combine(day, time(), tzinfo=zone)


def _recurrence_key(prop: Any) -> str | None:
    """An occurrence's identity within its series: its RECURRENCE-ID, in UTC when it is an
    instant (``20310105T180000Z``), else as written (a date, or a floating time)."""
    if prop is None:
        return None
    value: date | datetime = prop.dt
    if not isinstance(value, datetime):
        return value.strftime("%Y%m%d")
    if value.tzinfo is None:
        return value.strftime("%Y%m%dT%H%M%S")
    return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _description(event: icalendar.Event) -> str:
    """DESCRIPTION, or the markup of ``X-ALT-DESC;FMTTYPE=text/html`` (Outlook's, and this
    calendar's exports') where that markup reads as the same text: a DESCRIPTION edited since
    wins over a markup left as it was. Either is the ``DESCRIPTION_PROPERTY`` instead where
    that is the same but for its CRs (a description written with Windows line breaks)."""
    text = _text(event.get("DESCRIPTION"))
    alternatives = event.get("X-ALT-DESC")
    for alt in alternatives if isinstance(alternatives, list) else [alternatives]:
        params = getattr(alt, "params", {})
        if str(params.get("FMTTYPE", "")).lower() == "text/html":
            markup = _as_text(alt).strip()
            if markup and plain_text(markup) == text.strip():
                text = markup
                break
    exact = event.get(DESCRIPTION_PROPERTY)
    if exact is not None and not isinstance(exact, list):
        kept = _as_text(exact, exact=True).strip()
        if _one_line_break(kept) == _one_line_break(text):
            return kept
    return text


def _one_line_break(text: str) -> str:
    """``text`` with each CRLF and CR a LF, as TEXT (and ``_as_text``) reads them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


#: An escape of RFC 5545 TEXT (3.3.11): ``\\``, ``\;``, ``\,``, and ``\n`` or ``\N``;
#: and ``\r``, a CR, in ``DESCRIPTION_PROPERTY`` alone.
_TEXT_ESCAPE = re.compile(r"\\([\\;,nN])")
_EXACT_ESCAPE = re.compile(r"\\([\\;,nNr])")
_ESCAPED = {"n": "\n", "N": "\n", "r": "\r"}


def _as_text(value: Any, *, exact: bool = False) -> str:
    """A property's value read as RFC 5545 TEXT (``exact``: with ``\\r`` a CR). ``icalendar``
    unescapes the properties it knows as TEXT, and keeps any other (``X-ALT-DESC``) as
    written: its escapes are read here, in one pass (``\\\\n`` is a backslash and an
    ``n``), or markup holding a line break, a ``;`` or a ``,`` would come back with its
    backslashes."""
    if isinstance(value, icalendar.vText):
        return str(value)
    escape = _EXACT_ESCAPE if exact else _TEXT_ESCAPE
    return escape.sub(lambda m: _ESCAPED.get(m.group(1), m.group(1)), str(value))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):  # a property given twice: the first one counts
        value = value[0] if value else ""
    return str(value).strip()


def _organizers(value: Any) -> list[dict[str, str]]:
    """ORGANIZER as inline organizer data: the CN as the name, the mailto address as email."""
    found: list[dict[str, str]] = []
    for prop in value if isinstance(value, list) else [value] if value is not None else []:
        address = str(prop).strip()
        email = unquote(address[7:]).strip() if address.lower().startswith("mailto:") else ""
        name = str(getattr(prop, "params", {}).get("CN", "")).strip() or email
        if name:
            found.append(
                {"organizer": name, "email": email} if "@" in email else {"organizer": name}
            )
    return found


#: A VEVENT holds one LOCATION and one ORGANIZER.
_ONE_LINKED = frozenset({"venue", "organizer"})


def _categories(value: Any) -> list[str]:
    """CATEGORIES (every line of it) as names; a name keeps the commas it was written with
    escaped (``Rock\\, Pop`` is one category)."""
    names: list[str] = []
    for prop in value if isinstance(value, list) else [value] if value is not None else []:
        names.extend(WholeText(str(c).strip()) for c in getattr(prop, "cats", [prop]))
    return list(dict.fromkeys(n for n in names if n))
