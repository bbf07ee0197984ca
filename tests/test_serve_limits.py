"""``events-calendar serve`` carries its request limits to every worker (issue 9, items 1, 6)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from unittest import mock

import pytest

from events_calendar.cli import main
from events_calendar.http.limits import HttpLimits
from events_calendar.http.server import environment, limits_from_environment
from events_calendar.http.throttle import SignInLimits
from events_calendar.settings import Settings
from test_serve_smoke import free_port


@pytest.fixture
def clean_environment() -> Iterator[None]:
    """No ``EVENTS_CALENDAR_*`` variable, whatever an earlier test's ``serve`` left, and the
    environment as it was afterwards."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("EVENTS_CALENDAR_")}
    with mock.patch.dict(os.environ, kept, clear=True):
        yield


def test_limits_survive_the_environment(clean_environment: None) -> None:
    """The limits ``serve`` writes are the limits each worker's app reads back."""
    limits = HttpLimits(
        max_body=1234,
        max_url=999,
        max_json_values=77,
        sign_ins=SignInLimits(per_address=7, per_login=3, window=5.5),
        read_threads=5,
    )
    os.environ.update(environment("memory://", Settings(), "/wp-json", "tribe", limits))
    assert limits == limits_from_environment()


def test_a_body_limit_set_alone_carries_the_buffered_limit_with_it(
    clean_environment: None,
) -> None:
    """``EVENTS_CALENDAR_MAX_BODY`` set by hand, past the 64 MiB a worker buffers by default,
    takes the buffered limit up with it (four bodies) rather than failing the worker."""
    os.environ["EVENTS_CALENDAR_MAX_BODY"] = str(100 * 1024 * 1024)
    limits = limits_from_environment()
    assert (100 * 1024 * 1024, 400 * 1024 * 1024) == (limits.max_body, limits.max_buffered)


def test_serve_passes_its_options_on(clean_environment: None) -> None:
    """``--max-body``, ``--max-json-values``, the sign-in options and ``--read-threads``
    reach the served app's environment."""
    argv = ["serve", "--db", "memory://", "--max-body", "2048", "--sign-in-failures-per-login", "4"]
    argv += ["--read-threads", "3", "--max-json-values", "500", "--port", str(free_port())]
    with mock.patch("uvicorn.run"):
        assert 0 == main(argv)
    expected = HttpLimits(
        max_body=2048, max_json_values=500, sign_ins=SignInLimits(per_login=4), read_threads=3
    )
    assert expected == limits_from_environment()


def test_serve_refuses_a_zero_body_limit(
    clean_environment: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A non-positive limit ends ``serve`` with one line, before anything is served."""
    with mock.patch("uvicorn.run") as run:
        status = main(["serve", "--db", "memory://", "--max-body", "0"])
    assert (
        1,
        False,
        "events-calendar: max_body and max_url must be positive numbers of bytes\n",
    ) == (
        status,
        run.called,
        capsys.readouterr().err,
    )
