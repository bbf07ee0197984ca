"""DataFrames in and out of a calendar, on every backend (memory, SQLite, PostgreSQL): frame
subclasses, instants past the years a nanosecond column holds, the outcome of a row that
names a record already (in the trash, or the same venue by name)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest

import events_calendar as ec
from sql_backends import CALENDAR_KINDS, calendar_url

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ALL_DATES = {"start_date": "1000-01-01", "end_date": "9999-12-31"}


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    calendar = ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


class SeasonFrame(pd.DataFrame):
    """A caller's own frame class, as libraries built on pandas make them."""

    @property
    def _constructor(self) -> type[SeasonFrame]:
        return SeasonFrame


def _rows(titles: list[str]) -> SeasonFrame:
    return SeasonFrame(
        {
            "title": titles,
            "start_date": ["2031-05-01 18:00"] * len(titles),
            "end_date": ["2031-05-01 19:00"] * len(titles),
        }
    )


# -- a DataFrame subclass is a DataFrame ------------------------------------------------------


def test_bulk_create_takes_a_dataframe_subclass(cal: ec.Calendar) -> None:
    ids = cal.events.bulk_create(_rows(["Talk", "Walk"]))
    assert [cal.events.get(i).title for i in ids] == ["Talk", "Walk"]
    assert cal.events.from_dataframe(_rows(["Run"])).created == 1  # as from_dataframe does


# -- instants past the years of a nanosecond column -------------------------------------------


@pytest.mark.parametrize("year", [1500, 2300, 9999])
def test_to_dataframe_exports_every_year_the_calendar_holds(cal: ec.Calendar, year: int) -> None:
    far = cal.events.create(
        title="Far",
        start_date=f"{year}-05-01 18:00:00",
        end_date=f"{year}-05-01 19:30:00",
        timezone="Asia/Tokyo",
    )
    cal.events.create(title="Near", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00")
    frame = cal.events.to_dataframe(**ALL_DATES)
    assert str(frame["start_date"].dtype) == "datetime64[us, UTC]"  # wider for this column only
    assert str(frame["end_date"].dtype) == "datetime64[us, UTC]"
    assert str(frame["date"].dtype) == "datetime64[ns, UTC]"
    row = frame.set_index("title").loc["Far"]
    assert row["start_date"].to_pydatetime() == far.start_date  # nothing lost
    assert row["end_date"].to_pydatetime() == far.end_date
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (report.unchanged, len(report.errors)) == (2, 0)  # and it reads back as it was


def test_to_dataframe_keeps_nanoseconds_when_every_instant_fits(cal: ec.Calendar) -> None:
    cal.events.create(title="Near", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00")
    frame = cal.events.to_dataframe(**ALL_DATES)
    assert {str(frame[c].dtype) for c in ("start_date", "end_date", "date", "modified")} == {
        "datetime64[ns, UTC]"
    }


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_a_linked_record_of_any_year_exports(cal: ec.Calendar, kind: str) -> None:
    collection = getattr(cal, kind)
    record = collection.create(**{kind[:-1]: "Far"}, date="2400-01-01 12:00")
    frame = collection.to_dataframe()
    assert str(frame["date"].dtype) == "datetime64[us, UTC]"
    assert frame["date"].iloc[0].to_pydatetime() == record.date


# -- a row whose id names a record in the trash -----------------------------------------------


@pytest.mark.parametrize("on_conflict", ["update", "skip"])
def test_a_row_naming_a_trashed_event_by_id_is_its_error(
    cal: ec.Calendar, on_conflict: str
) -> None:
    gone = cal.events.create(
        title="Gone", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00"
    )
    kept = cal.events.create(
        title="Kept", start_date="2031-05-02 18:00", end_date="2031-05-02 19:00"
    )
    frame = cal.events.to_dataframe(**ALL_DATES)
    frame["title"] = ["Gone (again)", "Kept (renamed)"]
    cal.events.delete(gone.id)
    report = cal.events.from_dataframe(frame, key="id", on_conflict=on_conflict)  # type: ignore[arg-type]
    by_id = {r.id: r.outcome for r in report.rows if r.id is not None}
    assert by_id == {kept.id: "updated" if on_conflict == "update" else "skipped"}
    (error,) = report.errors
    assert "in the trash" in error.error
    assert str(gone.id) in error.error
    trashed = cal.events.get(gone.id)
    assert (trashed.title, trashed.status) == ("Gone", ec.Status.TRASH)  # not updated
    assert report.created == 0  # nor replaced by a new event


def test_a_row_naming_a_trashed_venue_by_id_is_its_error(cal: ec.Calendar) -> None:
    hall = cal.venues.create(venue="Hall")
    cal.venues.delete(hall.id)
    frame = pd.DataFrame({"id": [float(hall.id)], "venue": ["Hall"], "city": ["Lyon"]})
    report = cal.venues.from_dataframe(frame, key="id", on_conflict="update")
    assert [r.outcome for r in report.rows] == ["error"]
    assert cal.venues.get(hall.id).city == ""


# -- a row that create answers with an existing venue or organizer is not "created" -----------


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_a_row_reusing_a_same_named_record_is_unchanged(cal: ec.Calendar, kind: str) -> None:
    collection, name = getattr(cal, kind), kind[:-1]
    hall = collection.create(**{name: "Town Hall"})
    frame = pd.DataFrame({name: ["Town Hall", "Annex", "annex"]})
    report = collection.from_dataframe(frame)
    assert [r.outcome for r in report.rows] == ["unchanged", "created", "unchanged"]
    annex = report.rows[1].id
    assert [r.id for r in report.rows] == [hall.id, annex, annex]
    assert (report.created, report.unchanged) == (1, 2)
    assert len(list(collection.iter())) == 2  # what the report says was made


@pytest.mark.parametrize(
    ("on_conflict", "outcome", "status"),
    [("skip", "skipped", ec.Status.PUBLISH), ("update", "updated", ec.Status.DRAFT)],
)
def test_a_reused_record_whose_status_differs_follows_on_conflict(
    cal: ec.Calendar, on_conflict: str, outcome: str, status: ec.Status
) -> None:
    hall = cal.venues.create(venue="Town Hall", city="Lyon")
    frame = pd.DataFrame({"venue": ["Town Hall"], "city": ["Lyon"], "status": ["draft"]})
    report = cal.venues.from_dataframe(frame, on_conflict=on_conflict)  # type: ignore[arg-type]
    assert [(r.outcome, r.id) for r in report.rows] == [(outcome, hall.id)]
    assert cal.venues.get(hall.id).status == status  # the row's status not dropped unsaid


def test_a_venue_row_of_another_city_is_a_new_venue(cal: ec.Calendar) -> None:
    cal.venues.create(venue="Town Hall", city="Lyon")
    report = cal.venues.from_dataframe(pd.DataFrame({"venue": ["Town Hall"], "city": ["Paris"]}))
    assert [r.outcome for r in report.rows] == ["created"]
    assert len(list(cal.venues.iter())) == 2
