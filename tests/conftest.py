"""Shared test settings: hypothesis profiles (few examples in CI, many by hand)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _isolate_pool_jitter() -> None:
    """Give psycopg_pool's reconnection jitter a ``random.Random`` of its own.

    The pool draws from the global ``random`` in its background workers when it opens a
    connection. Hypothesis fails a test whose global random state changes while it draws
    data ("Do not use the random module inside strategies"), so a pool growing beside a
    property test made PostgreSQL runs of it flaky. The jitter only spreads reconnections
    out; any source of randomness serves it.
    """
    try:
        from psycopg_pool import base
    except ImportError:  # the postgres extra is not installed
        return
    base.random = random.Random().random  # type: ignore[attr-defined]


_isolate_pool_jitter()


@pytest.fixture(scope="module")
def module_database() -> Iterator[Any]:
    """A migrated PostgreSQL database for one test module alone (``TestDatabase``), dropped
    after it: for tests that cut its connections or hold them, which others must not see."""
    from events_calendar.testing.postgres import TestDatabase, server_url

    own = TestDatabase(server_url())
    yield own
    own.drop()
