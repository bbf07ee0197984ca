"""``coerce.plain``: the plain value of nested input, however deep."""

from __future__ import annotations

import math

from events_calendar.coerce import plain


def test_plain_reads_lists_nested_far_past_the_stack() -> None:
    """A NaN 5,000 lists deep is ``None`` at the same depth (no ``RecursionError``)."""
    value: object = math.nan
    for _ in range(5_000):
        value = [value]
    read, depth = plain(value), 0
    while isinstance(read, list) and len(read) == 1:  # == itself recurses past the stack
        read, depth = read[0], depth + 1
    assert (5_000, None) == (depth, read)


def test_plain_keeps_each_container_kind() -> None:
    """Tuples stay tuples, mappings become dicts, sets sets, list subclasses lists."""

    class Row(list):  # type: ignore[type-arg]
        pass

    given = {"a": (1, [math.nan]), "b": Row([{math.nan}]), "c": frozenset({2})}
    assert {"a": (1, [None]), "b": [{None}], "c": {2}} == plain(given)


def test_plain_returns_a_list_of_plain_items_itself() -> None:
    """A list with nothing to read is returned as it is, not copied."""
    ids = [1, "2", None]
    assert plain(ids) is ids
