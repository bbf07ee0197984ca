"""Storage benchmark: bulk load rate, list/get latency against a hand-written lower bound.

Usage::

    .venv/bin/python bench/storage.py --sizes 10000,100000,1000000 \\
        --out bench/results/storage.json [--db-dir DIR] [--repeat 200]
    .venv/bin/python bench/storage.py --backend postgresql://postgres@127.0.0.1:5432/test \\
        --sizes 10000,100000 [--keep]

For each N it loads N generated events (``dataset``) into a fresh database through
``cal.events.bulk_create`` (SQLite: a file per size; PostgreSQL: a database ``ec_bench_<N>``
created through the ``--backend`` URL's server and dropped afterwards), then times each query of
``QUERIES`` through the library and its hand-written twin (``handwritten``, ``handwritten_pg``)
on the same database, checks that both return the same rows, and reports p50/p95, the ratio
library / hand-written, and memory. It prints a table and writes JSON.

Why it is built this way:

- **One process per size.** ``ru_maxrss`` is a high-water mark for the whole process, so sizes
  run in child processes (this same script, one size each); each size's peak is its own.
- **Interleaved timing.** Library and hand-written calls alternate (their order rotated every
  iteration), so drift (page cache, CPU frequency, other load) hits every side alike.
- **Warm and cold.** The library caches a list's total until a write commits; repeating one
  list 200 times would time that cache only. Lists are timed warm (repeated) and cold (a
  ``Ticker`` commits an unrelated one-row write first), and the cold figure is the one
  compared with the hand-written SQL, which counts every time.
- **Checked, not trusted.** Every query's ids, order, totals, UTC instants and links are
  compared between the two sides before timing; a difference aborts the run. A fast wrong
  answer is not a result.
- **What the library runs is recorded.** The statements of one traced call per query, with
  the plan of each SELECT (and of the hand-written statement), go into the JSON so a slow
  figure can be read against the plan that produced it: ``EXPLAIN QUERY PLAN`` from SQLite's
  trace callback; on PostgreSQL, the statements the library's engine executes and their
  ``EXPLAIN`` (estimated, not run).
- **Which code was measured is recorded.** The library changes while benchmarks run, so each
  size records a digest of the library source it imported (``library_source_sha256``).
- **tracemalloc only for small N.** It slows allocation-heavy code several times over, so it
  runs on a separate, untimed load and only for N <= ``--tracemalloc-max``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from dataset import (
    NOW,
    SEARCH_WORD,
    Catalog,
    CatalogSpec,
    catalog_from_file,
    create_catalog,
    event_rows,
)
from handwritten import (
    ADDED_EVENT,
    HandPage,
    HandRow,
    HandWritten,
    day_end,
    day_start,
    default_window,
)
from report import build_report, render_table

import events_calendar as ec

__all__ = ["QUERIES", "WINDOWED", "BenchMismatch", "SqliteTarget", "Target", "main", "run_size"]

#: The calendar's zone: not UTC, so that day rounding and the default window are real work
#: and a wrong bound on either side shows up as a mismatch.
CALENDAR_ZONE = "Europe/Paris"
PER_PAGE = 10
#: The month the one-month window covers (the month after ``NOW``).
MONTH = (date(2026, 7, 1), date(2026, 7, 31))
#: The broad query whose page 200 is fetched: every year of the dataset.
BROAD = (date(2020, 1, 1), date(2032, 12, 31))
BROAD_PAGE = 200
#: Popularity rank of the venue the venue query filters on (0 = busiest): a busy venue.
VENUE_RANK = 9
#: How many different events the get queries cycle through.
GET_SAMPLE = 100
#: Timed runs a query always gets, whatever ``--budget`` says.
MIN_RUNS = 20

#: Every query the benchmark times, in report order.
QUERIES = (
    "default_window",
    "one_month",
    "category_window",
    "venue",
    "search",
    "page_200",
    "get_by_id",
    "get_by_slug",
)
#: Queries bounded by a date window, whose latency should not grow with N.
WINDOWED = ("default_window", "one_month", "category_window")


class BenchMismatch(AssertionError):
    """The library and the hand-written SQL disagree: the benchmark refuses to time it."""


@dataclass
class Query:
    """One benchmark query: the library call, its hand-written twin, and what to check."""

    name: str
    description: str
    library: Callable[[int], Any]
    hand: Callable[[int], Any]
    params: dict[str, Any]
    #: The hand-written statement's shape (see ``HandWritten.sql_of``) and its parameters,
    #: for ``EXPLAIN QUERY PLAN``.
    shape: str
    shape_params: tuple[Any, ...]
    #: A list (checked once) rather than a get (checked for every event it cycles over).
    is_list: bool = True


def _ms(ns: float) -> float:
    return round(ns / 1e6, 4)


def _percentile(samples: Sequence[int], q: float) -> int:
    """Nearest-rank percentile (defined for any sample size, no interpolation)."""
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def _rss_mb() -> float:
    """Peak resident set size of this process so far (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def _fresh(path: Path) -> None:
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()


def _open(where: Path | str) -> ec.Calendar:
    """The benchmark's calendar on an SQLite file (a path) or any database URL."""
    return ec.connect(
        f"sqlite:///{where}" if isinstance(where, Path) else where,
        clock=ec.FixedClock(NOW),
        settings=ec.Settings(timezone=CALENDAR_ZONE, per_page=PER_PAGE),
    )


# -- where a size's data lives -------------------------------------------------------------
class Target(Protocol):
    """One size's database: created fresh, read by both sides, dropped (or kept) after."""

    backend: str
    url: str

    def fresh(self) -> None: ...
    def drop(self) -> None: ...
    def size_bytes(self) -> int: ...
    def settle(self) -> dict[str, Any]: ...
    def describe(self) -> str: ...
    def hand(self, *, per_page: int) -> HandWritten: ...
    def ticker(self) -> TickerLike: ...


class TickerLike(Protocol):
    def tick(self) -> None: ...
    def add(self) -> None: ...
    def close(self) -> None: ...


#: How long the settling of a loaded SQLite file may wait to copy its log (seconds).
LOG_COPY_WAIT = 600.0


class SqliteTarget:
    """One size's SQLite file."""

    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"

    def fresh(self) -> None:
        _fresh(self.path)

    def drop(self) -> None:
        _fresh(self.path)

    def size_bytes(self) -> int:
        return _db_bytes(self.path)

    def settle(self) -> dict[str, Any]:
        """The load's write-ahead log copied into the file, untimed but reported: what the
        library's checkpoint thread does in the seconds after a load anyway, waited for here.

        A load is one transaction, so the whole file passes through the log (3.5 GB at a
        million events). Until the checkpoint that copies it back ends, SQLite marks none of
        it copied, and every page a reader looks up searches the log's index, one hash table
        per 4,096 logged pages: lists timed in those seconds (15-30 at a million events) took up
        to 2-3 times as long as on the same file afterwards (``bench/README.md``), a figure of
        the load's aftermath rather than of the queries.
        """
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=LOG_COPY_WAIT)
        try:
            started = time.perf_counter()
            while True:  # busy at once while the library's own checkpoint is running
                busy, logged, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if not busy or time.perf_counter() - started > LOG_COPY_WAIT:
                    break
                time.sleep(0.05)
            seconds = time.perf_counter() - started
        finally:
            conn.close()
        return {
            "log_copy_seconds": round(seconds, 3),  # waiting for the library's copy included
            "log_pages": logged,  # left when this checkpoint ran (0: the library's copied all)
            "log_copied_pages": copied,
            "log_busy": bool(busy),
        }

    def describe(self) -> str:
        return str(self.path)

    def hand(self, *, per_page: int) -> HandWritten:
        return HandWritten(self.path, per_page=per_page)

    def ticker(self) -> Ticker:
        return Ticker(self.path)


def is_postgres(backend: str) -> bool:
    return backend.startswith(("postgresql://", "postgres://"))


def make_target(backend: str, n: int, *, db_dir: Path, pg_prefix: str, suffix: str = "") -> Target:
    """Where size ``n`` lives: ``db_dir/events-<n>.db``, or the database ``<pg_prefix>_<n>`` on
    the server of a ``postgresql://`` URL (created and dropped through that URL's database)."""
    if backend == "sqlite":
        return SqliteTarget(db_dir / f"events-{n}{'-' + suffix if suffix else ''}.db")
    if not is_postgres(backend):
        raise ValueError(f"--backend: 'sqlite' or a postgresql:// URL, not {backend!r}")
    from handwritten_pg import Database  # psycopg only when PostgreSQL is asked for

    return Database(backend, f"{pg_prefix}_{n}{'_' + suffix if suffix else ''}")


# -- loading --------------------------------------------------------------------------------
class _ProgressPrinter:
    """Prints a progress line at most every ``every`` seconds, and at the end."""

    def __init__(self, label: str, *, quiet: bool, every: float = 5.0) -> None:
        self.label, self.quiet, self.every = label, quiet, every
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int | None) -> None:
        now = time.perf_counter()
        if self.quiet or ((total is None or done < total) and now - self.last < self.every):
            return
        self.last = now
        elapsed = now - self.started
        print(
            f"  {self.label}: {done:>9,}/{'?' if total is None else f'{total:,}'} events"
            f" written  {elapsed:7.1f} s  {done / elapsed:8,.0f} events/s",
            flush=True,
        )


def write_rows(path: Path, n: int, catalog: Catalog, *, seed: int, first: int = 0) -> None:
    """The dataset's rows ``first`` .. ``first + n``, one JSON object a line."""
    with path.open("w", encoding="utf-8") as out:
        for number, row in enumerate(event_rows(first + n, catalog, seed=seed)):
            if number >= first:
                out.write(json.dumps(row) + "\n")


def read_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Rows read back one at a time: a load from a file, holding one batch, not the file."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def _timed_load(
    cal: ec.Calendar, rows: Path, label: str, *, quiet: bool
) -> tuple[list[int], float]:
    gc.collect()
    started = time.perf_counter()
    ids = cal.events.bulk_create(read_rows(rows), progress=_ProgressPrinter(label, quiet=quiet))
    return ids, time.perf_counter() - started


def load(
    target: Target,
    n: int,
    spec: CatalogSpec,
    *,
    seed: int,
    rows_dir: Path,
    quiet: bool = False,
) -> tuple[ec.Calendar, Catalog, list[int], dict[str, Any]]:
    """A fresh database with the catalog and ``n`` events; returns the load figures.

    The rows are generated before the clock starts, into a JSON-lines file that the load
    reads one row at a time (the clock includes ``json.loads``, as a load from a file would):
    the process holds a batch of rows, not all of them, so its peak RSS is the library's.
    """
    target.fresh()
    cal = _open(target.url)
    started = time.perf_counter()
    catalog = create_catalog(cal, spec, seed=seed)
    catalog_s = time.perf_counter() - started
    started = time.perf_counter()
    rows = rows_dir / f"rows-{n}.jsonl"
    write_rows(rows, n, catalog, seed=seed)
    generate_s = time.perf_counter() - started
    rss_before = _rss_mb()
    if not quiet:
        print(f"  N={n:,}: loading {n:,} rows from {rows.name}", flush=True)
    try:
        ids, load_s = _timed_load(cal, rows, f"N={n:,}", quiet=quiet)
    finally:
        rows.unlink()
    figures = {
        "events": len(ids),
        "seconds": round(load_s, 3),
        "events_per_s": round(len(ids) / load_s, 1),
        "catalog_seconds": round(catalog_s, 3),
        "generate_seconds": round(generate_s, 3),
        "rss_before_load_mb": rss_before,
        "peak_rss_after_load_mb": (peak := _rss_mb()),
        # What the load itself added, net of the generated rows the benchmark holds.
        "load_rss_delta_mb": round(peak - rss_before, 1),
        # Untimed upkeep after the load (PostgreSQL: VACUUM ANALYZE), then the size on disk.
        **target.settle(),
        "db_bytes": target.size_bytes(),
    }
    return cal, catalog, ids, figures


def reuse_loaded(target: Target) -> tuple[ec.Calendar, Catalog, list[int], dict[str, Any]]:
    """The SQLite file an earlier run of the same seed loaded (``--reuse``), opened as it is
    (the library migrates it if it is older): the catalog read back in creation order, which
    is ``create_catalog``'s popularity order."""
    if target.backend != "sqlite" or not Path(target.describe()).exists():
        raise SystemExit(f"--reuse: no loaded SQLite file at {target.describe()}")
    started = time.perf_counter()
    cal = _open(target.url)
    opened_s = time.perf_counter() - started
    catalog, events = catalog_from_file(Path(target.describe()))
    figures = {
        "reused": True,
        "events": len(events),
        "open_seconds": round(opened_s, 3),  # includes any migration the file needed
        "db_bytes": target.size_bytes(),
    }
    return cal, catalog, events, figures


def append_load(
    cal: ec.Calendar, catalog: Catalog, n: int, more: int, *, seed: int, rows_dir: Path, quiet: bool
) -> dict[str, Any]:
    """``more`` further events loaded into the database of ``n``: the rate of a load into a
    calendar that already holds events (its indexes, counts and search index kept up as the
    rows arrive). The rows continue the dataset (rows ``n`` .. ``n + more``)."""
    rows = rows_dir / f"rows-{n}-append.jsonl"
    write_rows(rows, more, catalog, seed=seed, first=n)
    try:
        ids, seconds = _timed_load(cal, rows, f"+{more:,} into {n:,}", quiet=quiet)
    finally:
        rows.unlink()
    return {
        "into_events": n,
        "events": len(ids),
        "seconds": round(seconds, 3),
        "events_per_s": round(len(ids) / seconds, 1),
    }


def traced_load_peak(target: Target, n: int, spec: CatalogSpec, *, seed: int) -> float:
    """Peak Python heap (MiB) allocated by ``bulk_create`` for ``n`` rows, on a scratch database.

    Separate from the timed load because tracemalloc slows allocation several times over.
    """
    target.fresh()
    cal = _open(target.url)
    try:
        catalog = create_catalog(cal, spec, seed=seed)
        rows = list(event_rows(n, catalog, seed=seed))
        gc.collect()
        tracemalloc.start()
        try:
            cal.events.bulk_create(rows)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        cal.close()
        target.drop()
    return round(peak / 2**20, 1)


# -- queries --------------------------------------------------------------------------------
def _check_event(name: str, event: ec.Event, hand: HandRow) -> None:
    want = (hand.id, hand.utc_start, hand.utc_end, hand.links)
    got = (
        event.id,
        int(event.utc_start_date.timestamp()),
        int(event.utc_end_date.timestamp()),
        (event.venue, event.organizer, event.categories, event.tags),
    )
    if got != want:
        raise BenchMismatch(f"{name}: library row {got} != hand-written row {want}")


def check_same(name: str, library: Any, hand: Any) -> dict[str, Any]:
    """Raise ``BenchMismatch`` unless both sides returned the same rows; return a summary."""
    if isinstance(hand, HandRow):
        _check_event(name, library, hand)
        return {"ids_match": True, "returned": 1}
    assert isinstance(hand, HandPage)
    page: ec.Page[ec.Event] = library
    lib_ids = [e.id for e in page.items]
    if lib_ids != hand.ids or page.total != hand.total:
        raise BenchMismatch(
            f"{name}: library total {page.total} ids {lib_ids}"
            f" != hand-written total {hand.total} ids {hand.ids}"
        )
    for event, row in zip(page.items, hand.items, strict=True):
        _check_event(name, event, row)
    return {"ids_match": True, "returned": len(lib_ids), "total": page.total}


def build_queries(
    cal: ec.Calendar, hand: HandWritten, catalog: Catalog, ids: list[int], *, seed: int
) -> list[Query]:
    """The benchmark's queries, as an anonymous visitor of the public site asks them."""
    public = cal.as_user(None)
    zone = ZoneInfo(CALENDAR_ZONE)
    low, high = default_window(NOW, zone)
    month = (day_start(MONTH[0], zone), day_end(MONTH[1], zone))
    broad = (day_start(BROAD[0], zone), day_end(BROAD[1], zone))
    category = catalog.category_slugs[0]
    venue = catalog.venue_ids[min(VENUE_RANK, len(catalog.venue_ids) - 1)]
    month_params: dict[str, Any] = {
        "start_date": MONTH[0].isoformat(),
        "end_date": MONTH[1].isoformat(),
    }
    broad_params: dict[str, Any] = {
        "start_date": BROAD[0].isoformat(),
        "end_date": BROAD[1].isoformat(),
    }
    # Page 200 of the broad query, or its last page on a dataset too small to have 200.
    broad_total = hand.window(*broad).total
    page = max(1, min(BROAD_PAGE, -(-broad_total // PER_PAGE)))
    sample = _published_sample(hand, ids, seed=seed)
    slugs = [slug for _, slug in sample]
    event_ids = [i for i, _ in sample]

    return [
        Query(
            "default_window",
            "list() with no filter: yesterday .. +24 months",
            lambda _: public.events.list(),
            lambda _: hand.window(low, high),
            {},
            "window",
            (low, high, high),
        ),
        Query(
            "one_month",
            "list(start_date, end_date) over one month",
            lambda _: public.events.list(**month_params),
            lambda _: hand.window(*month),
            month_params,
            "window",
            (*month, month[1]),
        ),
        Query(
            "category_window",
            "list(categories=[top-level slug], one-month window); includes sub-categories",
            lambda _: public.events.list(categories=[category], **month_params),
            lambda _: hand.category_window(category, *month),
            {"categories": [category], **month_params},
            "category_window",
            (category, *month, month[1]),
        ),
        Query(
            "venue",
            f"list(venue=[the #{VENUE_RANK + 1} busiest venue]) in the default window",
            lambda _: public.events.list(venue=[venue]),
            lambda _: hand.venue_window(venue, low, high),
            {"venue": [venue]},
            "venue",
            (venue, low, high, high),
        ),
        Query(
            "search",
            f"list(search={SEARCH_WORD!r}) in the default window",
            lambda _: public.events.list(search=SEARCH_WORD),
            lambda _: hand.search_window(SEARCH_WORD, low, high),
            {"search": SEARCH_WORD},
            "search",
            (hand.search_param(SEARCH_WORD), low, high, high),
        ),
        Query(
            "page_200",
            f"list(page={page}) of {BROAD[0].year}-{BROAD[1].year}",
            lambda _: public.events.list(page=page, **broad_params),
            lambda _: hand.window(*broad, page=page),
            {"page": page, **broad_params},
            "window",
            (*broad, broad[1]),
        ),
        Query(
            "get_by_id",
            f"get(id), cycling over {len(event_ids)} published events",
            lambda i: public.events.get(event_ids[i % len(event_ids)]),
            lambda i: hand.get(event_ids[i % len(event_ids)]),
            {"ids": len(event_ids)},
            "get_by_id",
            (event_ids[0],),
            is_list=False,
        ),
        Query(
            "get_by_slug",
            f"get_by_slug(slug), cycling over {len(slugs)} published events",
            lambda i: public.events.get_by_slug(slugs[i % len(slugs)]),
            lambda i: hand.get_by_slug(slugs[i % len(slugs)]),
            {"slugs": len(slugs)},
            "get_by_slug",
            (slugs[0],),
            is_list=False,
        ),
    ]


def _published_sample(hand: HandWritten, ids: list[int], *, seed: int) -> list[tuple[int, str]]:
    """Up to ``GET_SAMPLE`` (id, slug) of published events, spread over the whole file."""
    rng = random.Random(seed)
    picked = rng.sample(ids, min(len(ids), GET_SAMPLE * 2))
    rows = hand.published(picked)
    rng.shuffle(rows)
    return rows[:GET_SAMPLE]


def _library_connection(cal: ec.Calendar) -> sqlite3.Connection | None:
    """The SQLite connection this thread's library reads go through (for tracing and
    settings), if the backend is SQLite."""
    reads = getattr(getattr(cal.backend, "engine", None), "read_connection", None)
    conn = reads() if callable(reads) else None
    return conn if isinstance(conn, sqlite3.Connection) else None


def _pragmas(conn: sqlite3.Connection | None) -> dict[str, Any]:
    """The connection settings that move read latency the most."""
    if conn is None:
        return {}
    names = ("cache_size", "mmap_size", "journal_mode", "synchronous", "page_size")
    return {name: conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names}


#: A statement the library ran and its parameters (``()`` when the SQL has them inlined).
Statement = tuple[str, tuple[Any, ...]]


def _trace(cal: ec.Calendar, call: Callable[[], Any]) -> list[Statement] | None:
    """The SQL statements one library call runs, or ``None`` if this backend cannot say.

    SQLite: its trace callback, values inlined, including the statements SQLite runs on its own
    behalf (FTS5 index reads, triggers), which the trace marks with a leading ``--``. Other SQL
    backends: what the shared SQL layer's engine is asked to ``execute``, with parameters.
    """
    conn = _library_connection(cal)
    if conn is not None:
        traced: list[str] = []
        conn.set_trace_callback(traced.append)
        try:
            call()
        finally:
            conn.set_trace_callback(None)
        return [(sql, ()) for sql in traced]
    engine = getattr(cal.backend, "engine", None)
    execute = getattr(engine, "execute", None)
    if engine is None or execute is None:
        return None
    statements: list[Statement] = []

    def recording(sql: str, params: Sequence[Any] = ()) -> Any:
        statements.append((sql, tuple(params)))
        return execute(sql, params)

    engine.execute = recording  # an instance attribute, shadowing the method for one call
    try:
        call()
    finally:
        del engine.execute
    return statements


def check_ticker(cal: ec.Calendar, ticker: TickerLike) -> None:
    """Refuse to time "cold" lists if a tick does not move the library's generation: they
    would silently be warm ones."""
    generation = getattr(cal.backend, "generation", None)
    if generation is None:
        return
    before = generation()
    ticker.tick()
    if generation() == before:
        raise BenchMismatch("the ticker's commit does not change the library's generation()")


class Ticker:
    """Commits a one-row write to the benchmark file from a connection of its own (SQLite;
    ``handwritten_pg.Ticker`` is PostgreSQL's).

    The library caches a list's total until the data changes (any commit, from any
    connection). Timing the same list 200 times would then time the cache, not the count; a
    tick between calls makes the next list the first one after a write, without touching any
    row a query reads.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("CREATE TABLE IF NOT EXISTS bench_tick (n INTEGER NOT NULL)")
        if self.conn.execute("SELECT count(*) FROM bench_tick").fetchone()[0] == 0:
            self.conn.execute("INSERT INTO bench_tick (n) VALUES (0)")
        self._cal: ec.Calendar | None = None

    def tick(self) -> None:
        """A write the change journal cannot itemise ("anything"), so the next list counts
        its total afresh rather than carrying a kept one (``sql.kept_totals``)."""
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute("UPDATE bench_tick SET n = n + 1")
        self.conn.execute("INSERT INTO changes (kind, record_id, op) VALUES ('*', 0, 'update')")
        self.conn.execute("COMMIT")

    def add(self) -> None:
        """A new event, from a library connection of its own: the next list carries its
        kept total over it (``sql.kept_totals``)."""
        if self._cal is None:
            self._cal = ec.connect(f"sqlite:///{self.path}")
        self._cal.events.create(**ADDED_EVENT)

    def close(self) -> None:
        self.conn.close()
        if self._cal is not None:
            self._cal.close()


#: A timed side: its name, the call, and what to do (untimed) just before each call.
Side = tuple[str, Callable[[int], Any], Callable[[], None] | None]


def time_sides(
    sides: Sequence[Side], repeat: int, warmup: int, budget_s: float | None = None
) -> dict[str, list[int]]:
    """Timings (ns) of each side, interleaved, the order rotated every iteration, so drift
    (page cache, CPU frequency, other load) hits every side alike.

    With ``budget_s``, stops early once that many seconds are spent and ``MIN_RUNS`` runs are
    done: a query taking a second at 1M events would otherwise hold the run for minutes
    without making its percentiles any more useful.
    """
    for i in range(warmup):
        for _, call, prepare in sides:
            if prepare is not None:
                prepare()
            call(i)
    found: dict[str, list[int]] = {name: [] for name, _, _ in sides}
    clock = time.perf_counter_ns
    deadline = None if budget_s is None else clock() + int(budget_s * 1e9)
    for i in range(repeat):
        if deadline is not None and i >= MIN_RUNS and clock() > deadline:
            break
        shift = i % len(sides)
        for name, call, prepare in (*sides[shift:], *sides[:shift]):
            if prepare is not None:
                prepare()
            started = clock()
            call(i)
            found[name].append(clock() - started)
    return found


def _stats(samples: list[int]) -> dict[str, float]:
    return {
        "p50_ms": _ms(_percentile(samples, 50)),
        "p95_ms": _ms(_percentile(samples, 95)),
        "min_ms": _ms(min(samples)),
        "mean_ms": _ms(sum(samples) / len(samples)),
    }


def run_queries(
    cal: ec.Calendar,
    hand: HandWritten,
    queries: list[Query],
    *,
    repeat: int,
    warmup: int,
    budget_s: float | None = None,
    ticker: TickerLike | None = None,
) -> dict[str, Any]:
    """Check, trace and time every query.

    Lists are timed four ways: ``library`` (repeated calls, as a calendar serves reads
    between writes: the total may come from the library's cache), ``library_cold`` (each call
    the first after a write, via ``ticker``: the total is counted), ``library_added`` (each
    call the first after a new event: the kept total is carried over it) and ``hand`` (counts
    every time). ``ratio_p50`` compares the cold figure, the same work as the hand-written SQL.
    """
    results: dict[str, Any] = {}
    for query in queries:
        # A list is checked once; a get is checked for every event of its sample.
        checked: dict[str, Any] = {}
        for i in range(1 if query.is_list else GET_SAMPLE):
            checked = check_same(query.name, query.library(i), query.hand(i))
        traced = _trace(cal, lambda q=query: q.library(0))  # type: ignore[misc]
        own = [(sql, ps) for sql, ps in traced or () if not sql.startswith("--")]
        sides: list[Side] = [("library", query.library, None), ("hand", query.hand, None)]
        if query.is_list and ticker is not None:
            sides.append(("library_cold", query.library, ticker.tick))
            sides.append(("library_added", query.library, ticker.add))
        timings = time_sides(sides, repeat, warmup, budget_s)
        stats = {name: _stats(samples) for name, samples in timings.items()}
        hw = stats["hand"]
        compared = stats.get("library_cold", stats["library"])
        results[query.name] = {
            "description": query.description,
            "params": query.params,
            "runs": len(timings["library"]),
            **checked,
            **stats,
            # Cold library (the same work as the hand-written SQL) over hand-written.
            "ratio_p50": round(compared["p50_ms"] / hw["p50_ms"], 2) if hw["p50_ms"] else None,
            "warm_ratio_p50": (
                round(stats["library"]["p50_ms"] / hw["p50_ms"], 2) if hw["p50_ms"] else None
            ),
            **_diagnostics(hand, query, traced, own),
        }
    return results


def _diagnostics(
    hand: HandWritten, query: Query, traced: list[Statement] | None, own: list[Statement]
) -> dict[str, Any]:
    """The statements the library sent (SQLite's own, e.g. FTS5 reads, counted apart) and the
    plans of its SELECTs and of the hand-written statement, read on the floor's connection."""
    found: dict[str, Any] = {}
    if traced is not None:
        found["library_statements"] = len(own)
        if hand.dialect == "sqlite":
            found["sqlite_internal_statements"] = len(traced) - len(own)
        found["library_sql"] = [sql for sql, _ in own]
        found["library_plans"] = {
            sql: hand.plan(sql, ps) for sql, ps in own if sql.lstrip().upper().startswith("SELECT")
        }
    found["hand_sql"] = hand.sql_of(query.shape)
    found["hand_plan"] = hand.plan(hand.sql_of(query.shape), query.shape_params)
    return found


def library_fingerprint() -> str:
    """A digest of the library's source files as imported by this process.

    The library changes while benchmarks run (``git describe --dirty`` cannot tell two dirty
    trees apart), so each run records exactly which code it measured.
    """
    digest = hashlib.sha256()
    root = Path(ec.__file__).parent
    for source in sorted(root.rglob("*.py")):
        digest.update(source.relative_to(root).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


# -- one size -------------------------------------------------------------------------------
def run_size(
    n: int,
    *,
    db_dir: Path,
    repeat: int,
    warmup: int = 3,
    budget_s: float | None = None,
    seed: int = 20260615,
    spec: CatalogSpec | None = None,
    tracemalloc_max: int = 10_000,
    quiet: bool = False,
    backend: str = "sqlite",
    pg_prefix: str = "ec_bench",
    keep: bool = False,
    load_only: bool = False,
    append: int = 0,
    reuse: bool = False,
) -> dict[str, Any]:
    """Load ``n`` events into a fresh database (``db_dir/events-<n>.db``, or ``<pg_prefix>_<n>``
    on a PostgreSQL server, dropped at the end unless ``keep``) and time every query (unless
    ``load_only``); then load ``append`` more events into it."""
    source = library_fingerprint()  # first, as close as possible to the import it describes
    spec = spec or CatalogSpec()
    db_dir.mkdir(parents=True, exist_ok=True)
    target = make_target(backend, n, db_dir=db_dir, pg_prefix=pg_prefix)
    results: dict[str, Any] = {}
    counts: dict[str, int] = {}
    settings: dict[str, Any] = {}
    try:
        cal, catalog, ids, load_figures = (
            reuse_loaded(target)
            if reuse
            else load(target, n, spec, seed=seed, rows_dir=db_dir, quiet=quiet)
        )
        peak_rss = _rss_mb()  # the load's own peak, before any query or second load
        hand = target.hand(per_page=PER_PAGE)
        try:
            if not load_only:
                results, counts, settings = _time_queries(
                    cal, hand, target, catalog, ids, n=n, seed=seed, repeat=repeat,
                    warmup=warmup, budget_s=budget_s, quiet=quiet,
                )  # fmt: skip
            if append:
                load_figures["append"] = append_load(
                    cal, catalog, n, append, seed=seed, rows_dir=db_dir, quiet=quiet
                )
        finally:
            hand.close()
            cal.close()
    finally:
        if target.backend != "sqlite" and not keep:
            target.drop()
    if n <= tracemalloc_max and not reuse:
        scratch = make_target(backend, n, db_dir=db_dir, pg_prefix=pg_prefix, suffix="traced")
        load_figures["tracemalloc_peak_mb"] = traced_load_peak(scratch, n, spec, seed=seed)
    else:
        load_figures["tracemalloc_peak_mb"] = None
    return {
        "n": n,
        "library_source_sha256": source,
        "backend": target.backend,
        "db": target.describe(),
        "catalog": asdict(spec),
        "statuses": counts,
        **settings,
        "load": load_figures,
        "queries": results,
        "peak_rss_mb": peak_rss,
    }


def _time_queries(
    cal: ec.Calendar,
    hand: HandWritten,
    target: Target,
    catalog: Catalog,
    ids: list[int],
    *,
    n: int,
    seed: int,
    repeat: int,
    warmup: int,
    budget_s: float | None,
    quiet: bool,
) -> tuple[dict[str, Any], dict[str, int], dict[str, Any]]:
    """Every query of ``QUERIES`` timed against its hand-written twin; the statuses loaded and
    the connection or server settings."""
    queries = build_queries(cal, hand, catalog, ids, seed=seed)
    if not quiet:
        print(f"  N={n:,}: timing {len(queries)} queries x {repeat} runs", flush=True)
    ticker = target.ticker()
    try:
        check_ticker(cal, ticker)
        results = run_queries(
            cal,
            hand,
            queries,
            repeat=repeat,
            warmup=warmup,
            budget_s=budget_s,
            ticker=ticker,
        )
    finally:
        ticker.close()
    counts = dict(hand.fetchall("SELECT status, count(*) FROM events GROUP BY status"))
    settings = (
        {"connection_pragmas": {"library": _pragmas(_library_connection(cal))}}
        if target.backend == "sqlite"
        else {"server_settings": hand.settings()}
    )
    if target.backend == "sqlite":
        settings["connection_pragmas"]["hand"] = hand.settings()
    return results, counts, settings


# -- command line ---------------------------------------------------------------------------
def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated event counts")
    parser.add_argument(
        "--backend",
        default="sqlite",
        help="'sqlite' (a file per size) or a postgresql:// URL: its server gets a fresh"
        " database per size, created and dropped through that URL's database",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="JSON report (default bench/results/storage.json, or storage-postgres.json)",
    )
    parser.add_argument(
        "--db-dir", type=Path, help="where the SQLite files go (kept); default: a temp dir"
    )
    parser.add_argument(
        "--pg-prefix", default="ec_bench", help="PostgreSQL database name prefix (<prefix>_<N>)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep each size's PostgreSQL database (not dropped)"
    )
    parser.add_argument("--repeat", type=int, default=200, help="timed runs per query")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs per query")
    parser.add_argument(
        "--budget",
        type=float,
        help=f"seconds of timing per query after which to stop (at least {MIN_RUNS} runs)",
    )
    parser.add_argument(
        "--load-only", action="store_true", help="measure the loads and memory; time no query"
    )
    parser.add_argument(
        "--append",
        type=int,
        help="after each size N, load this many more events into it (0: none; default N/10,"
        " at most 100,000)",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the queries on the SQLite files an earlier run left in --db-dir (same seed)"
        " instead of loading new ones",
    )
    parser.add_argument("--seed", type=int, default=20260615)
    parser.add_argument("--tracemalloc-max", type=int, default=10_000)
    parser.add_argument("--in-process", action="store_true", help="run every size in this process")
    # Internal: a child run for one size; writes JSON, prints no table.
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.backend != "sqlite" and not is_postgres(args.backend):
        parser.error(f"--backend: 'sqlite' or a postgresql:// URL, not {args.backend!r}")
    if args.out is None:
        name = "storage.json" if args.backend == "sqlite" else "storage-postgres.json"
        args.out = Path("bench/results") / name
    return args


def _run_child(n: int, args: argparse.Namespace, db_dir: Path, scratch: Path) -> dict[str, Any]:
    """One size in a fresh interpreter, so its peak RSS is its own."""
    out = scratch / f"run-{n}.json"
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        f"--sizes={n}",
        f"--out={out}",
        f"--db-dir={db_dir}",
        f"--repeat={args.repeat}",
        f"--warmup={args.warmup}",
        *([f"--budget={args.budget}"] if args.budget is not None else []),
        f"--seed={args.seed}",
        f"--tracemalloc-max={args.tracemalloc_max}",
        f"--backend={args.backend}",
        f"--pg-prefix={args.pg_prefix}",
        *([f"--append={args.append}"] if args.append is not None else []),
        *(["--keep"] if args.keep else []),
        *(["--load-only"] if args.load_only else []),
        *(["--reuse"] if args.reuse else []),
    ]
    subprocess.run(command, check=True)  # noqa: S603 - our own script, our own arguments
    runs: list[dict[str, Any]] = json.loads(out.read_text())["runs"]
    return runs[0]


def _backend_config(backend: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """What the report says about the database it measured (no user name or password)."""
    if backend == "sqlite":
        return {
            "backend": "sqlite",
            "plans": "EXPLAIN QUERY PLAN; library_sql from SQLite's trace callback",
        }
    from urllib.parse import urlsplit

    parts = urlsplit(backend)
    server = runs[0].get("server_settings", {}) if runs else {}
    return {
        "backend": "postgresql",
        "server": f"{parts.hostname}:{parts.port or 5432}",
        "postgresql": server.get("server_version"),
        "hand_written": "psycopg 3, autocommit, read-only, one statement per step",
        "plans": "EXPLAIN (estimated, not ANALYZE), parameters bound client-side; library_sql"
        " is what the library's SQL engine was asked to execute for one call",
        "after_load": "VACUUM (ANALYZE), untimed, before any query",
    }


def render_loads(report: dict[str, Any]) -> str:
    """The bulk loads alone: each size's rate into an empty database, its rate into the
    loaded one, and the process's peak RSS after the first load."""
    lines = ["", "Bulk loads (bulk_create, rows read from a JSON-lines file):"]
    for run in report["runs"]:
        load_, more = run["load"], run["load"].get("append")
        if load_.get("reused"):
            continue
        lines.append(
            f"  N = {run['n']:>9,}: {load_['events_per_s']:>9,.0f} events/s into an empty"
            f" database, peak RSS {run['peak_rss_mb']:,.0f} MiB"
            + (
                f"; {more['events']:,} more at {more['events_per_s']:,.0f} events/s"
                f" into {more['into_events']:,}"
                if more
                else ""
            )
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    scratch = Path(tempfile.mkdtemp(prefix="ec-bench-"))
    db_dir = args.db_dir or scratch / "db"
    runs = []
    try:
        for n in sizes:
            if args.in_process or args.child:
                run = run_size(
                    n,
                    db_dir=db_dir,
                    repeat=args.repeat,
                    warmup=args.warmup,
                    budget_s=args.budget,
                    seed=args.seed,
                    tracemalloc_max=args.tracemalloc_max,
                    backend=args.backend,
                    pg_prefix=args.pg_prefix,
                    keep=args.keep,
                    load_only=args.load_only,
                    append=min(n // 10, 100_000) if args.append is None else args.append,
                    reuse=args.reuse,
                )
            else:
                print(f"N = {n:,} (in a child process)", flush=True)
                run = _run_child(n, args, db_dir, scratch)
            if args.backend == "sqlite" and args.db_dir is None:  # free the disk now
                _fresh(Path(run["db"]))
            runs.append(run)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    config = {
        "repeat": args.repeat,
        "warmup": args.warmup,
        "budget_s": args.budget,
        "min_runs": MIN_RUNS,
        "seed": args.seed,
        "now": NOW.isoformat(),
        "calendar_zone": CALENDAR_ZONE,
        "per_page": PER_PAGE,
        "search_word": SEARCH_WORD,
        "timer": "time.perf_counter_ns; library and hand-written calls interleaved",
        **_backend_config(args.backend, runs),
    }
    report = build_report(runs, config=config, windowed=() if args.load_only else WINDOWED)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if not args.child:
        print(render_table(report))
        print(render_loads(report))
        print(f"\nJSON: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
