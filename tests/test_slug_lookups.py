"""How often a write asks storage about a slug: a create whose slug is free asks once.

A create used to ask whether its slug was held (to move a trashed holder) and then, in a
second query, which numbered candidates were free; the second query answers the first too.
Counted on the storage protocol's slug methods, so every backend is held to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import events_calendar as ec

SLUG_METHODS = ("taken_slugs", "slugs_starting", "find_slug", "aliases_starting")
EVENT = {"start_date": "2031-05-01 19:00", "end_date": "2031-05-01 23:00"}


def spied(cal: ec.Calendar) -> list[tuple[str, Any]]:
    """The slug questions ``cal``'s storage is asked from now on, as ``(method, argument)``."""
    backend = cal.events._ctx.backend
    asked: list[tuple[str, Any]] = []
    for name in SLUG_METHODS:
        method: Callable[..., Any] = getattr(backend, name)

        def spy(kind: str, arg: Any, *, _method: Callable[..., Any] = method, _name: str = name):
            asked.append((_name, arg))
            return _method(kind, arg)

        setattr(backend, name, spy)
    return asked


@pytest.mark.parametrize("url", ["memory://", "sqlite://"])
def test_a_create_with_a_free_slug_asks_storage_once(url: str) -> None:
    cal = ec.connect(url)
    asked = spied(cal)
    made = cal.events.create(title="Gala", **EVENT)
    assert ("gala", [("slugs_starting", "gala")]) == (made.slug, asked)


@pytest.mark.parametrize("url", ["memory://", "sqlite://"])
def test_a_create_of_a_held_slug_still_moves_a_trashed_holder(url: str) -> None:
    cal = ec.connect(url)
    held = cal.events.create(title="Gala", status="trash", **EVENT)
    made = cal.events.create(title="Gala", **EVENT)
    assert ("gala", "gala__trashed") == (made.slug, cal.events.get(held.id).slug)
