"""What a catch-up costs against the number of event lists the response cache keeps.

Usage::

    .venv/bin/python bench/http/catchup.py --lists 100 1000 10000 --repeat 50

After a write that adds events, every cached read waits while the cache works out which kept
event lists a new event may show (``events_calendar.http.listing_index``). A public calendar's
cache collects a list per venue, organizer, category, search word and window its visitors
open, thousands of them in a full cache. This fills a ``ResponseCache`` with ``--lists`` kept
event lists in about the proportions of ``mix.py``'s URLs (venues 40%, organizers 20%,
categories 20%, one-word searches 10%, month windows 10%, plus the default window), then
times both halves of one catch-up for a new published event at one of those venues, with no
organizer or term (as the mix's writes are, but for the venue):

- ``thread``: the judging a catch-up does in its worker thread (``ResponseCache.showing``);
- ``loop``: ``ResponseCache.caught_up`` on the event loop, where every cached read waits.

Each is timed two ways: **narrowed** (the ``NewEvents`` judge, asked only of the lists the
index says may show the event: what the server does) and **every list** (the same judge
wrapped as a plain predicate, which the cache asks of every kept list, as it did before the
index). The cache is filled afresh before each timed catch-up. Prints the medians in µs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from events_calendar.http.cache import CachedResponse, ResponseCache
from events_calendar.http.cache_tags import ALL, SHOWS_EVENTS, Listing, NewEvents, Shown

__all__ = ["main", "queries"]

#: The share of each kind of kept list (the rest: month windows).
SHARES = {"venue": 0.4, "organizer": 0.2, "categories": 0.2, "search": 0.1}
EVENT_VENUE = 1


def queries(count: int) -> list[str]:
    """``count`` distinct event list query strings of the kinds a public calendar keeps."""
    found = [""]
    for kind, share in SHARES.items():
        for n in range(1, max(1, int(count * share)) + 1):
            found.append(f"search=word{n}" if kind == "search" else f"{kind}={n}")
    first = date(2031, 1, 1)
    while len(found) < count:
        start = first + timedelta(days=len(found))
        found.append(f"start_date={start}&end_date={start + timedelta(days=30)}")
    return found[:count]


def new_event() -> Shown:
    day = date(2031, 1, 20)
    return Shown(
        starts=day,
        ends=day,
        venues=frozenset({EVENT_VENUE}),
        organizers=frozenset(),
        terms=False,
        text="bench write",
    )


def filled(listings: Sequence[Listing]) -> tuple[ResponseCache, int]:
    """A cache keeping one page of each list, and the token of its view."""
    cache = ResponseCache(now=lambda: datetime(2031, 1, 1, tzinfo=UTC))
    token = cache.caught_up(1, 0, frozenset())
    tags = frozenset({ALL, SHOWS_EVENTS})
    for n, listing in enumerate(listings):
        cache.put(n, token, CachedResponse(200, (), b"{}", (), tags, listing), 1)
    return cache, token


def timed_catch_up(listings: Sequence[Listing], *, narrowed: bool) -> tuple[float, float, int]:
    """One catch-up on a freshly filled cache: seconds in the thread half, in the loop half,
    and the answers it retired."""
    cache, _ = filled(listings)
    new = NewEvents([new_event()])
    judge: Callable[[Listing], bool] = new if narrowed else (lambda listing: new(listing))
    started = time.perf_counter()
    if narrowed:
        cache.showing(new)
    else:
        _ = [listing for listing in listings if not new(listing)]
    judged = time.perf_counter()
    cache.caught_up(2, 1, frozenset(), judge)
    done = time.perf_counter()
    return judged - started, done - judged, len(listings) - len(cache)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=50, help="catch-ups timed per case")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if not all(1 <= n <= 200_000 for n in args.lists) or not 1 <= args.repeat <= 10_000:
        parser.error("--lists is 1..200,000 and --repeat 1..10,000")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    rows = []
    print(f"{'lists':>7} {'judged':>12} {'retired':>7} {'thread µs':>10} {'loop µs':>9}")
    for count in args.lists:
        listings = [Listing.of(query) for query in queries(count)]
        for narrowed in (True, False):
            runs = [timed_catch_up(listings, narrowed=narrowed) for _ in range(args.repeat)]
            thread = 1e6 * statistics.median(r[0] for r in runs)
            loop = 1e6 * statistics.median(r[1] for r in runs)
            mode = "narrowed" if narrowed else "every list"
            rows.append(
                {
                    "lists": count,
                    "mode": mode,
                    "retired": runs[0][2],
                    "thread_us": thread,
                    "loop_us": loop,
                }
            )
            print(f"{count:>7,} {mode:>12} {runs[0][2]:>7,} {thread:>10,.1f} {loop:>9,.1f}")
    if args.out:
        args.out.write_text(json.dumps({"repeat": args.repeat, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
