"""``progress=``: one reading for every long operation (``events_calendar.progress``).

A callable is called with (done, total), ``True`` draws a tqdm bar, ``None`` and ``False`` show
nothing; a bar is closed when the operation ends, also when it fails.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.progress import tracking

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _rows(count: int) -> list[dict[str, str]]:
    return [
        {
            "title": f"Talk {n}",
            "start_date": f"2031-03-{n + 1:02d} 18:00",
            "end_date": f"2031-03-{n + 1:02d} 19:00",
        }
        for n in range(count)
    ]


def _small_batches() -> ec.Calendar:
    """A calendar writing bulk loads two rows a batch, so five rows make three steps."""
    return ec.connect(
        "memory://", settings=ec.Settings(bulk_batch_size=2), clock=ec.FixedClock(NOW)
    )


#: The parts of a tqdm text bar that do not depend on timing: percentage, count, unit.
_BAR = re.compile(r" *(\d+%)\|[^|]*\| (\S+) \[[^\]]* (\S+)/s\]")


def _last_state(drawn: str) -> tuple[str, ...]:
    """The percentage, ``done/total`` and unit of the last state of a text bar."""
    found = _BAR.fullmatch(drawn.split("\r")[-1].rstrip("\n"))
    assert found is not None, drawn
    return found.groups()


def test_a_callable_gets_done_and_total_in_order() -> None:
    """Each advance calls the callable with the running count and the total."""
    calls: list[tuple[int, int | None]] = []
    with tracking(lambda done, total: calls.append((done, total)), total=5, unit="rows") as step:
        for done in (2, 4, 5):
            step(done)
    assert [(2, 5), (4, 5), (5, 5)] == calls


def test_a_callable_gets_none_for_an_unknown_total() -> None:
    """An operation that cannot count its items ahead reports ``None`` as the total."""
    calls: list[tuple[int, int | None]] = []
    with tracking(lambda done, total: calls.append((done, total)), total=None, unit="rows") as step:
        step(3)
    assert [(3, None)] == calls


def test_true_draws_a_bar_that_ends_at_the_total() -> None:
    """``True`` draws a tqdm bar on ``file``; its last state shows every item done."""
    out = io.StringIO()
    with tracking(True, total=5, unit="rows", file=out) as step:
        for done in (2, 4, 5):
            step(done)
    assert ("100%", "5/5", "rows") == _last_state(out.getvalue())


def test_true_moves_the_bar_by_the_running_count() -> None:
    """``advance(done)`` takes a running count: the bar shows the count, not a sum of counts."""
    out = io.StringIO()
    with tracking(True, total=10, unit="rows", file=out) as step:
        step(3)
        step(7)
    assert ("70%", "7/10", "rows") == _last_state(out.getvalue())


@pytest.mark.parametrize("quiet", [None, False])
def test_none_and_false_show_nothing(
    quiet: bool | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """``None`` and ``False`` draw no bar and call nothing."""
    with tracking(quiet, total=5, unit="rows") as step:
        step(5)
    assert ("", "") == tuple(capsys.readouterr())


def test_the_bar_closes_when_the_operation_fails() -> None:
    """An error inside the block closes the bar (its final line is drawn) and propagates."""
    out = io.StringIO()

    def failing_load() -> None:
        with tracking(True, total=5, unit="rows", file=out) as step:
            step(2)
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        failing_load()
    assert ("40%", "2/5", "rows") == _last_state(out.getvalue())
    assert out.getvalue().endswith("\n")  # closed: tqdm ends a closed bar's line


def test_bulk_create_calls_a_callable_after_each_batch() -> None:
    """``bulk_create(progress=callable)`` still reports (done, total) per batch."""
    calls: list[tuple[int, int | None]] = []
    _small_batches().events.bulk_create(
        _rows(5), progress=lambda done, total: calls.append((done, total))
    )
    assert [(2, 5), (4, 5), (5, 5)] == calls


def test_bulk_create_with_true_draws_a_bar(capsys: pytest.CaptureFixture[str]) -> None:
    """``bulk_create(progress=True)`` draws a tqdm bar of the events written."""
    _small_batches().events.bulk_create(_rows(5), progress=True)
    assert ("100%", "5/5", "events") == _last_state(capsys.readouterr().err)


def test_bulk_create_closes_the_bar_where_a_bad_row_stops_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bad row in a later batch stops a (streamed, atomic) load: the bar, drawn as earlier
    batches were written inside the load's transaction, is closed where it stopped, and
    nothing is stored."""
    cal = _small_batches()
    rows = [*_rows(2), {"title": "Bad", "start_date": "never", "end_date": "2031-03-01"}]
    with pytest.raises(InvalidParameter, match=r"rows\[2\]\.start_date"):
        cal.events.bulk_create(rows, progress=True)
    drawn = capsys.readouterr().err
    assert (("67%", "2/3", "events"), True, 0) == (
        _last_state(drawn),
        drawn.endswith("\n"),
        cal.events.list(start_date="2031-01-01", end_date="2031-12-31").total,
    )
