"""Schemathesis against the app's own ``/doc``: every check, over a served sample calendar.

``st run`` (the schemathesis command) runs against the app served on a free loopback port, with
the sample data, and must find nothing. It is bounded for CI (a few examples an operation, a
fixed seed); ``bench/schemathesis.md`` runs the long version (``HYPOTHESIS_PROFILE=long``
here: 30 examples an operation).

One check is excluded: ``use_after_free`` ("deleted resource still available"): a delete moves
an event, venue or organizer to the trash, and editors still read it, as ``/doc`` says. Every
other check runs by default (none is named on the command line, so that
``tests/data/schemathesis.toml`` can turn ``ignored_auth`` off for DELETE: its replay without
credentials names a record the delete removed, a 400 that says nothing about authentication).

It runs twice: anonymously, and as an administrator (whose writes change the calendar).

``tests/data/schemathesis_hooks.py`` (loaded with ``SCHEMATHESIS_HOOKS``) makes the ids of
schema-valid requests name records that exist: an id or slug that names no record, in the path
or in a filter or field that refers to one, is the reference's 400 ``rest_invalid_param``
(``/doc`` says so), and which ids exist is no property of a schema. The hook reads the served
calendar's records, replaces each generated id with an existing one of the right kind (chosen
by the generated value, so generation stays random), and follows what the run's writes create
and delete. It also makes sent fields agree where a schema cannot say they must (an event's end
on or after its start; ``date_utc`` with ``date``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.limits import HttpLimits
from events_calendar.http.throttle import SignInLimits
from events_calendar.sample import seed_sample
from loopback import serving

pytest.importorskip("schemathesis")

DATA = Path(__file__).with_name("data")
CONFIG = DATA / "schemathesis.toml"
#: Examples an operation: few in CI, 30 by hand (``HYPOTHESIS_PROFILE`` as for hypothesis).
EXAMPLES = {"ci": "5", "dev": "5", "long": "30"}[os.environ.get("HYPOTHESIS_PROFILE", "dev")]


@contextlib.contextmanager
def served(database: Path) -> Iterator[tuple[str, str]]:
    """The sample calendar served on a free loopback port; yields the namespace root and the
    application password of its administrator, ``admin``."""
    calendar = ec.connect(f"sqlite:///{database}")
    seed_sample(calendar)
    calendar.users.create("admin", role="administrator")
    password = calendar.users.issue_password("admin")
    # Generated credentials would soon be throttled (429 for everything): raised limits, as
    # ``bench/schemathesis.md`` serves it.
    unthrottled = SignInLimits(per_address=1_000_000, per_login=1_000_000)
    app = create_app(calendar, limits=HttpLimits(sign_ins=unthrottled))
    try:
        with serving(app) as port:
            yield f"http://127.0.0.1:{port}/wp-json/tribe/events/v1", password
    finally:
        calendar.close()


def st_run(root: str, directory: Path, *caller: str) -> subprocess.CompletedProcess[str]:
    """``st run`` of every check but ``use_after_free`` against ``root``'s ``/doc``."""
    return subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(CONFIG),
            "run",
            f"{root}/doc",
            "--exclude-checks",
            "use_after_free",
            "--max-examples",
            EXAMPLES,
            "--seed",
            "2031",
            *caller,
            "--workers",
            "1",
            "--no-color",
        ],
        cwd=directory,  # where schemathesis keeps its example database
        env={
            **os.environ,
            "PYTHONPATH": str(DATA),
            "SCHEMATHESIS_HOOKS": "schemathesis_hooks",
            "EVENTS_CALENDAR_ST_USERS": "1",  # the administrator ``served`` adds
        },
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_schemathesis_finds_nothing_anonymous(tmp_path: Path) -> None:
    """Every schemathesis check but use_after_free passes against /doc, anonymously."""
    with served(tmp_path / "calendar.db") as (root, _):
        # Anonymous: no generated Authorization headers either.
        run = st_run(root, tmp_path, "--generation-with-security-parameters", "false")
    assert 0 == run.returncode, run.stdout[-20000:] + run.stderr[-2000:]


def test_schemathesis_finds_nothing_as_administrator(tmp_path: Path) -> None:
    """The same as an administrator, who may call every operation: creates, updates and
    deletes write to the served calendar, and the hook follows what they change."""
    with served(tmp_path / "calendar.db") as (root, password):
        # Signed in by ``--auth`` alone: a generated (or deliberately malformed)
        # Authorization header would be replaced by it, so a case "negative" only there
        # would be sent valid, and its success reported as a schema violation accepted.
        run = st_run(
            root,
            tmp_path,
            "--auth",
            f"admin:{password}",
            "--generation-with-security-parameters",
            "false",
        )
    assert 0 == run.returncode, run.stdout[-20000:] + run.stderr[-2000:]
