"""What a served worker leaves to the garbage collector: a full collection walks every
container it tracks while every request waits (``http.server``, ``http.responses``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_the_served_app_freezes_what_start_up_made(tmp_path: Path) -> None:
    """In a worker of its own (a fresh interpreter, as uvicorn starts one)."""
    script = (
        "import gc; from events_calendar.http.server import app_from_environment;"
        " app_from_environment(); print(gc.get_freeze_count())"
    )
    env = {**os.environ, "EVENTS_CALENDAR_DB": f"sqlite:///{tmp_path / 'cal.db'}"}
    out = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert int(out.stdout.strip()) > 10_000
