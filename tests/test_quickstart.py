"""The Quick start: README's two commands, and the main job's output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_start_block_has_exactly_two_commands() -> None:
    """The first fenced block under '## Quick start' holds the run and the test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1]
    block = re.search(r"```\w*\n(.*?)```", section, re.DOTALL)
    assert block is not None
    assert ["./scripts/serve", "./scripts/test"] == block.group(1).strip().splitlines()


def test_main_job_seeds_then_serves() -> None:
    """./scripts/serve sets up, seeds the sample calendar, then runs the server."""
    lines = (ROOT / "scripts" / "serve").read_text(encoding="utf-8").splitlines()
    steps = [line for line in lines if line and not line.startswith("#")]
    assert "./scripts/setup" in steps
    assert steps.index(".venv/bin/events-calendar seed --sample") < steps.index(
        'exec .venv/bin/events-calendar serve "$@"'
    )


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run calls the README's test command."""
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def run_quickstart(folder: Path) -> list[str]:
    """The example's output lines, run in ``folder`` without ``$EVENTS_CALENDAR_DB``."""
    env = {k: v for k, v in os.environ.items() if k != "EVENTS_CALENDAR_DB"}
    return subprocess.run(  # noqa: S603 - our own example script
        [sys.executable, str(ROOT / "examples" / "quickstart.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=folder,
        env=env,
    ).stdout.splitlines()


def test_quickstart_example_prints_the_sample_calendar(tmp_path: Path) -> None:
    """examples/quickstart.py builds its calendar in quickstart.db once and prints it."""
    runs = [run_quickstart(tmp_path) for _ in range(2)]
    assert runs[0] == runs[1]  # the second run reuses the stored calendar
    assert (True, False) == (
        (tmp_path / "quickstart.db").is_file(),
        (tmp_path / "events.db").exists(),
    )
    lines = runs[0]
    assert "3 events" == lines[0]
    assert lines[1].startswith("2031-05-01 19:00 CEST  Gala")
    assert "at Town Hall  [Music]" in lines[1]


def test_quickstart_example_runs_beside_the_served_sample(tmp_path: Path) -> None:
    """After ./scripts/serve has seeded events.db, the example still runs (its own database)."""
    env = {k: v for k, v in os.environ.items() if k != "EVENTS_CALENDAR_DB"}
    cli = Path(sys.executable).with_name("events-calendar")
    subprocess.run(  # noqa: S603 - our own command, as ./scripts/serve runs it
        [str(cli), "seed", "--sample"], check=True, cwd=tmp_path, env=env, capture_output=True
    )
    lines = run_quickstart(tmp_path)
    assert ("3 events", True) == (lines[0], (tmp_path / "events.db").is_file())
