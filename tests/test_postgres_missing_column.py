"""PostgreSQL with a column of its schema gone: the same typed failure as a table gone."""

from __future__ import annotations

import psycopg
import pytest

import events_calendar as ec
from events_calendar.errors import StorageUnavailable
from events_calendar.testing.postgres import TestDatabase, server_url

GALA = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}


def test_a_dropped_column_is_storage_unavailable() -> None:
    """A column of the schema dropped under a running calendar, and the database opened
    again without it: reads fail with ``StorageUnavailable`` (HTTP 503
    ``storage_unavailable``) naming the database and the column, as SQLite's "no such
    column" does, not psycopg's untyped ``UndefinedColumn``."""
    own = TestDatabase(server_url())  # dropping a column spoils it for every other test
    url = own.url
    cal = ec.connect(url)
    reopened: ec.Calendar | None = None
    try:
        gala = cal.events.create(title="Gala", **GALA)
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("ALTER TABLE events DROP COLUMN cost")
        with pytest.raises(StorageUnavailable) as running:
            cal.events.get(gala.id)
        reopened = ec.connect(url)
        with pytest.raises(StorageUnavailable) as opened:
            reopened.events.get(gala.id)
    finally:
        cal.close()
        if reopened is not None:
            reopened.close()
        own.drop()
    for raised in (running.value, opened.value):
        assert ("storage_unavailable", 503) == (raised.code, raised.http_status)
        assert 'column "cost" does not exist' in raised.message
        assert raised.data["database"].endswith(url.rsplit("/", 1)[1])
