"""One request never stalls the others: a write waiting for the database lock leaves every
reader answered at once (issue: "no request can freeze the server").

A real ``events-calendar serve`` on an SQLite file; another connection holds the file's write
lock, as a second server or a script would; a ``POST`` waits for it while anonymous reads of
other pages come and go.
"""

from __future__ import annotations

import sqlite3
import statistics
import subprocess
import threading
import time
from pathlib import Path

import httpx

from test_serve_smoke import STARTUP_SECONDS, command, console_script, free_port


def _serve(home: Path, url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}/wp-json/tribe/events/v1"
    proc = subprocess.Popen(  # noqa: S603 - our own console script
        [console_script(), "serve", "--db", url, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=home,
    )
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            httpx.get(base + "/", timeout=1.0)
            return proc, base
        except httpx.TransportError:
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)


def test_readers_are_answered_while_a_write_waits_for_the_lock(tmp_path: Path) -> None:
    """Every read answers (median under 50 ms) before a write blocked by another writer."""
    db = tmp_path / "x.db"
    url = f"sqlite:///{db}"
    password = command(["users", "add", "admin", "--role", "administrator", "--db", url], tmp_path)
    secret = password.stdout.splitlines()[-1]
    command(["seed", "--sample", "--db", url], tmp_path)
    proc, base = _serve(tmp_path, url)
    blocker = sqlite3.connect(db, isolation_level=None)
    written: dict[str, object] = {}
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another writer holds the file's write lock

        def write() -> None:
            response = httpx.post(
                base + "/events",
                auth=("admin", secret),
                json={"title": "Late", "start_date": "2031-01-01", "end_date": "2031-01-01"},
                timeout=60,
            )
            written["status"] = response.status_code

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(0.5)  # the write is now waiting for the lock
        latencies = []
        with httpx.Client(timeout=60) as reader:
            for n in range(1, 11):  # distinct URLs: none is answered from the response cache
                started = time.perf_counter()
                response = reader.get(f"{base}/events?per_page={n}")
                latencies.append(time.perf_counter() - started)
                assert 200 == response.status_code
        reads_beat_the_write = "status" not in written
        blocker.execute("COMMIT")
        writer.join(timeout=60)
    finally:
        blocker.close()
        proc.terminate()
        proc.wait(timeout=10)
    assert (True, 201) == (reads_beat_the_write, written.get("status"))
    assert statistics.median(latencies) < 0.05, latencies
