"""The real ``events-calendar serve`` process, called over a socket.

One server is started for the module (after ``users add`` and ``seed --sample``), polled until
it answers (at most ~20 s), and terminated at the end, waiting for it, so no process is left.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import httpx
import pytest

from loopback import stop

STARTUP_SECONDS = 20.0


def console_script() -> str:
    found = shutil.which("events-calendar", path=str(Path(sys.executable).parent))
    assert found is not None, "the events-calendar console script is not installed"
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def command(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "EVENTS_CALENDAR_DB"}
    return subprocess.run(  # noqa: S603 - our own console script
        [console_script(), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=env,
        check=True,
    )


@attrs.frozen
class Server:
    base: str  # the namespace root, e.g. http://127.0.0.1:PORT/wp-json/tribe/events/v1
    login: str
    password: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``events-calendar serve`` on a seeded SQLite file and a free port."""
    home = tmp_path_factory.mktemp("serve")
    url = f"sqlite:///{home}/x.db"
    added = command(["users", "add", "admin", "--role", "administrator", "--db", url], home)
    password = added.stdout.splitlines()[-1]
    command(["seed", "--sample", "--db", url], home)
    port = free_port()
    base = f"http://127.0.0.1:{port}/wp-json/tribe/events/v1"
    log = (home / "serve.log").open("w")
    proc = subprocess.Popen(  # noqa: S603 - our own console script
        [console_script(), "serve", "--db", url, "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=home,
        env={k: v for k, v in os.environ.items() if k != "EVENTS_CALENDAR_DB"},
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"serve exited with {proc.returncode}: {(home / 'serve.log').read_text()}"
                )
            try:
                httpx.get(base + "/", timeout=1.0)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    pytest.fail(f"serve did not answer within {STARTUP_SECONDS} s")
                time.sleep(0.1)
        yield Server(base, "admin", password)
    finally:
        stop(proc)
        log.close()


def test_served_events_over_a_socket(server: Server) -> None:
    """GET /events from the real server lists the seeded events with their totals."""
    response = httpx.get(server.base + "/events", timeout=10)
    body = response.json()
    assert (200, 33, "33", 10) == (
        response.status_code,
        body["total"],
        response.headers["X-TEC-Total"],
        len(body["events"]),
    )


def test_authenticated_create_over_a_socket(server: Server) -> None:
    """An administrator's POST /events with Basic auth creates an event the server then serves."""
    # Dated 2040, outside the default window, so the list test's total holds in any order.
    created = httpx.post(
        server.base + "/events",
        json={
            "title": "Smoke Test",
            "start_date": "2040-06-15 19:00",
            "end_date": "2040-06-15 21:00",
        },
        auth=(server.login, server.password),
        timeout=10,
    )
    assert (201, "Smoke Test") == (created.status_code, created.json()["title"])
    read = httpx.get(f"{server.base}/events/{created.json()['id']}", timeout=10)
    assert (200, "Smoke Test", f"{server.base}/events/{created.json()['id']}") == (
        read.status_code,
        read.json()["title"],
        read.json()["rest_url"],
    )
