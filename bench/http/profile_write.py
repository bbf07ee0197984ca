"""Where the time of one ``POST /events`` goes: the served app driven in-process (issue 12, item 4).

Usage::

    .venv/bin/python bench/http/profile_write.py --events 100000 --db-dir /tmp/ec-http-bench

``profile.py``'s method for the writes of ``mix.py``: the app ``events-calendar serve`` builds
(``app_from_environment``), on a scratch copy of ``database.py``'s file (the writes must not
change the data later runs measure), with the writer ``mix.py`` creates (an application password
sent as Basic auth), sent the mix's ``POST /events`` bodies one at a time through the minimal
ASGI loop of ``profile.py`` (no socket, no HTTP parser). Two passes: **plain** (time per
write, no instrumentation) and **cProfile** (the ``--top`` functions by cumulative and by self
time; the app's calls to its thread pool run inline in that pass, as cProfile sees one
thread only). Every answer must be 201.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio.to_thread
from database import DEFAULT_DB_DIR, DEFAULT_SEED, ensure_database, serve_environment
from inprocess import API, asgi_get, cProfile, pstats
from mix import WRITER, writer_password

__all__ = ["main", "write_bodies"]


def write_bodies(count: int, *, day: datetime) -> list[bytes]:
    """``count`` bodies of the mix's writes: new published events in the coming months."""
    bodies = []
    for n in range(count):
        start = (day + timedelta(days=1 + 7 * (n % 28))).date()
        event = {
            "title": f"Profiled write {n}",
            "status": "publish",
            "start_date": f"{start} 18:00:00",
            "end_date": f"{start} 20:00:00",
        }
        bodies.append(json.dumps(event).encode())
    return bodies


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--db-dir", type=Path, default=DEFAULT_DB_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--requests", type=int, default=200, help="writes in the plain pass")
    parser.add_argument("--profile-requests", type=int, default=100, help="writes profiled")
    parser.add_argument("--top", type=int, default=20)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    source, _ = ensure_database(args.db_dir, args.events, seed=args.seed)
    scratch = Path(tempfile.mkdtemp(prefix="ec-http-write-"))
    try:
        db = scratch / "write.db"
        shutil.copyfile(source, db)
        password = writer_password(f"sqlite:///{db}")
        os.environ.update(serve_environment(db))
        from events_calendar.http.server import app_from_environment

        app = app_from_environment()
        auth = base64.b64encode(f"{WRITER}:{password}".encode())
        headers = [(b"authorization", b"Basic " + auth), (b"content-type", b"application/json")]
        bodies = write_bodies(args.requests + args.profile_requests, day=datetime.now(UTC))

        async def post(body: bytes) -> float:
            started = time.perf_counter()
            status, answer = await asgi_get(
                app, f"{API}/events", method="POST", headers=headers, body=body
            )
            if status != 201:
                raise SystemExit(f"POST /events answered {status}: {answer[:300]!r}")
            return time.perf_counter() - started

        async def plain() -> list[float]:
            return [await post(body) for body in bodies[: args.requests]]

        times = asyncio.run(plain())
        mean, cuts = statistics.fmean(times), statistics.quantiles(times, n=100)
        print(
            f"plain: {len(times)} writes, mean {1e3 * mean:.2f} ms, p50 {1e3 * cuts[49]:.2f} ms,"
            f" p99 {1e3 * cuts[98]:.2f} ms -> at most {1 / mean:,.0f} writes/s on one worker"
            " before HTTP"
        )
        slow = [t for t in times if t > 10 * cuts[49]]
        print(
            f"slowest: {', '.join(f'{1e3 * t:.1f}' for t in sorted(times)[-5:])} ms; over 10x"
            f" the median: {len(slow)} writes, {100 * sum(slow) / sum(times):.0f}% of the time"
        )
        profiler = cProfile.Profile()

        async def profiled() -> None:
            for body in bodies[args.requests :]:
                await post(body)

        # cProfile sees only the thread that enables it: the app's calls to the thread pool
        # run inline for this pass, so the storage work is in the profile.
        async def inline(func: Callable[..., Any], *args: Any, **_: Any) -> Any:
            return func(*args)

        threaded, anyio.to_thread.run_sync = anyio.to_thread.run_sync, inline
        profiler.enable()
        try:
            asyncio.run(profiled())
        finally:
            profiler.disable()
            anyio.to_thread.run_sync = threaded
        for order in ("cumulative", "tottime"):
            print(f"\ncProfile, {args.profile_requests} writes, top by {order} time:")
            pstats.Stats(profiler).sort_stats(order).print_stats(args.top)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
