"""The walk exports read events with: every selected event once, in list order, across
batches read by keyset (an offset re-reads every row it skips: a million-event export
slowed batch after batch), on every store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.io import walk
from events_calendar.testing import NOW
from sql_backends import CALENDAR_KINDS, calendar_url


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    with ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW)) as opened:
        yield opened


def _seven(cal: ec.Calendar) -> list[int]:
    """Seven events, two on one start (ordered by id), one hidden from listings, one locked
    by a password, one a draft; their ids in list order, the draft left out."""
    made = [
        cal.events.create(
            title="Fifth", start_date="2031-05-05 20:00", end_date="2031-05-05 22:00"
        ),
        cal.events.create(
            title="First", start_date="2020-01-01 09:00", end_date="2020-01-01 10:00"
        ),
        cal.events.create(
            title="Third", start_date="2031-05-01 20:00", end_date="2031-05-01 22:00"
        ),
        cal.events.create(
            title="Fourth", start_date="2031-05-01 20:00", end_date="2031-05-01 23:00"
        ),
        cal.events.create(
            title="Hidden",
            start_date="2025-03-01 10:00",
            end_date="2025-03-01 11:00",
            hide_from_listings=True,
        ),
        cal.events.create(
            title="Locked",
            description="secret",
            password="pw",
            start_date="2040-01-01 10:00",
            end_date="2040-01-01 11:00",
        ),
        cal.events.create(
            title="Draft", status="draft", start_date="2031-06-01", end_date="2031-06-01"
        ),
    ]
    first, fifth, third, fourth, hidden, locked = (made[i].id for i in (1, 0, 2, 3, 4, 5))
    return [first, hidden, third, fourth, fifth, locked]


def test_an_export_walks_every_event_in_order_a_batch_at_a_time(
    cal: ec.Calendar, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of two: all six listed events (the hidden one too, every date), each once,
    in list order, the locked one blanked for an anonymous caller, and no storage query
    skips rows by offset."""
    expected = _seven(cal)
    monkeypatch.setattr(walk, "BATCH", 2)
    offsets: list[int] = []
    backend = cal.backend
    query = backend.query

    def spied(cls: Any, flt: Any, **kwargs: Any) -> Any:
        offsets.append(flt.offset)
        return query(cls, flt, **kwargs)

    monkeypatch.setattr(backend, "query", spied)
    batches = list(walk.walk_events(cal.as_user(None), {}))
    assert [2, 2, 2] == [len(b) for b in batches]
    walked = [e for batch in batches for e in batch]
    assert expected == [e.id for e in walked]
    assert ("", "") == (walked[-1].description, walked[-1].password)
    assert {0} == set(offsets)


def test_a_walk_with_a_bar_counts_to_its_total(cal: ec.Calendar) -> None:
    """A progress callable is told the total, counted before the first batch."""
    _seven(cal)
    seen: list[tuple[int, int | None]] = []
    batches = walk.walk_events(
        cal,
        {"start_date": "2031-01-01", "end_date": "2041-01-01"},
        progress=lambda done, total: seen.append((done, total)),
    )
    # Third, Fourth, Fifth, Draft (the calendar's own caller lists every status), Locked
    assert 5 == sum(len(b) for b in batches)
    assert (5, 5) == seen[-1]


@pytest.mark.parametrize("name", ["out.csv", "out.ics"])
def test_an_export_with_a_bad_filter_writes_no_file(
    cal: ec.Calendar, tmp_path: Path, name: str
) -> None:
    """The filters are read before the file is opened: a refused export leaves nothing. A
    page is no filter of an export (it writes every match), nor is a name no list takes:
    both were ignored, or a bare ``TypeError``."""
    target = tmp_path / name
    refusals = []
    for bad in ({"start_date": "not a date"}, {"per_page": 5}, {"page": 2}, {"colour": "red"}):
        with pytest.raises(InvalidParameter) as refused:
            cal.export_file(target, **bad)
        refusals.append(list(refused.value.fields))
    assert ([["start_date"], ["per_page"], ["page"], ["colour"]], False) == (
        refusals,
        target.exists(),
    )
