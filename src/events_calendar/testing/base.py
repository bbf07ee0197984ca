"""The fixtures every contract test class shares.

A backend's test module subclasses ``CalendarContract`` (see ``events_calendar.testing``) and
implements ``make_backend``; every test then runs against that backend through the public
``Calendar`` API, with a fixed clock so that "now" never depends on the day the suite runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.storage import Backend

__all__ = ["NOW", "ContractBase"]

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
"""The instant every contract test runs at (a Sunday), so no test depends on the day it runs."""


class ContractBase:
    """Subclass and implement ``make_backend`` to run the suite on a backend."""

    def make_backend(self) -> Backend:
        """A new, empty backend for one test: the one method a backend's test class writes."""
        raise NotImplementedError

    @pytest.fixture
    def clock(self) -> ec.FixedClock:
        return ec.FixedClock(NOW)

    @pytest.fixture
    def settings(self) -> ec.Settings:
        return ec.Settings()

    @pytest.fixture
    def cal(self, clock: ec.FixedClock, settings: ec.Settings) -> Iterator[ec.Calendar]:
        """A full-access calendar on a fresh, empty backend."""
        calendar = ec.Calendar(self.make_backend(), settings=settings, clock=clock)
        yield calendar
        calendar.close()

    @pytest.fixture
    def anon(self, cal: ec.Calendar) -> ec.Calendar:
        """The same calendar, acting for an anonymous caller."""
        return cal.as_user(None)

    def as_role(self, cal: ec.Calendar, role: str, login: str | None = None) -> ec.Calendar:
        """The calendar acting for a new user with ``role``."""
        user = cal.users.create(login or f"{role}-user", role=role)
        return cal.as_user(user)
