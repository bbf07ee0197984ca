"""``cal.events.iter()`` on PostgreSQL with and without the link tables' ``_of_event``
indexes (migration 13), runs alternated so that drift hits both sides alike.

Usage, on a database a load left (``bench/storage.py --backend URL --keep --load-only``)::

    .venv/bin/python bench/pg_link_reads.py postgresql://postgres@127.0.0.1:5432/ec_bench_30000

Each round drops the indexes, times one ``iter()`` over every event, creates them again and
times another; it prints events/s for each run and the share of the time spent reading links
(``SQLStore._links``). The indexes are left in place, as migration 13 leaves them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import psycopg

import events_calendar as ec
from events_calendar.backends.sql import store
from events_calendar.backends.sql.schema import LINKS

ALL = ["publish", "draft", "pending", "private", "future", "trash"]
EVERYTHING = {"start_date": "2019-01-01", "end_date": "2034-01-01", "status": ALL}


def _set_indexes(url: str, *, present: bool) -> None:
    """Create (or drop) every link table's ``_of_event`` index, then ``ANALYZE``."""
    with psycopg.connect(url, autocommit=True) as connection:
        for link in LINKS.values():
            name = f'"{link.table}_of_event"'
            if present:
                connection.execute(
                    f'CREATE INDEX IF NOT EXISTS {name} ON "{link.table}"'
                    f' (event_id, position, "{link.column}")'
                )
            else:
                connection.execute(f"DROP INDEX IF EXISTS {name}")
        connection.execute("VACUUM (ANALYZE)")


def _timed_iter(url: str) -> tuple[int, float, float]:
    """Events iterated, seconds, seconds of it reading links."""
    spent = 0.0
    links = store.SQLStore._links

    def timed(self: store.SQLStore, ids: Sequence[int]) -> dict[str, dict[int, list[int]]]:
        nonlocal spent
        began = time.perf_counter()
        try:
            return links(self, ids)
        finally:
            spent += time.perf_counter() - began

    cal = ec.connect(url)
    store.SQLStore._links = timed  # type: ignore[method-assign]
    try:
        began = time.perf_counter()
        count = sum(1 for _ in cal.events.iter(**EVERYTHING))
        return count, time.perf_counter() - began, spent
    finally:
        store.SQLStore._links = links  # type: ignore[method-assign]
        cal.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="a loaded PostgreSQL database")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    ec.connect(args.url).close()  # migrated first
    rates: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(args.rounds):
        for present in (False, True):
            _set_indexes(args.url, present=present)
            _timed_iter(args.url)  # warm the cache
            count, seconds, links = _timed_iter(args.url)
            rates[present].append(count / seconds)
            print(
                f"round {round_ + 1} {'with' if present else 'without':7} the index:"
                f" {count} events in {seconds:.3f} s, {count / seconds:,.0f} events/s,"
                f" links {links / seconds:.0%} of it"
            )
    for present in (False, True):
        print(
            f"{'with' if present else 'without':7} the index: median"
            f" {statistics.median(rates[present]):,.0f} events/s"
            f" (min {min(rates[present]):,.0f}, max {max(rates[present]):,.0f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
