"""Where the time goes: cProfile over ``bulk_create`` and over the benchmark's queries.

Usage::

    .venv/bin/python bench/profile_storage.py --n 20000            # load, then queries
    .venv/bin/python bench/profile_storage.py --db /tmp/bench-db/events-100000.db  # queries only
    .venv/bin/python bench/profile_storage.py --db ... --cold  # each list the first after a write

Why a separate script: the benchmark reports *how long*; this says *where*, with the same
dataset and the same queries, so a slow figure in ``storage.json`` can be traced to functions.
cProfile's overhead inflates Python-heavy code more than SQLite's C code, so read the shares,
not the absolute times.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dataset import CatalogSpec, catalog_from_file, create_catalog, event_rows
from handwritten import HandWritten
from storage import PER_PAGE, Ticker, _fresh, _open, build_queries

__all__ = ["catalog_from_file", "main", "profile"]


def profile(call: Callable[[], Any], *, top: int, sort: str = "cumulative") -> str:
    """Run ``call`` under cProfile and return the ``top`` rows sorted by ``sort``."""
    profiler = cProfile.Profile()
    profiler.enable()
    call()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats(sort).print_stats(top)
    return out.getvalue()


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000, help="events to load and profile")
    parser.add_argument("--db", type=Path, help="profile queries on this benchmark file instead")
    parser.add_argument("--runs", type=int, default=200, help="calls per query")
    parser.add_argument("--top", type=int, default=25, help="rows per profile")
    parser.add_argument("--seed", type=int, default=20260615)
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (or tottime)")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="commit an unrelated write before each list call, so totals are counted",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    scratch = Path(tempfile.mkdtemp(prefix="ec-profile-"))
    if args.db is None:
        path = scratch / f"events-{args.n}.db"
        _fresh(path)
        cal = _open(path)
        catalog = create_catalog(cal, CatalogSpec(), seed=args.seed)
        rows = list(event_rows(args.n, catalog, seed=args.seed))
        ids: list[int] = []
        print(f"== bulk_create({args.n:,} rows)")
        print(
            profile(lambda: ids.extend(cal.events.bulk_create(rows)), top=args.top, sort=args.sort)
        )
    else:
        path = args.db
        catalog, ids = catalog_from_file(path)
        cal = _open(path)
    hand = HandWritten(path, per_page=PER_PAGE)
    ticker = Ticker(path) if args.cold else None
    try:
        for query in build_queries(cal, hand, catalog, ids, seed=args.seed):

            def repeat(q: Any = query) -> None:
                for i in range(args.runs):
                    if ticker is not None:
                        ticker.tick()  # the library's cached totals retire: a cold list
                    q.library(i)

            print(f"== {query.name} x {args.runs}: {query.description}")
            print(profile(repeat, top=args.top, sort=args.sort))
    finally:
        if ticker is not None:
            ticker.close()
        hand.close()
        cal.close()
        if args.db is None:
            _fresh(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
