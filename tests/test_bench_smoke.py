"""The storage benchmark (``bench/``) still runs, so it cannot rot between the runs that use it.

A tiny size keeps this fast; the point is that every query still runs through both the library
and the hand-written SQL and that the two still return the same rows, on SQLite and on
PostgreSQL (the server the PostgreSQL tests use: ``$EVENTS_CALENDAR_TEST_POSTGRES``, else
127.0.0.1:5432; see ``events_calendar.testing.postgres``).
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_storage_benchmark_reports_every_query_with_matching_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 300-event run times every query on both sides, with the same rows on each."""
    monkeypatch.syspath_prepend(str(BENCH))
    storage = importlib.import_module("storage")
    out = tmp_path / "storage.json"

    status = storage.main(
        [
            "--in-process",
            "--sizes=300",
            "--repeat=3",
            "--warmup=1",
            f"--db-dir={tmp_path / 'db'}",
            f"--out={out}",
        ]
    )

    (run,) = json.loads(out.read_text())["runs"]
    expected = dict.fromkeys(storage.QUERIES, (True, float, float, float, float))
    assert (0, 300, expected) == (status, run["load"]["events"], _summary(run))


def test_storage_benchmark_runs_on_postgresql_and_drops_its_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 200-event run on PostgreSQL: every query on both sides (the psycopg floor), the same
    rows on each, cold lists timed, plans recorded, and the benchmark's database gone after."""
    psycopg = pytest.importorskip("psycopg")
    from events_calendar.testing.postgres import server_url

    server = server_url()
    monkeypatch.syspath_prepend(str(BENCH))
    storage = importlib.import_module("storage")
    out = tmp_path / "storage-postgres.json"
    prefix = f"ec_bench_smoke_{os.getpid()}"

    status = storage.main(
        [
            "--in-process",
            f"--backend={server}",
            f"--pg-prefix={prefix}",
            "--sizes=200",
            "--repeat=3",
            "--warmup=1",
            "--tracemalloc-max=0",
            f"--out={out}",
        ]
    )

    report = json.loads(out.read_text())
    (run,) = report["runs"]
    with psycopg.connect(server, autocommit=True) as admin:
        left = admin.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", [f"{prefix}%"]
        ).fetchall()
    cold = {name for name, query in run["queries"].items() if "library_cold" in query}
    planned = {name for name, query in run["queries"].items() if query["hand_plan"]}
    expected = dict.fromkeys(storage.QUERIES, (True, float, float, float, float))
    lists = set(storage.QUERIES) - {"get_by_id", "get_by_slug"}
    assert (0, "postgresql", 200, expected, lists, set(storage.QUERIES), []) == (
        status,
        report["config"]["backend"],
        run["load"]["events"],
        _summary(run),
        cold,
        planned,
        left,
    )


def _summary(run: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """Per query: both sides returned the same rows, and each has a p50 and p95."""
    return {
        name: (
            query["ids_match"],
            *(
                type(query[side][stat])
                for side in ("library", "hand")
                for stat in ("p50_ms", "p95_ms")
            ),
        )
        for name, query in run["queries"].items()
    }
