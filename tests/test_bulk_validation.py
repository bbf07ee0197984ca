"""The bulk loader's row reader answers exactly what ``read_input`` answers, row for row."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import CalendarError
from events_calendar.records import Event, input_fields
from events_calendar.row_reader import RowReader
from events_calendar.validation import read_input

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)

#: Values for any field: right for some input kinds, wrong for the others.
VALUES: list[Any] = [
    "Gala", " Gala ", "", "  ", "<b>Bold</b> night", "a\x00b", "\ud800",
    "2031-03-01 10:00", "2031-03-01", "2031-03-01T10:00:00+02:00", "tomorrow", "never",
    "Europe/Paris", "UTC", "UTC+2", "Mars/Base",
    "publish", "draft", "private", "bogus",
    "true", "false", "yes", "1", "0",
    "https://example.org", "https://example.org/a.png", "http://127.0.0.1/a.png", "ftp://x",
    "Free", "10 EUR", "10 - 20", "-5",
    "Music", "music", "1,2",
    0, 1, 2, 5, 999, -1, 1.5, float("nan"), True, False, None,
    [], [1], [2], [999], ["Music"], ["1"], [True], [1, "Jazz", 1], (1,),
    {"venue": "Pop-up Hall"}, {"id": 1}, [{"organizer": "Jane"}],
]  # fmt: skip
FIELDS = [*input_fields(Event), "date_utc", "unknown"]
VALID = {"title": "Row", "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 12:00"}

#: Rows mostly valid, in one of a few zones (a date string means another instant in each).
rows = st.lists(
    st.builds(
        lambda zone, changes: VALID | zone | changes,
        st.sampled_from([{}, {"timezone": "Europe/Paris"}, {"timezone": "America/New_York"}]),
        st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(VALUES), max_size=4) | st.just({}),
    ),
    min_size=1,
    max_size=8,
)


@pytest.fixture(scope="module")
def cal() -> ec.Calendar:
    """Venue 1, organizer 2, category 1 ("Music"), tag 2 and user 1 exist."""
    calendar = ec.Calendar(MemoryBackend(), clock=ec.FixedClock(NOW))
    calendar.venues.create(venue="Grand Hall")
    calendar.organizers.create(organizer="Acme")
    calendar.categories.create(name="Music")
    calendar.tags.create(name="Outdoor")
    calendar.users.create("someone", role="editor")
    return calendar


def _outcome(read: Any) -> Any:
    """What reading a row gave: the cleaned fields, or the error's kind and fields."""
    try:
        return read()
    except CalendarError as error:
        return (type(error), error.fields, getattr(error, "codes", None))


@given(rows)
def test_row_reader_reads_every_row_as_read_input(cal: ec.Calendar, batch: list[Any]) -> None:
    """Rows read one after another by one reader (so values repeat and are remembered)
    clean to what ``read_input`` gives for each alone, or fail with the same error."""
    ctx = cal.events._ctx
    reader = RowReader(Event, ctx.remembering(), creating=True)
    fast = [_outcome(lambda row=row: reader.read(row)) for row in batch]
    slow = [
        _outcome(lambda row=row: read_input(Event, row, ctx.remembering(), creating=True))
        for row in batch
    ]
    assert slow == fast


def test_row_reader_reads_nan_as_read_input(cal: ec.Calendar) -> None:
    """A NaN (a pandas gap) means an empty field for the row reader too, not the text 'nan'."""
    ctx = cal.events._ctx
    row = VALID | {"description": float("nan"), "cost": float("nan")}
    reader = RowReader(Event, ctx.remembering(), creating=True)
    assert read_input(Event, row, ctx.remembering(), creating=True) == reader.read(row)


@given(rows)
def test_batch_read_is_every_row_read_alone(cal: ec.Calendar, batch: list[Any]) -> None:
    """A batch read a column at a time gives each row what ``read_input`` gives it alone;
    a batch holding any row the shortcut refuses is not read (``None``), for ``read``."""
    ctx = cal.events._ctx
    reader = RowReader(Event, ctx.remembering(), creating=True)
    read = reader.read_batch(batch)
    slow = [
        _outcome(lambda row=row: read_input(Event, row, ctx.remembering(), creating=True))
        for row in batch
    ]
    if read is not None:
        assert slow == read


#: Rows the shortcut takes: every field valid, no publication date.
good_rows = st.lists(
    st.builds(
        lambda zone, changes: VALID | zone | changes,
        st.sampled_from([{}, {"timezone": "Europe/Paris"}, {"timezone": "America/New_York"}]),
        st.fixed_dictionaries(
            {},
            optional={
                "status": st.sampled_from(["publish", "draft"]),
                "venue": st.sampled_from([[1], 1, [], {"venue": "Pop-up Hall"}]),
                "organizer": st.sampled_from(
                    [[2], [{"organizer": "Jane"}], {"organizer": "Acme", "email": "a@b.org"}]
                ),
                "categories": st.sampled_from([["Music"], [1, "Jazz"], "1", []]),
                "start_date": st.sampled_from(["2031-03-01 09:00", "2031-03-01T09:00:00Z"]),
                "description": st.sampled_from(["<b>Bold</b> <script>x</script>", " text "]),
                "featured": st.sampled_from([True, "1", 0]),
                "cost": st.sampled_from(["Free", "10 - 20", None]),
            },
        ),
    ),
    min_size=1,
    max_size=8,
)


@given(good_rows)
def test_batch_of_good_rows_is_read_a_column_at_a_time(cal: ec.Calendar, batch: list[Any]) -> None:
    """Valid rows, in several zones and field sets, are read as one batch, each as alone."""
    ctx = cal.events._ctx
    reader = RowReader(Event, ctx.remembering(), creating=True)
    expected = [read_input(Event, row, ctx.remembering(), creating=True) for row in batch]
    assert expected == reader.read_batch(batch)
    assert expected == reader.read_batch(batch)  # again, from what it remembers


ZONES = [ZoneInfo("UTC"), ZoneInfo("Asia/Tokyo"), ZoneInfo("America/New_York")]


@given(rows, st.lists(st.sampled_from(ZONES), min_size=8, max_size=8))
def test_an_update_batch_reads_each_row_in_its_records_zone(
    cal: ec.Calendar, batch: list[Any], zones: list[ZoneInfo]
) -> None:
    """Rows read as updates, each with its own zone (the matched record's, as an import
    compares them), give what ``read_input(..., zone=)`` gives each alone; a batch the
    shortcut refuses is read row by row, with the same answers and errors."""
    ctx = cal.events._ctx
    reader = RowReader(Event, ctx.remembering(), creating=False)
    own = zones[: len(batch)]
    slow = [
        _outcome(lambda r=r, z=z: read_input(Event, r, ctx.remembering(), creating=False, zone=z))
        for r, z in zip(batch, own, strict=True)
    ]
    read = reader.read_batch(batch, own)
    one_by_one = [
        _outcome(lambda r=r, z=z: reader.read(r, z)) for r, z in zip(batch, own, strict=True)
    ]
    assert (slow, slow) == (slow if read is None else read, one_by_one)
