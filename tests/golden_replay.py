"""Replay the reference's recorded scenario against our app: the golden tests' harness.

The scenario, the recordings and the scoring tool are test data of this repository, in
``tests/data/replay`` (``tec_scenario.py``, ``tec_replay.py``, ``recordings/tec-6.17.1``,
``deviations.json``): verbatim copies of the team's ``shared/reference/replay`` (its README says
so), kept here so that a clone runs the golden tests with nothing beside it. This module only
starts our app on a fresh SQLite database (uvicorn on a free loopback port, in a background
thread), runs the tool's own ``main`` against it and reads its verdicts.

The scenario's relative steps expect one calendar day, so the run never reads the real clock:
our app and the tool both read one clock that starts at noon UTC of the real day and ticks in
real time (``NoonClock``). Run near midnight, the real clock would give the two sides different
days and fail steps for reasons outside the code.

The scoring uses the reference's ``deviations.json`` alone, as the team's conformance figure does;
the few places where we differ beyond it (``docs/compatibility.md``) simply do not appear in
``golden_expected.json``.

Run as a script (``scripts/update-golden``) it rewrites ``golden_expected.json``, the steps
that must keep matching.
"""

from __future__ import annotations

import contextlib
import datetime as dt_module
import importlib.util
import io
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from types import ModuleType, SimpleNamespace

import attrs

import events_calendar as ec
import loopback
from events_calendar.http import create_app

__all__ = [
    "EXPECTED",
    "REPLAY_DIR",
    "Replay",
    "ReplayMissing",
    "run_replay",
]

#: The recorded scenario and its tool, kept as test data (``tests/data/replay/README.md``).
REPLAY_DIR = Path(__file__).resolve().parent / "data" / "replay"
RECORDING = REPLAY_DIR / "recordings" / "tec-6.17.1"
EXPECTED = Path(__file__).with_name("golden_expected.json")

_VERDICT = re.compile(r"^(MATCH|DIFF|ERROR|DEVIATION)\s+\d+ (\S+)(.*)$")
_CONFORMANCE = re.compile(r"^conformance: (\d+)/(\d+) steps match")


class ReplayMissing(RuntimeError):
    """The replay test data (tool, scenario or recordings) is not where it should be."""


@attrs.frozen
class Replay:
    """What one run of the scenario gave: each step's verdict and the conformance line."""

    verdicts: dict[str, str]  # step name -> MATCH, DIFF, ERROR or DEVIATION
    details: dict[str, str]  # step name -> the tool's text after the step name
    matched: int
    scored: int
    started: datetime
    finished: datetime
    output: str

    @property
    def matching(self) -> list[str]:
        """The steps that matched, in scenario order."""
        return [name for name, verdict in self.verdicts.items() if verdict == "MATCH"]

    @property
    def conformance(self) -> float:
        return self.matched / self.scored if self.scored else 0.0

    def explain(self, step: str) -> str:
        return f"{self.verdicts.get(step, 'not run')} {step}{self.details.get(step, '')}"


class NoonClock:
    """Real time moved to start at noon UTC of the real day: the same offset for our app (its
    ``Clock``) and for the tool (its ``dt.datetime.now``), so both see one calendar day."""

    def __init__(self) -> None:
        real = datetime.now(UTC)
        self.offset = real.replace(hour=12, minute=0, second=0, microsecond=0) - real

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def datetime_module(self) -> SimpleNamespace:
        """The ``datetime`` module as the tool sees it: ``datetime.now`` reads this clock."""
        clock = self

        class ShiftedDatetime(datetime):
            @classmethod
            def now(cls, tz: tzinfo | None = None) -> ShiftedDatetime:  # type: ignore[override]
                moment = clock.now()
                return cls.fromtimestamp(moment.timestamp(), tz)

        names = {
            name: getattr(dt_module, name) for name in dir(dt_module) if not name.startswith("__")
        }
        return SimpleNamespace(**{**names, "datetime": ShiftedDatetime})


def replay_tool() -> ModuleType:
    """``tec_replay`` imported from the test data; ``ReplayMissing`` when it is absent."""
    tool = REPLAY_DIR / "tec_replay.py"
    missing = [
        str(path)
        for path in (tool, REPLAY_DIR / "tec_scenario.py", REPLAY_DIR / "deviations.json")
        if not path.is_file()
    ] + ([] if RECORDING.is_dir() else [str(RECORDING)])
    if missing:
        raise ReplayMissing(
            "The golden tests replay the reference's recordings kept in tests/data/replay, "
            f"and these are missing: {', '.join(missing)}. Restore them from version control."
        )
    sys.path.insert(0, str(REPLAY_DIR))  # the tool imports tec_scenario from its own folder
    try:
        spec = importlib.util.spec_from_file_location("tec_replay", tool)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(REPLAY_DIR))
    return module


@contextlib.contextmanager
def serving(database: Path, clock: NoonClock) -> Iterator[tuple[str, str]]:
    """Our app on a fresh SQLite file, served on a free loopback port; yields the namespace
    root and the administrator's application password."""
    calendar = ec.connect(f"sqlite:///{database}", clock=clock)
    calendar.users.create("admin", role="administrator")
    password = calendar.users.issue_password("admin")
    try:
        with loopback.serving(create_app(calendar), ws="none") as port:
            yield f"http://127.0.0.1:{port}/wp-json/tribe/events/v1", password
    finally:
        calendar.close()


def run_replay() -> Replay:
    """Every step of the scenario against a fresh app, scored against the recording."""
    tool = replay_tool()
    clock = NoonClock()
    tool.dt = clock.datetime_module()
    with tempfile.TemporaryDirectory(prefix="golden-") as scratch:
        started = clock.now()
        with serving(Path(scratch) / "golden.db", clock) as (base, password):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = tool.main(
                    [
                        *("--base", base, "--user", "admin", "--password", password),
                        *("--compare", str(RECORDING)),
                    ]
                )
        finished = clock.now()
    text = out.getvalue()
    if status != 0:
        raise RuntimeError(f"the replay tool failed ({status}): {err.getvalue()}{text}")
    verdicts: dict[str, str] = {}
    details: dict[str, str] = {}
    matched = scored = 0
    for line in text.splitlines():
        if found := _VERDICT.match(line):
            verdicts[found[2]], details[found[2]] = found[1], found[3]
        elif found := _CONFORMANCE.match(line):
            matched, scored = int(found[1]), int(found[2])
    return Replay(verdicts, details, matched, scored, started, finished, text)


def main() -> None:
    """Rewrite ``golden_expected.json`` from a fresh run and print the conformance line."""
    replay = run_replay()
    EXPECTED.write_text(json.dumps(replay.matching, indent=1) + "\n", encoding="utf-8")
    print(
        f"{EXPECTED.name}: {len(replay.matching)} matching steps; conformance "
        f"{replay.matched}/{replay.scored} ({replay.conformance:.1%})"
    )
    for name, verdict in replay.verdicts.items():
        if verdict in ("DIFF", "ERROR"):
            print(f"  {replay.explain(name)[:160]}")


if __name__ == "__main__":
    main()
