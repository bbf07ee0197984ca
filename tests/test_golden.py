"""Golden tests: the reference's 334 recorded request/response pairs, replayed against our app.

The scenario runs once for the module: a fresh SQLite database, our app served by uvicorn on a
loopback port, the reference's ``tec_replay.py`` (kept in ``tests/data/replay``) scoring it.
Every step listed in ``golden_expected.json`` must still match, and the whole scenario must
score at least 98%.
After an intended change, run ``scripts/update-golden`` and review the diff of
``golden_expected.json``.
"""

from __future__ import annotations

import json

import pytest

from golden_replay import EXPECTED, Replay, ReplayMissing, run_replay

MINIMUM_CONFORMANCE = 0.98


@pytest.fixture(scope="module")
def outcome() -> Replay | ReplayMissing:
    """The scenario, run once for the module."""
    try:
        return run_replay()
    except ReplayMissing as missing:
        return missing


def ran(outcome: Replay | ReplayMissing) -> Replay:
    """The run; without the recorded test data every golden test fails (it never skips)."""
    if isinstance(outcome, ReplayMissing):
        pytest.fail(str(outcome), pytrace=False)
    return outcome


def test_every_expected_step_still_matches(outcome: Replay | ReplayMissing) -> None:
    """Each step that matched when golden_expected.json was written still matches."""
    replay = ran(outcome)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    lost = [replay.explain(step)[:300] for step in expected if replay.verdicts.get(step) != "MATCH"]
    assert [] == lost, "steps that no longer match"


def test_conformance_is_at_least_98_percent(outcome: Replay | ReplayMissing) -> None:
    """At least 98% of the scored steps match the recording."""
    replay = ran(outcome)
    assert replay.conformance >= MINIMUM_CONFORMANCE, (
        f"conformance {replay.matched}/{replay.scored} ({replay.conformance:.1%}) is below "
        f"{MINIMUM_CONFORMANCE:.0%}"
    )


def test_every_step_ran(outcome: Replay | ReplayMissing) -> None:
    """The tool reported all 334 steps, none of them as an ERROR (no answer at all)."""
    replay = ran(outcome)
    errors = [
        replay.explain(step) for step, verdict in replay.verdicts.items() if verdict == "ERROR"
    ]
    assert (334, []) == (len(replay.verdicts), errors)
