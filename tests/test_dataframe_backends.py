"""DataFrames in and out of a calendar, on every backend (memory, SQLite, PostgreSQL): frame
subclasses, instants past the years a nanosecond column holds, the outcome of a row that
names a record already (in the trash, or the same venue by name)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pandas as pd
import pytest

import events_calendar as ec
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ALL_DATES = {"start_date": "1000-01-01", "end_date": "9999-12-31"}


@pytest.fixture(params=["memory://", "sqlite://", "postgresql"])
def cal(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    url = request.param
    if url == "postgresql":
        database = test_database()
        database.reset()
        url = database.url
    calendar = ec.connect(url, clock=ec.FixedClock(NOW))
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
