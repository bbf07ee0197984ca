"""The span an iCalendar import expands recurring events over: the calendar's default list
window by its own clock and zone, or ``window=(start, end)`` (``--window START END``); a
series with no occurrence in it is named in the report, never passed over in silence."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.cli import main
from events_calendar.errors import InvalidParameter
from events_calendar.testing import NOW
from sql_backends import CALENDAR_KINDS, calendar_url

#: A weekly series of three in January 2031, after the default window of ``NOW`` (2026).
SERIES = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
    "BEGIN:VEVENT\r\nUID:series-2031@example.org\r\nSUMMARY:Choir\r\n"
    "DTSTART;TZID=Europe/Paris:20310105T190000\r\nDTEND;TZID=Europe/Paris:20310105T210000\r\n"
    "RRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\n"
    "BEGIN:VEVENT\r\nUID:single-2031@example.org\r\nSUMMARY:Gala\r\n"
    "DTSTART:20310201T190000Z\r\nDTEND:20310201T210000Z\r\nEND:VEVENT\r\n"
    "END:VCALENDAR\r\n"
)
ALL_DATES = {"start_date": "2000-01-01", "end_date": "2040-01-01"}


@pytest.fixture(params=CALENDAR_KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return calendar_url(request.param, tmp_path)


@pytest.fixture
def cal(url: str) -> Iterator[ec.Calendar]:
    calendar = ec.connect(url, clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _ics(tmp_path: Path, text: str = SERIES) -> Path:
    path = tmp_path / "season.ics"
    path.write_text(text, encoding="utf-8")
    return path


def _starts(cal: ec.Calendar) -> list[tuple[str, str]]:
    return [(e.title, f"{e.start_date:%Y-%m-%d %H:%M}") for e in cal.events.iter(**ALL_DATES)]


def test_a_series_after_the_window_is_named_not_passed_over(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """The series has no occurrence from yesterday to 24 months ahead, so none is imported,
    and the report says which series and how to import it; the file's single event is
    imported. The report used to read "no events found in the file" for a file of series."""
    report = cal.import_file(_ics(tmp_path))
    assert (
        "created 1, updated 0, unchanged 0, refused 0",
        "1 recurring series with no occurrence from 2026-11-21 to 2028-11-22 was not imported"
        " (UID series-2031@example.org); import it with window=(start, end)"
        " (--window START END)",
        [("Gala", "2031-02-01 19:00")],
    ) == (report.summary(), report.note, _starts(cal))


def test_a_window_given_expands_the_series_over_it(cal: ec.Calendar, tmp_path: Path) -> None:
    """``window=(start, end)`` takes dates as list filters do, each day whole."""
    report = cal.import_file(_ics(tmp_path), window=("2031-01-05", "2031-01-12"))
    assert ("created 3, updated 0, unchanged 0, refused 0", "") == (
        report.summary(),
        report.note,
    )
    assert [
        ("Choir", "2031-01-05 19:00"),
        ("Choir", "2031-01-12 19:00"),
        ("Gala", "2031-02-01 19:00"),
    ] == _starts(cal)


def test_one_side_of_the_window_keeps_the_defaults_other(cal: ec.Calendar, tmp_path: Path) -> None:
    """``None`` on a side is the default window's side: 2031 is within 24 months of 2030."""
    report = cal.import_file(_ics(tmp_path), window=(None, "2031-12-31"))
    assert 4 == report.created


def test_the_default_window_follows_the_calendars_clock(url: str, tmp_path: Path) -> None:
    """At the calendar's clock (not the machine's), 2031 is inside the default window."""
    with ec.connect(url, clock=ec.FixedClock(datetime(2030, 12, 1, tzinfo=UTC))) as cal:
        report = cal.import_file(_ics(tmp_path))
        assert ("created 4, updated 0, unchanged 0, refused 0", "") == (
            report.summary(),
            report.note,
        )


@pytest.mark.parametrize(
    ("window", "why"),
    [
        ("2031-01-01", "send \\(start, end\\)"),
        (("2031-01-01",), "send \\(start, end\\)"),
        (("2031-02-01", "2031-01-01"), "the window ends before it starts"),
        (("someday", None), "window"),
    ],
)
def test_a_window_that_is_none_is_refused_before_reading(
    cal: ec.Calendar, tmp_path: Path, window: object, why: str
) -> None:
    with pytest.raises(InvalidParameter, match=why) as caught:
        cal.import_file(_ics(tmp_path), window=window)  # type: ignore[arg-type]
    assert (["window"], []) == (list(caught.value.fields), _starts(cal))


def test_a_window_for_a_csv_file_is_refused(cal: ec.Calendar, tmp_path: Path) -> None:
    """Only an iCalendar file has recurring events: a window would do nothing there."""
    path = tmp_path / "season.csv"
    path.write_text("Event Name,Event Start Date\nGala,2031-05-01\n", encoding="utf-8")
    with pytest.raises(InvalidParameter, match="recurring events of an iCalendar") as caught:
        cal.import_file(path, window=("2031-01-01", "2031-12-31"))
    assert (["window"], []) == (list(caught.value.fields), _starts(cal))


def test_the_cli_takes_the_window_and_prints_the_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'cal.db'}"
    path = str(_ics(tmp_path))
    assert 0 == main(["import", path, "--db", db, "--dry-run"])
    said = capsys.readouterr().out
    assert 0 == main(["import", path, "--db", db, "--window", "2031-01-01", "2031-01-31"])
    assert (
        "was not imported (UID series-2031@example.org)" in said,
        "no events found" in said,
        "created 4, updated 0, unchanged 0, refused 0",
    ) == (True, False, capsys.readouterr().out.strip().splitlines()[-1])


def test_map_is_the_clis_name_for_a_mapping(cal: ec.Calendar, tmp_path: Path) -> None:
    """``map=`` as ``--map``; ``mapping=``, its earlier name, still works, not both at once."""
    path = tmp_path / "other.csv"
    path.write_text("What,When\nGala,2031-05-01\n", encoding="utf-8")
    columns = {"What": "title", "When": "start_date"}
    with pytest.raises(InvalidParameter, match="not both") as caught:
        cal.import_file(path, map=columns, mapping=columns)
    assert ["map"] == list(caught.value.fields)
    made = cal.import_file(path, map=columns).created
    again = cal.import_file(path, mapping=columns).unchanged
    assert (1, 1, [("Gala", "2031-05-01 00:00")]) == (made, again, _starts(cal))
