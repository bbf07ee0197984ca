"""4 processes x 4 threads of creates, partial updates, reads and deletes on one PostgreSQL
database (``events_calendar.testing.concurrency``; ``bench/pg_concurrency.py`` runs it long)."""

from __future__ import annotations

import pytest

from events_calendar.testing.concurrency import Outcome, run_workload
from events_calendar.testing.postgres import test_database

ROUNDS = 20


@pytest.fixture(scope="module")
def outcome() -> Outcome:
    database = test_database()
    database.reset()
    return run_workload(database.url, processes=4, threads=4, rounds=ROUNDS)


def test_no_operation_fails(outcome: Outcome) -> None:
    """No create, update, read or delete raises."""
    assert [] == outcome.errors


def test_no_update_is_lost(outcome: Outcome) -> None:
    """Every field of the shared events holds what its one writer wrote last."""
    assert (16, 0) == (len(outcome.expected_fields), outcome.lost_updates)


def test_no_slug_is_shared(outcome: Outcome) -> None:
    """Events created concurrently with one title all get different slugs."""
    assert 0 == outcome.duplicate_slugs


def test_totals_are_created_minus_deleted(outcome: Outcome) -> None:
    """The events stored are those created minus those deleted."""
    assert (320, 96, 224) == (outcome.created, outcome.deleted, outcome.events)
