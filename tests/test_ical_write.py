"""Writing events as .ics (``events_calendar.io.ical.write_events``), and reading them back."""

from __future__ import annotations

import gc
import io
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import icalendar
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from events_calendar import Calendar, Settings, connect
from events_calendar.dates import FixedClock
from events_calendar.errors import CalendarError
from events_calendar.io import ical_write
from events_calendar.io.ical import event_uid, read_rows, write_calendar, write_events
from events_calendar.records import Event

NOW = datetime(2030, 12, 1, 9, 30, tzinfo=UTC)
WINDOW = (datetime(2029, 1, 1, tzinfo=UTC), datetime(2036, 1, 1, tzinfo=UTC))


def calendar() -> Calendar:
    """A fresh in-memory calendar whose clock stands still."""
    return connect("memory://", clock=FixedClock(NOW))


def gala(cal: Calendar, **changes: Any) -> Event:
    """A timed event in Paris with a venue, an organizer, categories and a website."""
    fields: dict[str, Any] = {
        "title": "Summer gala",
        "start_date": "2031-06-14 20:30",
        "end_date": "2031-06-14 23:00",
        "timezone": "Europe/Paris",
        "venue": {"venue": "Town Hall"},
        "organizer": {"organizer": "Jazz Club", "email": "hello@jazz.example.org"},
        "categories": ["Music", "Jazz"],
        "website": "https://jazz.example.org/gala",
        "description": "<p>Doors at 20:00 &amp; music at 20:30.</p><p>Free.</p>",
    }
    return cal.events.create(**(fields | changes))


def lines(data: bytes) -> list[str]:
    """The unfolded content lines of an .ics file."""
    return data.decode().replace("\r\n ", "").split("\r\n")


def vevent_lines(data: bytes) -> list[str]:
    """The content lines of the first VEVENT."""
    found = lines(data)
    return found[found.index("BEGIN:VEVENT") : found.index("END:VEVENT") + 1]


def test_a_timed_event_is_written_with_its_zone_and_links() -> None:
    """Every mapped property, with the wall clock and TZID of the event's zone."""
    cal = calendar()
    event = gala(cal)
    assert [
        "BEGIN:VEVENT",
        "SUMMARY:Summer gala",
        "DTSTART;TZID=Europe/Paris:20310614T203000",
        "DTEND;TZID=Europe/Paris:20310614T230000",
        "DTSTAMP:20301201T093000Z",
        f"UID:event-{event.id}@{cal.backend.calendar_identity()}.events-calendar",
        "CATEGORIES:Jazz,Music",
        "DESCRIPTION:Doors at 20:00 & music at 20:30.\\nFree.",
        "LAST-MODIFIED:20301201T093000Z",
        "LOCATION:Town Hall",
        'ORGANIZER;CN="Jazz Club":mailto:hello@jazz.example.org',
        "URL:https://jazz.example.org/gala",
        # The markup beside the text (Outlook's property): an import reads it back.
        "X-ALT-DESC;FMTTYPE=text/html:<p>Doors at 20:00 &amp\\; music at 20:30.</p><p>Free.</p>",
        "END:VEVENT",
    ] == vevent_lines(write_events(cal, [event]))


def test_the_calendar_declares_itself_as_importers_expect() -> None:
    """VERSION, PRODID, CALSCALE and METHOD open the file."""
    cal = calendar()
    assert [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//events-calendar//events-calendar//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ] == lines(write_events(cal, [gala(cal)]))[:5]


def test_one_vtimezone_is_written_per_zone_used() -> None:
    """Two Paris events and one in New York: two VTIMEZONEs; UTC needs none."""
    cal = calendar()
    events = [
        gala(cal),
        gala(cal, title="Second"),
        gala(cal, title="Third", timezone="America/New_York"),
        gala(cal, title="Fourth", timezone="UTC"),
    ]
    parsed = icalendar.Calendar.from_ical(write_events(cal, events))
    assert ["America/New_York", "Europe/Paris"] == [str(tz["TZID"]) for tz in parsed.timezones]


def test_a_vtimezone_covers_the_years_of_the_events() -> None:
    """The Paris VTIMEZONE runs from the year before the first event to two after the last."""
    cal = calendar()
    parsed = icalendar.Calendar.from_ical(write_events(cal, [gala(cal)]))
    assert "This timezone only works from 2030-01-01 to 2033-01-01." == str(
        parsed.timezones[0]["COMMENT"]
    )


def test_a_utc_event_is_written_in_utc() -> None:
    """An event in UTC has ``Z`` times and no TZID."""
    cal = calendar()
    written = vevent_lines(write_events(cal, [gala(cal, timezone="UTC")]))
    assert ["DTSTART:20310614T203000Z", "DTEND:20310614T230000Z"] == written[2:4]


def test_an_all_day_event_is_written_as_dates_with_an_exclusive_end() -> None:
    """3 and 4 April are DTSTART 20310403 and DTEND 20310405, with the event's zone beside."""
    cal = calendar()
    event = gala(
        cal, start_date="2031-04-03", end_date="2031-04-04", all_day=True, timezone="Asia/Tokyo"
    )
    written = vevent_lines(write_events(cal, [event]))
    assert (
        ["DTSTART;VALUE=DATE:20310403", "DTEND;VALUE=DATE:20310405"],
        "X-EVENTS-CALENDAR-TIMEZONE:Asia/Tokyo",
    ) == (written[2:4], written[-2])


def test_the_second_of_a_repeated_hour_is_written_in_utc_with_its_zone() -> None:
    """02:30 after the clocks go back (01:30 UTC) is no TZID time: ``Z``, zone beside."""
    cal = calendar()
    second = datetime(2031, 10, 26, 1, 30, tzinfo=UTC)
    event = gala(cal, start_date=second, end_date=second + timedelta(hours=2))
    written = vevent_lines(write_events(cal, [event]))
    assert (
        ["DTSTART:20311026T013000Z", "DTEND;TZID=Europe/Paris:20311026T043000"],
        "X-EVENTS-CALENDAR-TIMEZONE:Europe/Paris",
    ) == (written[2:4], written[-2])


@pytest.mark.parametrize(
    ("zone", "instant"),
    [
        ("Europe/Paris", datetime(2031, 10, 26, 1, 30, tzinfo=UTC)),  # the second 02:30
        ("Europe/Paris", datetime(2031, 10, 26, 0, 30, tzinfo=UTC)),  # the first 02:30
        ("UTC+2", datetime(2033, 3, 27, 1, 0, tzinfo=UTC)),  # 04:00, as summer time begins
    ],
)
def test_instants_around_clock_changes_come_back(zone: str, instant: datetime) -> None:
    """Times at the edges of daylight saving time read back as the instants written."""
    cal = calendar()
    event = gala(cal, start_date=instant, end_date=instant, timezone=zone)
    row = next(read_rows(write_events(cal, [event]), where="x", window=WINDOW))
    start = row.fields["start_date"].astimezone(UTC)  # repeated-hour times compare only in UTC
    assert (instant, zone) == (start, row.fields["timezone"])


def test_an_all_day_event_needs_no_vtimezone() -> None:
    """Dates carry no TZID, so a file of all-day events has no VTIMEZONE."""
    cal = calendar()
    event = gala(cal, start_date="2031-04-03", end_date="2031-04-03", all_day=True)
    assert [] == icalendar.Calendar.from_ical(write_events(cal, [event])).timezones


def test_an_organizer_without_email_is_left_out() -> None:
    """ORGANIZER must be an address; an organizer with no email has none to give."""
    cal = calendar()
    event = gala(cal, organizer={"organizer": "Nobody"})
    assert not any(
        line.startswith("ORGANIZER") for line in vevent_lines(write_events(cal, [event]))
    )


def test_an_event_without_website_has_no_url() -> None:
    """URL is the event's website, else nothing."""
    cal = calendar()
    event = gala(cal, website="")
    assert not any(line.startswith("URL") for line in vevent_lines(write_events(cal, [event])))


def test_long_lines_are_folded_and_lines_end_with_crlf() -> None:
    """A 200-character title is folded at 75 octets; every line ends with CRLF."""
    cal = calendar()
    data = write_events(cal, [gala(cal, title="A" * 200)])
    physical = data.split(b"\r\n")
    assert (True, False) == (
        all(len(line) <= 75 for line in physical),
        b"\n" in data.replace(b"\r\n", b""),
    )


def test_the_same_events_give_the_same_bytes() -> None:
    """The output depends only on the events (what lets the feed answer 304)."""
    cal = calendar()
    event = gala(cal)
    assert write_events(cal, [event]) == write_events(cal, [event])


def test_uids_name_the_event_and_its_calendar() -> None:
    """``event_uid(cal, 12)`` is ``event-12@<cal's identity>.events-calendar``: two calendars
    give their event 12 two UIDs, and a calendar gives it the same one every time."""
    cal, other = calendar(), calendar()
    identity = cal.backend.calendar_identity()
    assert (f"event-12@{identity}.events-calendar", identity) == (
        event_uid(cal, 12),
        cal.backend.calendar_identity(),
    )
    assert event_uid(cal, 12) != event_uid(other, 12)


def _spread(cal: Calendar) -> list[Event]:
    """Events in three zones, all-day and UTC ones among them, over several years."""
    return [
        gala(cal),
        gala(cal, title="Fair", all_day=True, organizer={"organizer": "X"}),
        gala(
            cal,
            title="Talk",
            timezone="America/New_York",
            start_date="2033-02-01 18:00",
            end_date="2033-02-01 19:00",
        ),
        gala(cal, title="Call", timezone="UTC", end_date="2031-06-15 01:00"),
        gala(cal, title="Late", start_date="2034-12-31 20:00", end_date="2034-12-31 23:00"),
    ]


@pytest.mark.parametrize("sizes", [[], [5], [2, 2, 1], [1, 1, 1, 1, 1]])
def test_a_streamed_calendar_is_the_bytes_of_write_events(sizes: list[int]) -> None:
    """``write_calendar`` of the events in any batches writes what ``write_events`` of all
    of them returns: the same header, the zones of every batch first, then the events."""
    cal = calendar()
    events = _spread(cal)[: sum(sizes)]
    batches, at = [], 0
    for size in sizes:
        batches.append(events[at : at + size])
        at += size
    out = io.BytesIO()
    written = write_calendar(cal, iter(batches), out)
    assert (len(events), write_events(cal, events)) == (written, out.getvalue())


def test_a_calendar_spooled_to_disk_is_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``SPOOL_BYTES`` the VEVENTs wait in a temporary file: the same bytes come out."""
    cal = calendar()
    events = _spread(cal)
    monkeypatch.setattr(ical_write, "SPOOL_BYTES", 64)
    out = io.BytesIO()
    write_calendar(cal, [events[:2], events[2:]], out)
    assert write_events(cal, events) == out.getvalue()


def test_a_streamed_calendar_holds_a_batch_at_a_time() -> None:
    """Events of a batch are let go once the next one is read: an export's memory is
    bounded by a batch, not by the calendar (the VEVENTs wait in a spool, not as events)."""
    cal = calendar()
    made = _spread(cal)
    alive: list[list[weakref.ref[Event]]] = []
    let_go: list[bool] = []

    def batches() -> Iterator[list[Event]]:
        for event in made:
            if len(alive) >= 2:  # the batch before the one being written
                gc.collect()
                let_go.append(all(ref() is None for ref in alive[-2]))
            fresh = attrs.evolve(event)  # a copy only this batch holds
            alive.append([weakref.ref(fresh)])
            yield [fresh]

    out = io.BytesIO()
    write_calendar(cal, batches(), out)
    assert ([True] * 3, out.getvalue()) == (let_go, write_events(cal, made))


def test_an_export_reads_back_with_its_uid_as_key() -> None:
    """The reader keys a re-imported export by the UID the writer gave it."""
    cal = calendar()
    event = gala(cal)
    row = next(read_rows(write_events(cal, [event]), where="x", window=WINDOW))
    assert f"uid:event-{event.id}@{cal.backend.calendar_identity()}.events-calendar" == row.key


@pytest.fixture(params=["sqlite", "postgresql"])
def stored(request: pytest.FixtureRequest) -> Calendar:
    """An empty calendar on SQLite or PostgreSQL (the server the PostgreSQL tests use)."""
    if request.param == "sqlite":
        return connect("sqlite://", clock=FixedClock(NOW))
    pytest.importorskip("psycopg")
    from events_calendar.testing.postgres import test_database

    database = test_database()
    database.reset()
    return connect(database.url, clock=FixedClock(NOW))


def test_every_backend_exports_the_same_bytes(stored: Calendar) -> None:
    """The same events, stored on SQLite or PostgreSQL, export as they do from memory."""
    exports = []
    memory = calendar()
    stored.backend.set_calendar_identity(memory.backend.calendar_identity())  # as a copy does
    for cal in (memory, stored):
        events = [gala(cal), gala(cal, title="Fair", all_day=True, organizer={"organizer": "X"})]
        exports.append(write_events(cal, [cal.events.get(e.id) for e in events]))
    stored.close()
    assert exports[0] == exports[1]


# --- the round trip ------------------------------------------------------------------------

ZONES = ["UTC", "UTC+2", "UTC-5:30", "Europe/Paris", "America/New_York", "Australia/Lord_Howe"]
WORDS = ["Jazz", "Live music", "Kids, families", "Théâtre", "Q&A; talks", "C:\\New"]
VENUES = ["Town Hall", "St Mary's Hall; upstairs", "Le Duc, des Lombards", "Café \\ Bar", "A\\N"]
TITLE = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="<"),
    min_size=1,
    max_size=80,
).filter(str.strip)


@st.composite
def event_fields(draw: st.DrawFn) -> dict[str, Any]:
    """The fields of one event: any zone, timed or all-day, a venue, categories."""
    zone = draw(st.sampled_from(ZONES))
    start = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(
        seconds=draw(st.integers(0, 4 * 365 * 86400))
    )
    length = timedelta(seconds=draw(st.integers(0, 3 * 86400)))
    fields: dict[str, Any] = {
        "title": draw(TITLE),
        "timezone": zone,
        "start_date": start,
        "end_date": start + length,
        "all_day": draw(st.booleans()),
        "categories": draw(st.lists(st.sampled_from(WORDS), unique=True, max_size=3)),
    }
    venue = draw(st.none() | st.sampled_from(VENUES))
    if venue is not None:
        fields["venue"] = {"venue": venue}
    return fields


def _shape(cal: Calendar, event: Event) -> tuple[object, ...]:
    related = cal.events.related([event])
    return (
        event.title,
        event.utc_start_date,
        event.utc_end_date,
        event.timezone,
        event.all_day,
        [v.venue for v in related.venues_of(event)],
        sorted(c.name for c in related.categories_of(event)),
    )


@given(st.lists(event_fields(), min_size=1, max_size=6))
def test_write_then_read_keeps_what_an_event_is(drawn: list[dict[str, Any]]) -> None:
    """Titles, instants, zones, all-day flags, venue names and categories survive a round trip."""
    source, target = calendar(), calendar()
    events = [source.events.create(**fields) for fields in drawn]
    rows = list(read_rows(write_events(source, events), where="x", window=WINDOW))
    copies = [target.events.create(**row.fields) for row in rows]
    assert [_shape(source, e) for e in events] == [_shape(target, e) for e in copies]


@pytest.mark.parametrize(
    "description",
    [
        "<p>One; two, three</p>\n<p>Four</p>",
        "<p>C:\\New\\next</p>",
        "<ul>\n<li>a, b</li>\n<li>c; d</li>\n</ul>",
        "Line one\r\nLine two\r\n\r\nC:\\r",
        "<p>x</p>\r\n<p>y</p>",
        "old\rMac\nmixed\r\nbreaks",
    ],
    ids=["semicolon-comma-newline", "backslashes", "list", "crlf", "crlf-markup", "mixed"],
)
def test_a_description_comes_back_as_written(tmp_path: Path, description: str) -> None:
    """``X-ALT-DESC`` is TEXT like ``DESCRIPTION``: markup holding a line break, ``;``, ``,``
    or a backslash is read back unescaped; a CR, which TEXT cannot hold, comes back from
    ``X-EVENTS-CALENDAR-DESCRIPTION``. So an export re-imports as unchanged, and into
    another calendar as it was."""
    source = calendar()
    event = gala(source, description=description)
    data = write_events(source, [event])
    (row,) = read_rows(data, where="x", window=WINDOW)
    path = tmp_path / "export.ics"
    path.write_bytes(data)
    again = source.import_file(path, on_conflict="update")
    assert (description, ["unchanged"]) == (
        row.fields["description"],
        [r.outcome for r in again.rows],
    )


def test_a_description_edited_since_wins_over_its_exact_copy() -> None:
    """The exact copy is read only while it is the ``DESCRIPTION`` but for its CRs: a file
    whose ``DESCRIPTION`` was edited since brings the edit."""
    cal = calendar()
    data = write_events(cal, [gala(cal, description="Line one\r\nLine two")])
    edited = data.replace(b"DESCRIPTION:Line one\\nLine two", b"DESCRIPTION:Line one\\nEdited")
    (row,) = read_rows(edited, where="x", window=WINDOW)
    exact = b"X-EVENTS-CALENDAR-DESCRIPTION:Line one\\r\\nLine two"
    assert (True, "Line one\nEdited") == (exact in data, row.fields["description"])


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris"])
def test_a_calendar_of_no_events_holds_the_vtimezone_of_its_zone(zone: str) -> None:
    """RFC 5545 3.4 wants a component in every VCALENDAR: with no event to write, the
    export holds the calendar's own zone, and reads back as no events."""
    cal = connect("memory://", clock=FixedClock(NOW), settings=Settings(timezone=zone))
    data = write_events(cal, [])
    parsed = icalendar.Calendar.from_ical(data)
    assert ([("VTIMEZONE", zone)], []) == (
        [(c.name, str(c["TZID"])) for c in parsed.subcomponents],
        list(read_rows(data, where="x", window=WINDOW)),
    )


# --- the VEVENT written as text -----------------------------------------------------------
#: Text that exercises every rule a content line is written by: TEXT escapes, RFC 6868
#: parameter escapes and quoting, characters of one to four octets at a fold, ``\\`` and
#: ``^`` where a fold falls, line breaks of every kind, markup.
_PIECES = [*"aZ 09,;:'\"\\^\r\n\t<>/&.", "é", "’", "€", "𝄞", "\\N", "<p>", "</p>", "&amp;"]
_ANY_CHARACTER = st.characters(blacklist_categories=("Cs", "Cn"))
AWKWARD = st.lists(st.sampled_from(_PIECES) | _ANY_CHARACTER, max_size=120).map("".join)


@st.composite
def awkward_event(draw: st.DrawFn) -> dict[str, Any]:
    """An event whose every written field may hold ``AWKWARD`` text, in any zone."""
    start = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(
        seconds=draw(st.integers(0, 4 * 365 * 86400)) // 900 * 900
    )
    fields: dict[str, Any] = {
        "title": draw(AWKWARD.filter(str.strip)),
        "description": draw(AWKWARD),
        "timezone": draw(st.sampled_from([*ZONES, "UTC+5:30", "America/Argentina/Buenos_Aires"])),
        "start_date": start,
        "end_date": start + timedelta(seconds=draw(st.integers(0, 3 * 86400)) // 60 * 60),
        "all_day": draw(st.booleans()),
        "categories": draw(st.lists(AWKWARD.filter(str.strip), unique=True, max_size=3)),
        "website": draw(
            st.sampled_from(["", "https://example.org/a?b=c,d;e", "https://x.example"])
        ),
    }
    if draw(st.booleans()):
        fields["venue"] = {"venue": draw(AWKWARD.filter(str.strip))}
    if draw(st.booleans()):
        fields["organizer"] = {
            "organizer": draw(AWKWARD.filter(str.strip)),
            "email": draw(st.sampled_from(["", "a@b.example", "o'neil+x@club.example"])),
        }
    return fields


@settings(max_examples=300, deadline=None)
@given(awkward_event())
def test_a_vevent_written_as_text_is_the_bytes_icalendar_writes(fields: dict[str, Any]) -> None:
    """``_vevent_bytes`` (lines written as text, the feed's hot path) gives what building the
    VEVENT through ``icalendar`` gives, byte for byte, whatever the text."""
    cal = calendar()
    try:
        event = cal.events.create(**fields)
    except CalendarError:
        assume(False)
    related = cal.events.related([event])
    uid = event_uid(cal, event.id)
    expected = bytes(ical_write._vevent(event, related, uid).to_ical())
    assert ical_write._vevent_bytes(event, related, uid) == expected


@given(st.text(alphabet=st.sampled_from(["a", " ", "\\", "^", "é", "€", "𝄞"]), max_size=400))
def test_a_line_is_folded_where_icalendar_folds_it(line: str) -> None:
    """``_fold`` (slicing ASCII lines) cuts where ``icalendar``'s character walk cuts."""
    from icalendar.parser.string import _foldline

    assert ical_write._fold(line) == _foldline(line)
    assert ical_write._fold(line.encode("ascii", "replace").decode()) == _foldline(
        line.encode("ascii", "replace").decode()
    )
