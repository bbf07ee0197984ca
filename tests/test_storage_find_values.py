"""``Storage.find_values``: the records whose text field holds given values, answered by each
backend's own engine (``from_dataframe`` matches key columns with it)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)


def _postgres() -> str:
    database = test_database()
    database.reset()
    return database.url


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def cal(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    url = {"memory": "memory://", "sqlite": "sqlite://"}.get(request.param) or _postgres()
    calendar = ec.connect(url, clock=ec.FixedClock(NOW))
    yield calendar
    calendar.backend.close()


def test_find_values_gives_exact_matches_oldest_first(cal: ec.Calendar) -> None:
    """Exact text (not case-folded), every status, ids in creation order; no match, no key."""
    site = "https://example.org/a"
    ids = [
        cal.events.create(
            title=f"E{n}", start_date="2031-01-01", end_date="2031-01-01", website=url
        ).id
        for n, url in enumerate([site, "https://example.org/b", site, site.upper()])
    ]
    cal.events.delete(ids[2])  # in the trash, still found: the caller decides
    found = cal.backend.find_values("event", "website", [site, "https://example.org/none"])
    assert {site: [ids[0], ids[2]]} == found
