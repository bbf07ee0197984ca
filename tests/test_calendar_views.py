"""``Calendar.as_user`` views: kept per user value, shared by every view, bounded."""

from __future__ import annotations

import attrs
import pytest

import events_calendar as ec
from events_calendar import calendar as calendar_module
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import Forbidden


@pytest.fixture
def cal() -> ec.Calendar:
    return ec.Calendar(MemoryBackend())


def test_one_view_per_user_value_shared_by_every_view(cal: ec.Calendar) -> None:
    author = cal.users.create("ann", role="author")
    editor = cal.users.create("eve", role="editor")
    anon = cal.as_user(None)
    assert anon is cal.as_user(None)
    assert cal.as_user(author) is anon.as_user(author)  # a view's views are the calendar's
    assert cal.as_user(author) is not cal.as_user(editor)
    assert (None, author, editor) == (
        anon.user,
        cal.as_user(author).user,
        cal.as_user(editor).user,
    )


def test_a_changed_role_is_another_view_with_its_own_rules(cal: ec.Calendar) -> None:
    """A user whose role changed is another value: the view made for the old one is not
    handed out for the new one."""
    subscriber = cal.users.create("sam", role="subscriber")
    with pytest.raises(Forbidden):
        cal.as_user(subscriber).venues.create(venue="Hall")
    promoted = attrs.evolve(subscriber, role="editor")
    venue = cal.as_user(promoted).venues.create(venue="Hall")
    assert ("Hall", promoted.id) == (venue.venue, venue.author)
    with pytest.raises(Forbidden):
        cal.as_user(subscriber).venues.create(venue="Room")


def test_views_kept_are_bounded(cal: ec.Calendar, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calendar_module, "_KEPT_VIEWS", 3)
    users = [cal.users.create(f"user{n}", role="author") for n in range(7)]
    views = [cal.as_user(user) for user in users]
    assert len(cal._views) <= 3
    assert [user.login for user in users] == [view.user.login for view in views if view.user]
    assert users[-1] == cal.as_user(users[-1]).user
