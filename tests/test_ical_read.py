"""Reading .ics files into import rows (``events_calendar.io.ical.read_rows``)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events_calendar import connect
from events_calendar.dates import resolve_zone
from events_calendar.io import ical_chunks, ical_read
from events_calendar.io.ical import MAX_OCCURRENCES, count_vevents, read_file, read_rows
from events_calendar.io.rows import SourceRow, UnreadableFile

DATA = Path(__file__).parent / "data" / "ical"
WINDOW = (datetime(2031, 1, 1, tzinfo=UTC), datetime(2032, 1, 1, tzinfo=UTC))
PARIS = ZoneInfo("Europe/Paris")
LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")


def naive(*parts: int) -> datetime:
    """A wall time with no zone: what floating times and all-day dates are read as."""
    return datetime(*parts)  # noqa: DTZ001 - floating on purpose


def rows(name: str, **options: object) -> list[SourceRow]:
    """The rows of one fixture, read over 2031."""
    data = (DATA / name).read_bytes()
    return list(read_rows(data, where=name, window=WINDOW, **options))  # type: ignore[arg-type]


def test_a_google_export_maps_every_property() -> None:
    """A Google event with TZID, organizer, categories, URL and escapes becomes create() fields."""
    expected = SourceRow(
        "UID 0a1b2c3d4e5f@google.com",
        "event",
        {
            "title": "Summer jam session",
            "start_date": datetime(2031, 6, 14, 20, 30, tzinfo=PARIS),
            "end_date": datetime(2031, 6, 14, 23, 30, tzinfo=PARIS),
            "timezone": "Europe/Paris",
            "description": "Doors at 20:00, music at 20:30.\nBring a friend; it's free.",
            "venue": {"venue": "Le Duc des Lombards"},
            "organizer": [{"organizer": "Jazz Club Paris", "email": "hello@jazzclub.example.org"}],
            "categories": ["Jazz", "Live music"],
            "website": "https://jazzclub.example.org/jam",
        },
        key="uid:0a1b2c3d4e5f@google.com",
        one_of=frozenset({"venue", "organizer"}),  # a VEVENT holds one of each
    )
    assert expected == rows("google.ics")[0]


def test_utc_times_of_a_google_export_take_its_calendar_zone() -> None:
    """With X-WR-TIMEZONE, a ``Z`` time is shown in that zone (what Google means by it)."""
    fields = rows("google.ics")[1].fields
    assert (datetime(2031, 6, 20, 19, 0, tzinfo=PARIS), "Europe/Paris") == (
        fields["start_date"],
        fields["timezone"],
    )


def test_tentative_and_transparent_events_are_published_like_any_other() -> None:
    """STATUS:TENTATIVE and TRANSP:TRANSPARENT set no field."""
    assert ["title", "start_date", "end_date", "timezone"] == list(rows("google.ics")[1].fields)


def test_an_outlook_windows_zone_name_becomes_its_iana_zone() -> None:
    """``TZID="Eastern Standard Time"`` (with Outlook's VTIMEZONE) is America/New_York."""
    fields = rows("outlook.ics")[0].fields
    assert (
        datetime(2031, 3, 10, 9, 30, tzinfo=NEW_YORK),
        datetime(2031, 3, 10, 11, 0, tzinfo=NEW_YORK),
        "America/New_York",
    ) == (fields["start_date"], fields["end_date"], fields["timezone"])


def test_an_all_day_event_ends_on_the_day_before_its_exclusive_dtend() -> None:
    """DATE values 2031-04-03 to 2031-04-05 are the all-day event of 3 and 4 April."""
    expected = {
        "title": "Spring fair",
        "start_date": naive(2031, 4, 3),
        "all_day": True,
        "end_date": naive(2031, 4, 4),
    }
    assert expected == rows("outlook.ics")[1].fields


def test_an_all_day_event_without_dtend_lasts_one_day() -> None:
    """A DATE DTSTART alone is one day long (RFC 5545 3.6.1)."""
    fields = rows("allday.ics")[1].fields
    assert (naive(2031, 8, 15), naive(2031, 8, 15)) == (
        fields["start_date"],
        fields["end_date"],
    )


def test_all_day_dates_are_read_in_the_given_zone() -> None:
    """With ``zone``, all-day dates are midnights of that zone, which the event takes."""
    fields = rows("allday.ics", zone=NEW_YORK)[0].fields
    assert (
        datetime(2031, 8, 1, tzinfo=NEW_YORK),
        datetime(2031, 8, 3, tzinfo=NEW_YORK),
        "America/New_York",
    ) == (fields["start_date"], fields["end_date"], fields["timezone"])


def test_floating_times_are_left_to_the_calendar_zone_without_a_zone() -> None:
    """Floating times stay naive, without ``timezone``: the calendar reads them in its zone."""
    expected = {
        "title": "Morning yoga",
        "start_date": naive(2031, 7, 1, 9, 0),
        "end_date": naive(2031, 7, 1, 10, 30),
    }
    assert expected == rows("floating.ics")[0].fields


def test_floating_times_are_read_in_the_given_zone() -> None:
    """With ``zone``, floating times are wall times of that zone."""
    fields = rows("floating.ics", zone=LONDON)[0].fields
    assert (datetime(2031, 7, 1, 9, 0, tzinfo=LONDON), "Europe/London") == (
        fields["start_date"],
        fields["timezone"],
    )


def test_duration_gives_the_end_of_a_timed_event() -> None:
    """DTSTART 13:00 with DURATION:PT2H30M ends at 15:30 in the same zone."""
    fields = rows("duration.ics")[0].fields
    assert datetime(2031, 9, 10, 15, 30, tzinfo=NEW_YORK) == fields["end_date"]


def test_duration_in_days_gives_the_last_day_of_an_all_day_event() -> None:
    """A DATE DTSTART with DURATION:P2D covers two days."""
    fields = rows("duration.ics")[1].fields
    assert (naive(2031, 9, 20), naive(2031, 9, 21), True) == (
        fields["start_date"],
        fields["end_date"],
        fields["all_day"],
    )


def test_a_weekly_series_expands_without_its_exdate() -> None:
    """RRULE COUNT=5 less one EXDATE: four occurrences, keyed by their recurrence ids."""
    keys = [r.key for r in rows("recurring.ics") if r.where.startswith("UID choir")]
    assert [
        "uid:choir@example.org#20310106T193000Z",
        "uid:choir@example.org#20310120T193000Z",
        "uid:choir@example.org#20310127T193000Z",
        "uid:choir@example.org#20310203T193000Z",
    ] == keys


def test_a_recurrence_id_override_replaces_its_occurrence() -> None:
    """The occurrence of 20 January comes from its override: moved to the 21st, new title."""
    moved = rows("recurring.ics")[1]
    assert (
        SourceRow(
            "UID choir@example.org 20310120T193000Z",
            "event",
            {
                "title": "Choir practice (moved to Tuesday)",
                "start_date": datetime(2031, 1, 21, 20, 0, tzinfo=LONDON),
                "end_date": datetime(2031, 1, 21, 21, 30, tzinfo=LONDON),
                "timezone": "Europe/London",
                "venue": {"venue": "St Mary's Hall"},
            },
            key="uid:choir@example.org#20310120T193000Z",
            one_of=frozenset({"venue", "organizer"}),
        )
        == moved
    )


class _CountedComponents(list[Any]):
    """A calendar's subcomponents that count how often they are walked."""

    walks = 0

    def __iter__(self) -> Iterator[Any]:
        type(self).walks += 1
        return super().__iter__()


def test_many_series_are_read_in_one_walk_of_the_calendar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each series is expanded from its own components, found in one walk of the calendar:
    looking them up by walking every component per series made a file of many series
    quadratic (8,000 weekly series took 67 s instead of 4)."""
    series = "".join(
        f"BEGIN:VEVENT\r\nUID:s{n}@example.org\r\nSUMMARY:Series {n}\r\n"
        "DTSTART:20310105T180000Z\r\nRRULE:FREQ=WEEKLY;COUNT=2\r\nEND:VEVENT\r\n"
        for n in range(30)
    )
    data = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{series}END:VCALENDAR\r\n".encode()
    parse = ical_read._parse

    def counted(text: str, where: str) -> list[Any]:
        calendars = parse(text, where)
        for calendar in calendars:
            calendar.subcomponents = _CountedComponents(calendar.subcomponents)
        return calendars

    monkeypatch.setattr(ical_read, "_parse", counted)
    monkeypatch.setattr(_CountedComponents, "walks", 0)
    found = list(read_rows(data, where="series.ics", window=WINDOW))
    assert (60, "uid:s29@example.org#20310112T180000Z") == (len(found), found[-1].key)
    assert _CountedComponents.walks <= 3


def test_a_cancelled_occurrence_becomes_a_draft() -> None:
    """STATUS:CANCELLED maps to ``status="draft"``: imported, never shown publicly."""
    assert "draft" == rows("recurring.ics")[2].fields["status"]


def test_rdate_adds_occurrences_with_the_series_duration() -> None:
    """DTSTART plus two RDATEs, each one hour long (DURATION:PT1H)."""
    talks = [r.fields for r in rows("recurring.ics") if r.where.startswith("UID talks")]
    assert [
        (datetime(2031, 3, 5, 18, tzinfo=UTC), datetime(2031, 3, 5, 19, tzinfo=UTC)),
        (datetime(2031, 3, 12, 18, tzinfo=UTC), datetime(2031, 3, 12, 19, tzinfo=UTC)),
        (datetime(2031, 4, 2, 17, tzinfo=UTC), datetime(2031, 4, 2, 18, tzinfo=UTC)),
    ] == [(f["start_date"], f["end_date"]) for f in talks]


def test_a_series_is_expanded_only_inside_the_window() -> None:
    """A window of January 2031 keeps the three January occurrences of the choir."""
    data = (DATA / "recurring.ics").read_bytes()
    january = (datetime(2031, 1, 1, tzinfo=UTC), datetime(2031, 2, 1, tzinfo=UTC))
    found = [r.where for r in read_rows(data, where="f", window=january)]
    assert [
        "UID choir@example.org 20310106T193000Z",
        "UID choir@example.org 20310120T193000Z",
        "UID choir@example.org 20310127T193000Z",
    ] == found


def one_event(*lines: str, calendar: tuple[str, ...] = ()) -> bytes:
    """A file of one VEVENT of these content lines, in a VCALENDAR with these properties."""
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", *calendar]
    event = ["BEGIN:VEVENT", "DTSTAMP:20310101T000000Z", *lines, "END:VEVENT"]
    return "\r\n".join([*head, *event, "END:VCALENDAR", ""]).encode()


def series(rule: str) -> bytes:
    """A file of one series starting on 1 January 2031 with this RRULE."""
    return one_event(
        "UID:hourly@example.org", "DTSTART:20310101T000000Z", f"RRULE:{rule}", "SUMMARY:Chime"
    )


def test_a_series_with_too_many_occurrences_is_refused() -> None:
    """An hourly rule over a year is one refused row, not thousands of events."""
    data = series("FREQ=HOURLY")
    why = (
        f"the series has more than {MAX_OCCURRENCES} occurrences in the import window; "
        "import a shorter window"
    )
    expected = [
        SourceRow("UID hourly@example.org", "event", key="uid:hourly@example.org", refused=why)
    ]
    assert expected == list(read_rows(data, where="f", window=WINDOW))


def test_a_rule_repeating_every_minute_is_refused_before_expansion() -> None:
    """FREQ=MINUTELY is refused at once (expanding it would take minutes)."""
    why = (
        "its RRULE repeats it every second or minute (FREQ=MINUTELY); "
        "import no more than hourly repetitions"
    )
    expected = [
        SourceRow("UID hourly@example.org", "event", key="uid:hourly@example.org", refused=why)
    ]
    assert expected == list(read_rows(series("FREQ=MINUTELY"), where="f", window=WINDOW))


def test_an_unreadable_rule_is_refused() -> None:
    """An RRULE the rule engine cannot expand is one refused row."""
    found = list(read_rows(series("FREQ=WEEKLY;BYDAY=XX"), where="f", window=WINDOW))
    why = (
        "its recurrence cannot be expanded: Cannot access 'get' on broken property 'RRULE' "
        "(expected 'vRecur'): Expected weekday abbreviation, got: XX"
    )
    assert [("UID hourly@example.org", why)] == [(r.where, r.refused) for r in found]


def test_unusable_vevents_are_refused_with_their_reason() -> None:
    """Each VEVENT the reader cannot use is one refused row; the good one is read."""
    found = [(r.where, r.refused) for r in rows("refused.ics")]
    assert [
        ("VEVENT 1", "it has no UID"),
        ("UID untitled@example.org", "it has no SUMMARY (the event's title)"),
        ("UID undated@example.org", "it has no DTSTART (the event's start)"),
        (
            "UID mixed@example.org",
            "its dates cannot be read: DTSTART and DTEND must be of the same type, "
            "either date or datetime.",
        ),
        (
            "UID nowhere@example.org",
            "its time zone 'Mars/Olympus_Mons' is unknown and the file describes none",
        ),
        ("UID good@example.org", None),
    ] == found


def test_an_event_without_dtend_ends_when_it_starts() -> None:
    """A date-time DTSTART alone is an instant (RFC 5545 3.6.1)."""
    fields = rows("refused.ics")[-1].fields
    assert fields["start_date"] == fields["end_date"]


def test_an_unreadable_file_is_refused_before_any_row_is_asked_for() -> None:
    """``read_rows`` raises when called, so the engine can stop before it starts."""
    with pytest.raises(UnreadableFile, match="binary"):
        read_rows(b"\x00\x01", where="x.ics")


def test_a_utf16_file_is_named_as_such() -> None:
    """A UTF-16 file (as some Windows tools save) is not called binary: the error says to
    save it as UTF-8."""
    data = (DATA / "allday.ics").read_text(encoding="utf-8").encode("utf-16")
    with pytest.raises(UnreadableFile) as raised:
        read_rows(data, where="w.ics")
    assert "w.ics: it is UTF-16 text, not UTF-8; save it as UTF-8 and import it again" == str(
        raised.value
    )


@given(
    lines=st.lists(st.integers(0, 40), max_size=12),
    ending=st.sampled_from([b"\n", b"\r\n"]),
    last_ends=st.booleans(),
    max_line=st.integers(1, 30),
)
def test_read_file_refuses_the_first_line_over_the_limit(
    lines: list[int], ending: bytes, last_ends: bool, max_line: int
) -> None:
    """Whatever the block boundaries, ``read_file`` returns the bytes when every line (its
    break included) fits ``max_line``, and otherwise names the first line that does not."""
    texts = [b"x" * n + ending for n in lines]
    if texts and not last_ends:
        texts[-1] = texts[-1].removesuffix(ending)
    data = b"".join(texts)
    too_long = [n for n, text in enumerate(texts, 1) if len(text) > max_line]
    if not too_long:
        assert data == read_file(io.BytesIO(data), where="f", max_line=max_line)
    else:
        with pytest.raises(UnreadableFile, match=f"^f: line {too_long[0]} is longer than"):
            read_file(io.BytesIO(data), where="f", max_line=max_line)


def test_a_file_without_vevents_yields_nothing() -> None:
    """A calendar of to-dos only gives no rows (the engine says "no events found")."""
    assert [] == rows("no_events.ics")


def test_count_vevents_counts_components_not_occurrences() -> None:
    """recurring.ics holds four VEVENTs: a series, two overrides and an RDATE series."""
    assert (4, 0) == (
        count_vevents((DATA / "recurring.ics").read_bytes(), where="r"),
        count_vevents((DATA / "no_events.ics").read_bytes(), where="n"),
    )


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("binary.ics", "binary.ics: this is a binary file, not an iCalendar (.ics) file"),
        (
            "latin1.ics",
            "latin1.ics: the file is not UTF-8 text (byte 0xE9 at offset 70); iCalendar files "
            "are UTF-8, so save it as UTF-8 and import it again",
        ),
        (
            "not_ical.ics",
            "not_ical.ics: this is not an iCalendar file: it does not begin with BEGIN:VCALENDAR",
        ),
        (
            "truncated.ics",
            "truncated.ics: the iCalendar file is truncated: it does not end with END:VCALENDAR",
        ),
    ],
)
def test_a_malformed_file_is_unreadable_with_one_sentence(name: str, why: str) -> None:
    """Binary, wrongly encoded, foreign and truncated files raise ``UnreadableFile``."""
    with pytest.raises(UnreadableFile) as raised:
        rows(name)
    assert why == str(raised.value)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (
            b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VCALENDAR\r\n",
            "b.ics: the iCalendar file cannot be read: its BEGIN and END lines do not pair up",
        ),
        (
            b"BEGIN:VCALENDAR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            "b.ics: the iCalendar file cannot be read: END encountered without an "
            "accompanying BEGIN!",
        ),
    ],
)
def test_a_broken_structure_is_unreadable(data: bytes, why: str) -> None:
    """Unpaired BEGIN and END lines make a file the parser refuses, in one sentence."""
    with pytest.raises(UnreadableFile) as raised:
        list(read_rows(data, where="b.ics"))
    assert why == str(raised.value)


def test_rows_create_events_as_they_are() -> None:
    """Every row of the Google export is accepted by ``cal.events.create``."""
    cal = connect("memory://")
    created = [cal.events.create(**row.fields) for row in rows("google.ics")]
    venue = cal.venues.get(created[0].venue[0])
    assert (
        ["Summer jam session", "Fête de la musique warm-up"],
        "Le Duc des Lombards",
        datetime(2031, 6, 14, 18, 30, tzinfo=UTC),
    ) == ([e.title for e in created], venue.venue, created[0].utc_start_date)


def test_an_offset_zone_label_is_read_back_as_that_label() -> None:
    """``TZID=UTC+2`` (as the export writes it) is the library's ``UTC+2`` zone."""
    data = one_event("UID:o@example.org", "DTSTART;TZID=UTC+2:20310701T093000", "SUMMARY:Offset")
    fields = next(read_rows(data, where="o", window=WINDOW)).fields
    assert ("UTC+2", datetime(2031, 7, 1, 9, 30, tzinfo=resolve_zone("UTC+2"))) == (
        fields["timezone"],
        fields["start_date"],
    )


def test_an_unknown_x_wr_timezone_is_ignored() -> None:
    """``X-WR-TIMEZONE:Mars/Base`` leaves UTC times in UTC instead of failing the file."""
    data = one_event(
        "UID:m@example.org",
        "DTSTART:20310101T100000Z",
        "SUMMARY:Launch",
        calendar=("X-WR-TIMEZONE:Mars/Base",),
    )
    fields = next(read_rows(data, where="m", window=WINDOW)).fields
    assert (datetime(2031, 1, 1, 10, tzinfo=UTC), "UTC") == (
        fields["start_date"],
        fields["timezone"],
    )


def _events(*events: tuple[str, ...], calendar: tuple[str, ...] = ()) -> bytes:
    """A file of these VEVENTs (each its content lines) in a VCALENDAR of these properties."""
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", *calendar]
    body = [
        line
        for event in events
        for line in ("BEGIN:VEVENT", "DTSTAMP:20310101T000000Z", *event, "END:VEVENT")
    ]
    return "\r\n".join([*head, *body, "END:VCALENDAR", ""]).encode()


UNKNOWN_ZONE = (
    "UID:nowhere@example.org",
    "DTSTART;TZID=Nowhere/Zone:20310105T190000",
    "DTEND;TZID=Nowhere/Zone:20310105T210000",
    "SUMMARY:Gala",
)
UTC_EVENT = ("UID:utc@example.org", "DTSTART:20310106T180000Z", "SUMMARY:Talk")
NOWHERE = "its time zone 'Nowhere/Zone' is unknown and the file describes none"


@pytest.mark.parametrize("declared", [(), ("X-WR-TIMEZONE:Europe/Paris",)], ids=["", "x-wr"])
def test_an_unknown_tzid_refuses_its_event_whatever_the_x_wr_timezone(
    declared: tuple[str, ...],
) -> None:
    """A TZID no zone database knows and no VTIMEZONE describes refuses its event, in a file
    with an X-WR-TIMEZONE (every Google export) too: it was read as that zone's wall time.
    The file's other events are read as its X-WR-TIMEZONE says."""
    data = _events(UNKNOWN_ZONE, UTC_EVENT, calendar=declared)
    gala, talk = read_rows(data, where="f", window=WINDOW)
    zone = PARIS if declared else UTC
    assert (NOWHERE, {}, datetime(2031, 1, 6, 18, tzinfo=UTC).astimezone(zone)) == (
        gala.refused,
        dict(gala.fields),
        talk.fields["start_date"],
    )


def test_an_unknown_tzid_refuses_a_series_whatever_the_x_wr_timezone() -> None:
    """A weekly series in an unknown zone is one refused row, in a plain file and in a
    Google export: the rule engine dropped the TZID and expanded it as floating times, read
    in the X-WR-TIMEZONE or left to the calendar's zone."""
    weekly = (*UNKNOWN_ZONE, "RRULE:FREQ=WEEKLY;COUNT=2")
    found = [
        [
            (r.where, r.refused)
            for r in read_rows(_events(weekly, calendar=declared), where="f", window=WINDOW)
        ]
        for declared in [(), ("X-WR-TIMEZONE:Europe/Paris",)]
    ]
    assert [[("UID nowhere@example.org", NOWHERE)]] * 2 == found


def test_a_zone_known_only_from_its_vtimezone_is_read_in_a_google_export() -> None:
    """An unknown TZID that a VTIMEZONE describes is no unknown zone: with an X-WR-TIMEZONE,
    its instant is kept and shown in that zone."""
    data = CUSTOM_ZONE.replace(
        b"PRODID:-//t//t//EN\r\n", b"PRODID:-//t//t//EN\r\nX-WR-TIMEZONE:Europe/Paris\r\n"
    )
    fields = next(read_rows(data, where="c", window=WINDOW)).fields
    assert (datetime(2031, 7, 1, 10, tzinfo=PARIS), "Europe/Paris") == (
        fields["start_date"],
        fields["timezone"],
    )


CUSTOM_ZONE = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VTIMEZONE\r\n"
    b"TZID:(GMT+01.00) Amsterdam / Berlin\r\nBEGIN:STANDARD\r\nDTSTART:16011028T030000\r\n"
    b"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
    b"END:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010325T020000\r\n"
    b"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
    b"END:DAYLIGHT\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:c@example.org\r\n"
    b"DTSTAMP:20310101T000000Z\r\n"
    b'DTSTART;TZID="(GMT+01.00) Amsterdam / Berlin":20310701T100000\r\n'
    b"SUMMARY:Canal tour\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def test_a_zone_known_only_from_its_vtimezone_keeps_the_instant_in_utc() -> None:
    """10:00 in a made-up zone of +02:00 in summer is 08:00 UTC, shown in UTC."""
    fields = next(read_rows(CUSTOM_ZONE, where="c", window=WINDOW)).fields
    assert (datetime(2031, 7, 1, 8, tzinfo=UTC), "UTC") == (
        fields["start_date"],
        fields["timezone"],
    )


def test_a_zone_known_only_from_its_vtimezone_is_shown_in_the_given_zone() -> None:
    """With ``zone``, the same instant is shown on that zone's clock."""
    fields = next(read_rows(CUSTOM_ZONE, where="c", window=WINDOW, zone=PARIS)).fields
    assert (datetime(2031, 7, 1, 10, tzinfo=PARIS), "Europe/Paris") == (
        fields["start_date"],
        fields["timezone"],
    )


# --- reading a file a chunk at a time ---------------------------------------------------------

READABLE = ["allday.ics", "duration.ics", "floating.ics", "google.ics", "outlook.ics",
            "recurring.ics", "refused.ics", "no_events.ics"]  # fmt: skip


def _whole(data: bytes, where: str, monkeypatch: pytest.MonkeyPatch) -> list[SourceRow]:
    """The rows of a file parsed whole, as before chunks (and as odd files still are)."""
    with monkeypatch.context() as patch:
        patch.setattr(ical_read, "chunks", lambda text: None)
        return list(read_rows(data, where=where, window=WINDOW))


@pytest.mark.parametrize("name", READABLE)
@pytest.mark.parametrize("size", [1, 2])
def test_a_file_read_in_chunks_gives_the_rows_of_the_whole_file(
    monkeypatch: pytest.MonkeyPatch, name: str, size: int
) -> None:
    """Chunks of one or two VEVENTs (each with the file's zones and properties) give every
    fixture's rows, refusals and numbering as one parse of the whole file gives them."""
    data = (DATA / name).read_bytes()
    whole = _whole(data, name, monkeypatch)
    monkeypatch.setattr(ical_chunks, "CHUNK_EVENTS", size)
    assert whole == list(read_rows(data, where=name, window=WINDOW))


def _calendar(*events: str, head: str = "") -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\n{e}END:VEVENT\r\n" for e in events)
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{head}{body}END:VCALENDAR\r\n".encode()


def test_a_chunk_holds_a_series_with_its_late_override(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks end only where every UID so far is complete: an override at the end of the
    file keeps its series, and the events between, in one chunk; the others are cut."""
    parsed: list[int] = []
    parse = ical_read._parse

    def counting(text: str, where: str) -> list[Any]:
        parsed.append(text.count("BEGIN:VEVENT"))
        return parse(text, where)

    data = _calendar(
        "UID:first@x\r\nSUMMARY:First\r\nDTSTART:20310105T180000Z\r\n",
        "UID:choir@x\r\nSUMMARY:Choir\r\nDTSTART:20310106T180000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n",
        "UID:between@x\r\nSUMMARY:Between\r\nDTSTART:20310107T180000Z\r\n",
        "UID:choir@x\r\nRECURRENCE-ID:20310113T180000Z\r\nSUMMARY:Moved\r\n"
        "DTSTART:20310114T180000Z\r\n",
        "UID:last@x\r\nSUMMARY:Last\r\nDTSTART:20310125T180000Z\r\n",
    )
    whole = _whole(data, "late.ics", monkeypatch)
    monkeypatch.setattr(ical_chunks, "CHUNK_EVENTS", 1)
    monkeypatch.setattr(ical_read, "_parse", counting)
    found = list(read_rows(data, where="late.ics", window=WINDOW))
    titles = [row.fields["title"] for row in found]
    assert ([1, 3, 1], whole) == (parsed, found)
    assert ["First", "Choir", "Moved", "Choir", "Between", "Last"] == titles


def test_vevents_without_uid_keep_their_numbers_across_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refusal names a VEVENT by its number in the calendar, whatever chunk it is in."""
    data = _calendar(
        "UID:a@x\r\nSUMMARY:A\r\nDTSTART:20310105T180000Z\r\n",
        "SUMMARY:No uid\r\nDTSTART:20310106T180000Z\r\n",
        "SUMMARY:No uid either\r\nDTSTART:20310107T180000Z\r\n",
    )
    monkeypatch.setattr(ical_chunks, "CHUNK_EVENTS", 1)
    found = list(read_rows(data, where="x.ics", window=WINDOW))
    assert ["UID a@x", "VEVENT 2", "VEVENT 3"] == [row.where for row in found]


@pytest.mark.parametrize(
    "head",
    [
        "BEGIN:VTODO\r\nUID:t@x\r\nSUMMARY:A task\r\nEND:VTODO\r\n",
        "BEGIN;X-A=1:VJOURNAL\r\nEND:VJOURNAL\r\n",
    ],
    ids=["another-component", "begin-with-parameters"],
)
def test_a_file_chunks_cannot_read_is_parsed_whole(head: str) -> None:
    """Components other than VEVENT and VTIMEZONE, or BEGIN lines with parameters: the file
    is not cut but parsed whole, and its events still come out."""
    data = _calendar("UID:a@x\r\nSUMMARY:A\r\nDTSTART:20310105T180000Z\r\n", head=head)
    text = data.decode()
    assert (None, ["A"]) == (
        ical_chunks.chunks(text),
        [row.fields["title"] for row in read_rows(data, where="x.ics", window=WINDOW)],
    )


def test_an_escaped_comma_stays_inside_its_category_name() -> None:
    """``CATEGORIES:Rock\\, Pop,Jazz`` names two categories, the first with a comma in it
    (RFC 5545 TEXT escaping), and the calendar does not split it again."""
    cal = connect("memory://")
    data = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:comma@example.org\r\n"
        b"SUMMARY:Concert\r\nDTSTART:20310105T100000Z\r\nCATEGORIES:Rock\\, Pop,Jazz\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    (row,) = read_rows(data, where="x.ics", window=WINDOW)
    event = cal.events.create(**row.fields)
    assert (["Rock, Pop", "Jazz"], ["Jazz", "Rock, Pop"]) == (
        row.fields["categories"],
        sorted(cal.categories.get(i).name for i in event.categories),
    )
