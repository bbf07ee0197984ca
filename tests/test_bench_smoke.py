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
import time
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
    # The load's log was copied into the file before the queries (all of what was left).
    load = run["load"]
    assert (False, load["log_pages"]) == (load["log_busy"], load["log_copied_pages"])


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


def _http_bench(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    monkeypatch.syspath_prepend(str(BENCH / "http"))
    return importlib.import_module(name)


def test_mix_options_choose_backend_workers_and_write_shares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``mix.py`` takes a PostgreSQL URL, a worker count and several write shares (writes only
    included); ``--read-only-too`` adds the share 0 once; bad combinations are refused."""
    mix = _http_bench(monkeypatch, "mix")
    url = "postgresql://postgres@127.0.0.1:5432/test"
    pg = mix._parse([f"--backend={url}", "--workers=2", "--write-share", "0", "0.05", "1"])
    plain = mix._parse(["--read-only-too"])
    refused = []
    for argv in (["--backend=mysql://x"], ["--workers=17"], ["--write-share=2"]):
        with pytest.raises(SystemExit):
            mix._parse(argv)
        refused.append(argv[0])
    assert (
        (url, 2, [0.0, 0.05, 1.0], False),
        ("sqlite", 1, [0.01, 0.0]),
        ["--backend=mysql://x", "--workers=17", "--write-share=2"],
    ) == (
        (pg.backend, pg.workers, pg.write_share, pg.keep),
        (plain.backend, plain.workers, plain.write_share),
        refused,
    )


def test_cpu_window_counts_a_process_group_and_the_children_reaped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A busy process in its own group (a server) counts as the server's CPU; a busy child
    reaped inside the window counts as wrk's (``RUSAGE_CHILDREN``); an idle group as nothing."""
    import subprocess
    import sys

    cpushare = _http_bench(monkeypatch, "cpushare")

    def spin(seconds: float, then: str = "") -> list[str]:
        loop = f"t = time.process_time()\nwhile time.process_time() - t < {seconds}: pass"
        return [sys.executable, "-c", f"import time\n{loop}\n{then}"]

    server = subprocess.Popen(spin(0.5, "time.sleep(30)"), start_new_session=True)  # noqa: S603
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        busy, quiet = cpushare.CpuWindow(server.pid), cpushare.CpuWindow(idle.pid)
        busy.start(), quiet.start()
        subprocess.run(spin(0.3), check=True, timeout=60)  # noqa: S603 - it exits: reaped
        while cpushare.processes()[server.pid].cpu < 0.5:
            time.sleep(0.05)
        shares, nothing = busy.stop(), quiet.stop()
    finally:
        server.kill(), idle.kill()
        server.wait(), idle.wait()
    assert (True, True, 0.0) == (shares["server"] > 5, shares["wrk"] > 5, nothing["server"])


def test_mix_postgresql_database_is_copied_marked_reused_and_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQLite data copied into ``ec_mix_*``, marked complete, reused by the next run; a
    scratch copy per run with the same events; nothing left after ``drop``."""
    psycopg = pytest.importorskip("psycopg")
    import events_calendar as ec
    from events_calendar.testing.postgres import server_url

    pgdatabase = _http_bench(monkeypatch, "pgdatabase")
    database = importlib.import_module("database")
    source, _ = database.ensure_database(tmp_path, 40, seed=7)
    dbs = pgdatabase.PgDatabases(server_url(), 40, 7, f"smoke{os.getpid()}")
    try:
        built, reused = dbs.ensure(source), dbs.ensure(source)
        scratch = dbs.scratch()
        with ec.connect(dbs.url(scratch)) as cal, ec.connect(f"sqlite:///{source}") as sqlite:
            every = {"status": "any", "per_page": 50, "start_date": "2000-01-01"}
            copied = [(e.id, e.title) for e in cal.events.list(**every).items]
            original = [(e.id, e.title) for e in sqlite.events.list(**every).items]
    finally:
        for name in (f"{pgdatabase.PREFIX}run_{os.getpid()}", dbs.name):
            dbs.drop(name)
    with psycopg.connect(server_url(), autocommit=True) as admin:
        left = admin.execute(
            "SELECT datname FROM pg_database WHERE datname IN (%s, %s)", [dbs.name, scratch]
        ).fetchall()
    assert ((False, 40), (True, 40), True, original, []) == (
        (built["reused"], built["events"]),
        (reused["reused"], reused["events"]),
        len(copied) > 30,  # the events lists show (hidden ones are left out)
        copied,
        left,
    )


def test_startup_benchmark_times_every_case_in_a_fresh_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench/startup.py`` starts each case in a child of its own and reports its time and
    peak memory (one run each)."""
    monkeypatch.syspath_prepend(str(BENCH))
    startup = importlib.import_module("startup")
    out = tmp_path / "startup.json"
    monkeypatch.setattr("sys.argv", ["startup.py", "--runs", "1", "--out", str(out)])
    startup.main()
    results = json.loads(out.read_text())["results"]
    assert ["import", "memory", "sqlite", "cli"] == list(results)
    for figures in results.values():
        assert 0 < figures["wall_s_median"] < 60
        assert 10 < figures["peak_mib_median"] < 2048
    assert "sqlite" in capsys.readouterr().out


def test_catch_up_benchmark_retires_the_same_answers_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bench/http/catchup.py`` times both halves of a catch-up, narrowed by the index and
    asking every list, and both retire the same answers: the default window's page and the
    new event's venue's list."""
    monkeypatch.syspath_prepend(str(BENCH / "http"))
    catchup = importlib.import_module("catchup")
    out = tmp_path / "catchup.json"
    assert 0 == catchup.main(["--lists", "60", "--repeat", "2", "--out", str(out)])
    rows = json.loads(out.read_text())["rows"]
    assert [(60, "narrowed", 2), (60, "every list", 2)] == [
        (row["lists"], row["mode"], row["retired"]) for row in rows
    ]
    assert all(row["thread_us"] > 0 and row["loop_us"] > 0 for row in rows)
