"""``http.params`` on hostile input: work grows in step with the input, and the answer is the
one the parser gave before it was made to."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from events_calendar.http.params import _collect


def _calls(work: Callable[[], Any]) -> int:
    """How many calls (of Python functions and of builtins) ``work`` makes: a measure of its
    work that no clock or load can change."""
    made = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal made
        made += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
    return made


def _appends(n: int, depth: int = 1) -> list[tuple[str, str]]:
    return [("x" + "[]" * depth, "v")] * n


def test_appending_to_a_list_is_linear() -> None:
    """Twice as many ``x[]`` fields cost about twice the work (each append read every key
    before: 4,000 of them took 3.2 s on the event loop)."""
    small, large = (_calls(lambda n=n: _collect(_appends(n))) for n in (1_000, 2_000))
    assert large < 2.2 * small


def test_appending_to_nested_lists_is_linear() -> None:
    """So do fields 64 levels deep (``x[][]…[]``), the deepest kept as a path."""
    small, large = (_calls(lambda n=n: _collect(_appends(n, 64))) for n in (250, 500))
    assert large < 2.2 * small


def test_appends_follow_the_highest_number_given() -> None:
    """``[]`` takes the number after the highest one given, as PHP numbers it."""
    pairs = [("a[5]", "five"), ("a[]", "six"), ("a[2]", "two"), ("a[]", "seven"), ("b[x]", "")]
    assert {"a": ["five", "six", "two", "seven"], "b": {"x": ""}} == _collect(pairs)


def test_a_map_replaced_by_a_value_leaves_no_number_behind() -> None:
    """A map a later value replaced does not number the appends of a new map."""
    pairs = [("a[x][]", "1"), ("a[x][]", "2"), ("a[x]", "s"), ("a[y][]", "3"), ("a[y][k]", "4")]
    assert {"a": {"x": "s", "y": {"0": "3", "k": "4"}}} == _collect(pairs)


def test_an_append_after_a_superscript_key_starts_at_nought() -> None:
    """``x[²]`` numbers nothing: ``x[]`` after it is ``x[0]`` (``int("²")`` was a 500)."""
    assert {"x": ["1", "2"]} == _collect([("x[²]", "1"), ("x[]", "2")])
