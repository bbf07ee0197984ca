"""A mixed workload from several processes and threads on one database, and its verdict.

Every worker (a thread in one of several processes, each process with its own ``Calendar``)
creates events that all want the same slug, partially updates one field of a shared event,
reads lists and records, and deletes some of what it created. Afterwards:

- no operation failed;
- no update was lost: each (shared event, field) pair has exactly one writer, so each field
  holds what its writer wrote last, although four writers from four processes partially
  updated the same event concurrently (a read-modify-write in the core);
- no two events share a slug;
- the number of events is the shared ones plus those created minus those deleted.

``tests/test_postgres_concurrency.py`` runs it small; ``bench/pg_concurrency.py`` runs it long.
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs

import events_calendar as ec

__all__ = ["Outcome", "run_workload"]

#: The shared events' fields the workers update (one writer per event and field).
FIELDS = ("title", "description", "excerpt", "cost")
TITLE = "Concurrent gala"


@attrs.frozen
class Outcome:
    """What the workload did and what the database holds afterwards."""

    errors: list[str]
    created: int
    deleted: int
    events: int
    duplicate_slugs: int
    expected_fields: dict[tuple[int, str], str]
    found_fields: dict[tuple[int, str], str]

    @property
    def lost_updates(self) -> int:
        return sum(
            1 for key, value in self.expected_fields.items() if self.found_fields[key] != value
        )


def _start(days: int) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).strftime("%Y-%m-%d 10:00:00")


def _worker(
    cal: ec.Calendar, process: int, thread: int, shared: list[int], rounds: int
) -> dict[str, Any]:
    field = FIELDS[thread % len(FIELDS)]
    target = shared[(process + thread) % len(shared)]
    errors: list[str] = []
    created: list[int] = []
    deleted = 0
    last = ""
    for step in range(rounds):
        try:
            event = cal.events.create(
                title=TITLE, start_date=_start(1 + step % 30), end_date=_start(2 + step % 30)
            )
            created.append(event.id)
            value = (
                f"{process}{thread}{step:04d}" if field == "cost" else f"p{process}t{thread}#{step}"
            )
            updated = cal.events.update(target, **{field: value})
            last = str(getattr(updated, field))
            cal.events.get(target)
            cal.events.list(per_page=5, search="gala")
            if step % 3 == 2:
                cal.events.delete(created.pop(0), force=True)
                deleted += 1
        except Exception:  # every failure is a finding; report it whole
            errors.append(traceback.format_exc())
    return {
        "errors": errors,
        "created": len(created) + deleted,
        "deleted": deleted,
        "field": (target, field, last),
    }


def _process(url: str, process: int, threads: int, shared: list[int], rounds: int) -> list[Any]:
    results: list[Any] = [None] * threads
    with ec.connect(url) as cal:

        def run(thread: int) -> None:
            results[thread] = _worker(cal, process, thread, shared, rounds)

        workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return results


def run_workload(url: str, *, processes: int = 4, threads: int = 4, rounds: int = 20) -> Outcome:
    """Run the workload on the (empty) database at ``url`` and report the outcome."""
    with ec.connect(url) as cal:
        shared = [
            cal.events.create(title=f"Shared {n}", start_date=_start(3), end_date=_start(4)).id
            for n in range(len(FIELDS))
        ]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=spawn) as pool:
        futures = [pool.submit(_process, url, p, threads, shared, rounds) for p in range(processes)]
        results = [r for future in futures for r in future.result()]
    expected = {(r["field"][0], r["field"][1]): r["field"][2] for r in results}
    with ec.connect(url) as cal:
        slugs = []
        page_number = 1
        while True:
            page = cal.events.list(status="any", per_page=50, page=page_number)
            slugs += [event.slug for event in page]
            if page_number >= page.total_pages:
                break
            page_number += 1
        found = {
            (event_id, field): str(getattr(cal.events.get(event_id), field))
            for event_id, field in expected
        }
    return Outcome(
        errors=[e for r in results for e in r["errors"]],
        created=sum(r["created"] for r in results),
        deleted=sum(r["deleted"] for r in results),
        events=len(slugs) - len(shared),
        duplicate_slugs=len(slugs) - len(set(slugs)),
        expected_fields=expected,
        found_fields=found,
    )
