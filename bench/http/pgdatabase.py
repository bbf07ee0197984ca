"""The mix's data on PostgreSQL: ``database.py``'s SQLite file copied into a database, kept by name.

``mix.py --backend postgresql://...`` serves the same events as the SQLite mix: the SQLite file
``database.ensure_database`` builds (or reuses) is copied whole, ids included, into a database
``ec_mix_<N>_s<seed>_<YYYYMMDD>`` on the server that URL names, by the library's own
``copy_calendar`` (what ``events-calendar copy`` runs). A comment on that database, written
after the copy and ``VACUUM (ANALYZE)``, marks it complete (the SQLite file's sidecar), so a
later run reuses it; one without the mark is dropped and built again.

Each run serves a scratch database created from it as a template (``CREATE DATABASE ...
TEMPLATE``: a file copy on the server), so a run's writes never change the next run's data,
as ``mix.py`` does with a copy of the SQLite file. Names are plain (checked), so the DDL can
quote them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from database import CALENDAR_ZONE

import events_calendar as ec
from events_calendar.transfer import copy_calendar

__all__ = ["PREFIX", "PgDatabases", "is_postgres"]

#: Every database this benchmark creates starts with it.
PREFIX = "ec_mix_"


def is_postgres(backend: str) -> bool:
    return backend.startswith(("postgresql://", "postgres://"))


def _plain(name: str) -> str:
    if not (name.startswith(PREFIX) and name.replace("_", "").isalnum()):
        raise ValueError(f"not a plain {PREFIX}* database name: {name!r}")
    return name


class PgDatabases:
    """The kept database of one dataset on the server ``admin_url`` names, and scratch copies."""

    def __init__(self, admin_url: str, events: int, seed: int, anchor: str) -> None:
        self.admin_url = admin_url
        self.name = _plain(f"{PREFIX}{events}_s{seed}_{anchor}")
        self.events = events

    def url(self, name: str) -> str:
        return urlunsplit(urlsplit(self.admin_url)._replace(path=f"/{_plain(name)}"))

    def _admin(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.admin_url, autocommit=True)

    def marker(self) -> dict[str, Any] | None:
        """The completion mark of the kept database (``None``: absent or incomplete)."""
        with self._admin() as admin:
            row = admin.execute(
                "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                [self.name],
            ).fetchone()
        if row is None or not row[0]:
            return None
        facts: dict[str, Any] = json.loads(row[0])
        return facts if facts.get("complete") and facts.get("events") == self.events else None

    def ensure(self, source: Path) -> dict[str, Any]:
        """The kept database, copied from the SQLite file ``source`` unless a complete one
        is there; returns its facts (``reused``, copy time)."""
        if facts := self.marker():
            return {**facts, "reused": True}
        print(f"Copying {source.name} into PostgreSQL database {self.name}", flush=True)
        started = time.perf_counter()
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            try:  # the collation the tests use: lower() folds all of Unicode, code-point order
                admin.execute(
                    f'CREATE DATABASE "{self.name}" TEMPLATE template0'
                    " ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
                )
            except psycopg.errors.InvalidParameterValue:
                admin.execute(f"CREATE DATABASE \"{self.name}\" TEMPLATE template0 ENCODING 'UTF8'")
        settings = ec.Settings(timezone=CALENDAR_ZONE)
        with (
            ec.connect(f"sqlite:///{source}", settings=settings) as sqlite,
            ec.connect(self.url(self.name), settings=settings) as target,
        ):
            counts = copy_calendar(sqlite.backend, target.backend)
        with psycopg.connect(self.url(self.name), autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE)")  # what autovacuum does soon after a load, now
        facts = {
            "events": counts["event"],
            "copied_from": source.name,
            "copy_seconds": round(time.perf_counter() - started, 1),
            "complete": True,
        }
        with self._admin() as admin:
            comment = json.dumps(facts).replace("'", "''")
            admin.execute(f"COMMENT ON DATABASE \"{self.name}\" IS '{comment}'")
        return {**facts, "reused": False}

    def scratch(self) -> str:
        """A fresh copy of the kept database for one run; returns its name."""
        name = _plain(f"{PREFIX}run_{os.getpid()}")
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.name}"')
        return name

    def drop(self, name: str) -> None:
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{_plain(name)}" WITH (FORCE)')

    def backends_of(self, name: str) -> Callable[[], set[int]]:
        """Reads the pids of the server processes connected to database ``name`` now."""

        def pids() -> set[int]:
            with self._admin() as admin:
                rows = admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", [_plain(name)]
                ).fetchall()
            return {int(row[0]) for row in rows}

        return pids

    def size_bytes(self) -> int:
        with self._admin() as admin:
            row = admin.execute("SELECT pg_database_size(%s)", [self.name]).fetchone()
        return int(row[0]) if row else 0
