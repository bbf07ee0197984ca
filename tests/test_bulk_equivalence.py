"""``bulk_create`` stores what ``create`` row by row stores, and refuses what it refuses.

The bulk path reads a batch a column at a time and builds its records in batches; the
single path reads one row with ``read_input``. On generated rows, good and bad, both must
end with the same events (every field, every link) or fail on the same row with the same
error, word for word (the bulk error names the row: ``rows[3].end_date``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.errors import CalendarError, InvalidParameter, MissingParameter
from events_calendar.records import Event

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)

#: Values each field may take: mostly good ones, a few of each kind of mistake.
FIELD_VALUES: dict[str, list[Any]] = {
    "title": ["Gala", " Jazz & Blues ", "Fête à Noël", "<b>Bold</b> night", "", "a\x00b"],
    "start_date": ["2031-03-01 10:00", "2031-03-01", "2031-03-01T10:00:00+02:00", "never"],
    "end_date": ["2031-03-01 12:00", "2031-03-02", "2031-02-01 09:00", 1.5],
    "timezone": ["Europe/Paris", "America/New_York", "UTC+2", "Mars/Base"],
    "status": ["publish", "draft", "private", "bogus"],
    "all_day": [True, "false", "yes"],
    "featured": [True, 0, "1"],
    "description": ["Piano <script>x</script> night", " plain ", None, 5],
    "cost": ["Free", "10 - 20", "-5"],
    "website": ["https://example.org", "ftp://x", ""],
    "venue": [[1], 1, [], [999]],
    "organizer": [[2], [2, 2], "2"],
    "categories": [["Music"], ["Jazz", 1], "Music, Folk", [999]],
    "tags": [["outdoor"], [], [True]],
    "date": ["2031-01-01 10:00"],
}
GOOD = {"title": "Row", "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 12:00"}

rows = st.lists(
    st.builds(
        lambda changes: GOOD | changes,
        st.dictionaries(
            st.sampled_from(sorted(FIELD_VALUES)),
            st.integers(min_value=0, max_value=5),
            max_size=5,
        ).map(
            lambda picks: {
                name: FIELD_VALUES[name][pick % len(FIELD_VALUES[name])]
                for name, pick in picks.items()
            }
        ),
    ),
    min_size=1,
    max_size=12,
)


def _calendar(batch_size: int, backend: Any) -> ec.Calendar:
    """Venue 1, organizer 2, category 1 ("Music") and tag 2 exist."""
    cal = ec.Calendar(
        backend, clock=ec.FixedClock(NOW), settings=ec.Settings(bulk_batch_size=batch_size)
    )
    cal.venues.create(venue="Grand Hall")
    cal.organizers.create(organizer="Acme")
    cal.categories.create(name="Music")
    cal.tags.create(name="Outdoor")
    return cal


def _events(cal: ec.Calendar) -> list[dict[str, Any]]:
    """Every stored event, every field (hidden, draft and private ones too)."""
    found = cal.backend.get_many(Event, range(1, 100))
    return [attrs.asdict(found[i]) for i in sorted(found)]


def _error(error: CalendarError) -> tuple[Any, ...]:
    return (type(error), error.message, error.fields, getattr(error, "codes", None))


def _named(number: int, error: CalendarError) -> tuple[Any, ...]:
    """The error ``create`` raised for a row, as ``bulk_create`` names it for row ``number``."""
    prefixed = {f"rows[{number}].{name}": why for name, why in error.fields.items()}
    if isinstance(error, MissingParameter):
        return _error(MissingParameter(prefixed))
    if isinstance(error, InvalidParameter):
        codes = {f"rows[{number}].{name}": code for name, code in error.codes.items()}
        return _error(InvalidParameter(prefixed, codes=codes))
    return _error(error)  # not about a field (a permission): the same error


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(rows, st.sampled_from([1, 3, 1000]), st.sampled_from([MemoryBackend, SQLiteBackend]))
def test_bulk_create_is_create_row_by_row(
    batch: list[dict[str, Any]], batch_size: int, backend: Any
) -> None:
    """Same events stored (bulk on memory or SQLite, one by one on memory), or the same
    first bad row refused with the same error."""
    one_by_one, bulk = _calendar(batch_size, MemoryBackend()), _calendar(batch_size, backend())
    expected: tuple[Any, ...] | None = None
    for number, row in enumerate(batch):
        try:
            one_by_one.events.create(**row)
        except CalendarError as error:
            expected = _named(number, error)
            break
    before = _events(bulk)
    if expected is not None:
        with pytest.raises(CalendarError) as raised:
            bulk.events.bulk_create(batch)
        event(f"refused: {type(raised.value).__name__}")
        assert expected == _error(raised.value)
        assert before == _events(bulk)  # atomic: nothing of it stored
    else:
        bulk.events.bulk_create(batch)
        event("stored")
        assert len(batch) == len(_events(bulk))
        assert _events(one_by_one) == _events(bulk)
