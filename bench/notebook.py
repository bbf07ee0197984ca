"""Notebook workloads at scale: whole-query iteration, DataFrame export, bulk rescheduling.

What it measures, on a calendar of N events built by ``dataset.py`` (kept between runs in
``--db-dir``, so the slow load is paid once per size):

- ``iter``: every listed event of the calendar (all statuses, a window over all the data;
  ``hide_from_listings`` events are not listed) streamed with ``cal.events.iter()``: events
  per second of wall time and of CPU time (the machine is shared: the CPU figure is the
  steadier one), and memory every 10,000 events: the process's heap (``RssAnon``: constant
  memory means it stays flat) and all resident memory (``VmRSS``, which also counts the
  SQLite file pages the reads touched through its memory map: file cache, not held data);
- ``to_dataframe``: the same events as a pandas DataFrame (``--frame``; it holds every row,
  so its memory grows with N by design);
- ``update_many``: 10,000 events rescheduled in one call: events per second.

Each measurement runs in a fresh child process so that the memory figures are the stream's own,
not what loading the data left behind. Run by hand, e.g.::

    .venv/bin/python bench/notebook.py --sizes 100000
    .venv/bin/python bench/notebook.py --sizes 100000 --backend postgres
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from dataset import NOW, create_catalog, event_rows

import events_calendar as ec

ALL = ["publish", "draft", "pending", "private", "future", "trash"]
EVERYTHING = {"start_date": "2019-01-01", "end_date": "2034-01-01", "status": ALL}
RESCHEDULED = 10_000


def _memory_mb(field: str = "VmRSS") -> float:
    """A memory figure of this process from ``/proc/self/status``, in MiB: ``VmRSS`` (all
    resident memory, SQLite's memory-mapped file pages included) or ``RssAnon`` (the
    process's own heap: what grows if iteration kept records)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _rss_mb() -> float:
    return _memory_mb()


def _pythonpath() -> str:
    """This folder (for ``dataset``), then the caller's own path: a run against another
    checkout's ``src`` (``PYTHONPATH=... bench/notebook.py``) measures that code."""
    return os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))


def _url(backend: str, n: int, db_dir: Path) -> str:
    if backend == "postgres":
        return f"postgresql://postgres@127.0.0.1:5432/bench_notebook_{n}"
    return f"sqlite:///{db_dir / f'notebook-{n}.db'}"


def _open(url: str) -> ec.Calendar:
    return ec.connect(url, clock=ec.FixedClock(NOW))


def _ensure_postgres_database(n: int) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        name = f"bench_notebook_{n}"
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            db.execute(f'CREATE DATABASE "{name}"')


def build(url: str, n: int) -> float:
    """Load ``n`` events unless an earlier run did; seconds spent loading."""
    cal = _open(url)
    try:
        if cal.backend.last_id("post"):  # built by an earlier run (one size per database)
            return 0.0
        began = time.perf_counter()
        catalog = create_catalog(cal)
        cal.events.bulk_create(event_rows(n, catalog))
        return time.perf_counter() - began
    finally:
        cal.close()


def measure_iter(url: str) -> dict[str, Any]:
    """Stream every event; memory sampled every 10,000 events."""
    cal = _open(url)
    start_rss, start_heap = _rss_mb(), _memory_mb("RssAnon")
    heap: list[float] = []
    rss: list[float] = []
    count = 0
    began, cpu = time.perf_counter(), time.process_time()
    for _ in cal.events.iter(**EVERYTHING):
        count += 1
        if count % 10_000 == 0:
            heap.append(_memory_mb("RssAnon"))
            rss.append(_rss_mb())
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {
        "events": count,
        "seconds": round(seconds, 2),
        "events_per_s": round(count / seconds),
        "events_per_cpu_s": round(count / cpu),
        "heap_mb_before": start_heap,
        "heap_mb_samples_min_max": [min(heap), max(heap)] if heap else None,
        "rss_mb_before": start_rss,
        "rss_mb_samples_min_max": [min(rss), max(rss)] if rss else None,
    }


def measure_frame(url: str) -> dict[str, Any]:
    """Every event as a DataFrame."""
    cal = _open(url)
    began = time.perf_counter()
    frame = cal.events.to_dataframe(**EVERYTHING)
    seconds = time.perf_counter() - began
    return {
        "rows": len(frame),
        "seconds": round(seconds, 2),
        "rows_per_s": round(len(frame) / seconds),
        "rss_mb_after": _rss_mb(),
    }


def measure_update(url: str) -> dict[str, Any]:
    """Reschedule the first 10,000 published events to one evening, in one call.

    The evening is the first from 1 September 2027 on that none of them starts on: the file
    is kept between runs, and earlier runs moved events there, so a fixed evening would
    leave more of them unchanged each run (cheaper) until a run changes none."""
    cal = _open(url)
    ids, days = [], set()
    for event in cal.events.iter(start_date="2019-01-01", end_date="2034-01-01"):
        ids.append(event.id)
        days.add(event.start_date.date())
        if len(ids) == RESCHEDULED:
            break
    evening = next(
        d for d in (date(2027, 9, 1) + timedelta(n) for n in range(400)) if d not in days
    )
    began, cpu = time.perf_counter(), time.process_time()
    done = cal.events.update_many(
        ids, start_date=f"{evening} 19:00:00", end_date=f"{evening} 22:00:00"
    )
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {
        "events": len(done),
        "evening": evening.isoformat(),
        "seconds": round(seconds, 2),
        "events_per_s": round(len(done) / seconds),
        "events_per_cpu_s": round(len(done) / cpu),
    }


MEASURES = {"iter": measure_iter, "frame": measure_frame, "update": measure_update}


def _child(what: str, url: str) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter and read its JSON answer."""
    out = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, __file__, "--measure", what, "--url", url],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": _pythonpath()},
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100000", help="comma-separated event counts")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--db-dir", type=Path, default=Path("bench/results/db"))
    parser.add_argument("--frame", action="store_true", help="also time to_dataframe")
    parser.add_argument("--no-update", action="store_true", help="skip update_many")
    parser.add_argument("--measure", choices=sorted(MEASURES), help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(MEASURES[args.measure](args.url)))
        return 0
    args.db_dir.mkdir(parents=True, exist_ok=True)
    for n in (int(s) for s in args.sizes.split(",")):
        if args.backend == "postgres":
            _ensure_postgres_database(n)
        url = _url(args.backend, n, args.db_dir)
        report: dict[str, Any] = {"backend": args.backend, "events": n}
        report["load_seconds"] = round(build(url, n), 1)
        report["iter"] = _child("iter", url)
        if args.frame:
            report["to_dataframe"] = _child("frame", url)
        if not args.no_update:
            report["update_many"] = _child("update", url)
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
