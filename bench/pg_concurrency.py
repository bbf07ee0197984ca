"""The PostgreSQL concurrency workload, long: run by hand.

    .venv/bin/python bench/pg_concurrency.py [--processes 4] [--threads 4] [--rounds 200]

Creates a database of its own on the test server (see ``events_calendar.testing.postgres``),
runs ``events_calendar.testing.concurrency.run_workload`` and prints the verdict; exits 1 on
any error, lost update, duplicate slug or wrong total.
"""

from __future__ import annotations

import argparse
import sys
import time

from events_calendar.testing.concurrency import run_workload
from events_calendar.testing.postgres import test_database


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    database = test_database()
    started = time.perf_counter()
    outcome = run_workload(
        database.url, processes=args.processes, threads=args.threads, rounds=args.rounds
    )
    seconds = time.perf_counter() - started
    expected = outcome.created - outcome.deleted
    print(
        f"{args.processes} processes x {args.threads} threads x {args.rounds} rounds in"
        f" {seconds:.1f} s: {len(outcome.errors)} errors, {outcome.lost_updates} lost updates,"
        f" {outcome.duplicate_slugs} duplicate slugs, {outcome.events} events"
        f" (expected {expected})"
    )
    for error in outcome.errors[:3]:
        print(error)
    ok = not outcome.errors and not outcome.lost_updates and not outcome.duplicate_slugs
    return 0 if ok and outcome.events == expected else 1


if __name__ == "__main__":
    sys.exit(main())
