"""Which proxy headers ``events-calendar serve`` believes: none unless ``--forwarded-allow-ips``
names the proxies. uvicorn believes them from 127.0.0.1 by default, so any local client (or
anything reaching the server through a tunnel) chose its own address for the sign-in
throttle by sending ``X-Forwarded-For``."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import httpx
import pytest

from events_calendar.cli import main
from test_serve_smoke import STARTUP_SECONDS, command, console_script, free_port


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], (False, None)),
        (["--forwarded-allow-ips", "10.0.0.5,10.0.0.6"], (True, "10.0.0.5,10.0.0.6")),
    ],
)
def test_serve_believes_proxy_headers_only_from_the_proxies_named(
    argv: list[str], expected: tuple[bool, str | None]
) -> None:
    with mock.patch.dict(os.environ, {}), mock.patch("uvicorn.run") as run:
        assert 0 == main(["serve", "--db", "memory://", "--port", str(free_port()), *argv])
    options = run.call_args.kwargs
    assert expected == (options["proxy_headers"], options["forwarded_allow_ips"])


def _serve(home: Path, *options: str) -> Iterator[str]:
    url = f"sqlite:///{home}/x.db"
    command(["users", "add", "admin", "--role", "administrator", "--db", url], home)
    port = free_port()
    base = f"http://127.0.0.1:{port}/wp-json/tribe/events/v1"
    argv = [console_script(), "serve", "--db", url, "--port", str(port), *options]
    argv += ["--sign-in-failures-per-address", "3", "--sign-in-failures-per-login", "100"]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("EVENTS_CALENDAR_DB", "FORWARDED_ALLOW_IPS")
    }
    proc = subprocess.Popen(argv, cwd=home, env=env)  # noqa: S603 - our own console script
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert proc.poll() is None, "serve exited"
            try:
                httpx.get(base + "/", timeout=1.0)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path, "--forwarded-allow-ips", "127.0.0.1")


def _failures(base: str, count: int) -> list[int]:
    """``count`` wrong passwords, each claiming another client address."""
    return [
        httpx.get(
            base + "/events",
            auth=("admin", "wrong"),
            headers={"X-Forwarded-For": f"192.0.2.{n}"},
            timeout=10,
        ).status_code
        for n in range(count)
    ]


def test_a_client_cannot_choose_its_address_for_the_throttle(base: str) -> None:
    """Every failure counts against the connection's address, whatever the header says."""
    assert [401, 401, 401, 429] == _failures(base, 4)


def test_a_named_proxy_gives_the_clients_address_and_scheme(proxied: str) -> None:
    """Behind a proxy named by ``--forwarded-allow-ips``, each client address has its own
    count, and links use the scheme the proxy was asked in."""
    events = httpx.get(
        proxied + "/events", headers={"X-Forwarded-Proto": "https"}, timeout=10
    ).json()
    assert ([401, 401, 401, 401], True) == (
        _failures(proxied, 4),
        events["rest_url"].startswith("https://"),
    )
