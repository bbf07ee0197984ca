"""The storage benchmark on PostgreSQL: the hand-written floor, the ticker, a database per size.

The floor (``HandWrittenPG``) is ``handwritten.HandWritten`` with psycopg 3: the same queries,
the same rules (its own bounds, what an anonymous caller sees, one statement for a page's links,
no objects, the schema's indexes only; see ``handwritten``), written against the schema the
library's PostgreSQL migrations create (``events_calendar.backends.postgres_schema``). Only what
PostgreSQL spells differently is here:

- booleans are ``BOOLEAN``: an anonymous caller lists ``status = 'publish' AND
  hide_from_listings = FALSE`` (the leading columns of the ``events_listing`` index);
- search is what the library's PostgreSQL dialect means by it: the case-folded title, excerpt
  and description joined by newlines contain the word (``LIKE '%word%'``). The floor spells
  that text exactly as the ``events_search`` trigram (``pg_trgm`` GIN) index does, or the
  planner could not use the index;
- ``IN`` lists are one array parameter (``= ANY(%s)``), so a statement's text does not depend
  on how many ids it carries and psycopg's automatic prepared statements apply to it;
- a slug is looked up in the unique index ``events_slug`` as it is (PostgreSQL's index has no
  partial predicate to repeat).

The connection is autocommit and read-only (``default_transaction_read_only``): each statement
is its own transaction, the cheapest way to ask. psycopg prepares a statement after a few runs
and PostgreSQL may then reuse a generic plan; for ``LIKE $1`` that plan cannot use the trigram
index (it filters every row of the window instead: 16 ms instead of 2.6 ms for the search page
at 3,000 events), so the search statements are never prepared (``prepare=False``: planned with
their values every time), while every other statement keeps the plan cache (forcing custom
plans everywhere costs each get ~0.1 ms of planning). The library reads a page and its total in one
``REPEATABLE READ`` snapshot; the BEGIN/COMMIT that costs is part of its overhead. Server
settings (``shared_buffers``, ``work_mem``, JIT) are the server's and shared by both sides; the
report records them.

``Ticker`` makes the library's next list the first after a write, as the SQLite one does. The
library sees commits through the ``data_generation`` row its own triggers bump on its tables,
so the ticker's one-row table gets the same trigger (``bump_generation()``, from the library's
migrations); ``Database`` creates and drops the benchmark's database for one size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from handwritten import ADDED_EVENT, HandWritten, list_shapes

import events_calendar as ec

__all__ = ["Database", "HandWrittenPG", "Ticker", "like_pattern", "search_text"]

#: The fields an event search reads, in the library's order (``queries.EVENT_SEARCH_FIELDS``).
SEARCH_FIELDS = ("title", "excerpt", "description")


def search_text(alias: str = "e") -> str:
    """The text an event search reads, spelled as the ``events_search`` index is."""
    return "lower(" + " || chr(10) || ".join(f'{alias}."{f}"' for f in SEARCH_FIELDS) + ")"


def like_pattern(word: str) -> str:
    """``LIKE`` pattern for ``word`` anywhere, lower-cased, its ``\\ % _`` taken literally."""
    escaped = word.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _pyformat(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s``. The floor's SQL has no literal ``?`` or ``%``
    (patterns travel as parameters), which this checks rather than assumes."""
    if "%" in sql:
        raise ValueError(f"a literal % in hand-written SQL: {sql}")
    return sql.replace("?", "%s")


class HandWrittenPG(HandWritten):
    """The hand-written queries on their own read-only psycopg connection."""

    dialect = "postgresql"
    shapes = list_shapes(
        "e.status = 'publish' AND e.hide_from_listings = FALSE",
        f"{search_text('e')} LIKE ?",
    )
    gets = {  # noqa: RUF012 - read-only, as in the base class
        "get_by_id": "e.id = ? AND e.status = 'publish'",
        "get_by_slug": "e.slug = ? AND e.status = 'publish'",
    }

    def __init__(self, url: str, *, per_page: int = 10) -> None:
        self.pg = psycopg.connect(
            url,
            autocommit=True,
            options="-c default_transaction_read_only=on",
        )
        self.per_page = per_page

    def close(self) -> None:
        self.pg.close()

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        # A search is planned with its pattern every time (see the module docstring).
        prepare = False if " LIKE " in sql else None
        return self.pg.execute(_pyformat(sql), list(params), prepare=prepare).fetchall()

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?)", [list(values)]

    def search_param(self, word: str) -> str:
        return like_pattern(word)

    def plan(self, sql: str, params: Sequence[Any] = ()) -> list[str]:
        """``EXPLAIN`` (estimated, not run), parameters bound client-side so the planner sees
        the values the timed statement gets."""
        try:
            with psycopg.ClientCursor(self.pg) as cursor:
                cursor.execute(f"EXPLAIN {_pyformat(sql)}", list(params))
                return [str(row[0]) for row in cursor.fetchall()]
        except (psycopg.Error, ValueError) as error:
            return [f"(no plan: {error})"]

    def settings(self) -> dict[str, Any]:
        """The server settings that move read latency the most."""
        names = (
            "server_version",
            "shared_buffers",
            "effective_cache_size",
            "work_mem",
            "random_page_cost",
            "jit",
            "max_parallel_workers_per_gather",
            "plan_cache_mode",
            "lc_collate",
        )
        return {name: self.pg.execute(f"SHOW {name}").fetchone()[0] for name in names}


class Ticker:
    """Commits a one-row write from a connection of its own, moving the library's generation.

    The library caches a list's total until its ``generation()`` moves; on PostgreSQL that is
    the ``data_generation`` row bumped by statement triggers on the library's tables. The
    ticker's table gets the same trigger, so its commit is a write the library sees, without
    touching any row a query reads.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._cal: ec.Calendar | None = None
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute("CREATE TABLE IF NOT EXISTS bench_tick (n BIGINT NOT NULL)")
        if self.conn.execute("SELECT count(*) FROM bench_tick").fetchone() == (0,):
            self.conn.execute("INSERT INTO bench_tick (n) VALUES (0)")
        self.conn.execute("DROP TRIGGER IF EXISTS bench_tick_generation ON bench_tick")
        self.conn.execute(
            "CREATE TRIGGER bench_tick_generation AFTER UPDATE ON bench_tick"
            " FOR EACH STATEMENT EXECUTE FUNCTION bump_generation()"
        )

    def tick(self) -> None:
        """A write the change journal cannot itemise ("anything"), so the next list counts
        its total afresh rather than carrying a kept one (``sql.kept_totals``)."""
        with self.conn.transaction():
            self.conn.execute("UPDATE bench_tick SET n = n + 1")
            self.conn.execute("INSERT INTO changes VALUES (journal_generation(), '*', 0, 'update')")

    def add(self) -> None:
        """A new event, from a library connection of its own: the next list carries its
        kept total over it (``sql.kept_totals``)."""
        if self._cal is None:
            self._cal = ec.connect(self.url)
        self._cal.events.create(**ADDED_EVENT)

    def close(self) -> None:
        self.conn.close()
        if self._cal is not None:
            self._cal.close()


class Database:
    """One benchmark database on the server ``admin_url`` names, created fresh and dropped
    (``storage.Target``)."""

    backend = "postgresql"

    def __init__(self, admin_url: str, name: str) -> None:
        if not name.replace("_", "").isalnum():
            raise ValueError(f"not a plain database name: {name!r}")
        self.admin_url, self.name = admin_url, name
        parts = urlsplit(admin_url)
        self.url = urlunsplit(parts._replace(path=f"/{name}"))

    def _admin(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.admin_url, autocommit=True)

    def fresh(self) -> None:
        """Drop it if a previous run left it, then create it empty."""
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def size_bytes(self) -> int:
        with self._admin() as admin:
            row = admin.execute("SELECT pg_database_size(%s)", [self.name]).fetchone()
        return int(row[0]) if row else 0

    def settle(self) -> dict[str, Any]:
        """``VACUUM (ANALYZE)`` after the load, untimed: what autovacuum does within a minute
        of a bulk import anyway, done now so that no plan changes halfway through the timing
        and counts can use index-only scans from the first run."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE)")
        return {"after_load": "VACUUM (ANALYZE), untimed"}

    def hand(self, *, per_page: int) -> HandWrittenPG:
        return HandWrittenPG(self.url, per_page=per_page)

    def ticker(self) -> Ticker:
        return Ticker(self.url)

    def describe(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.hostname}:{parts.port or 5432}/{self.name}"
