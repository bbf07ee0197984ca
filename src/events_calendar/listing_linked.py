"""Normalising venue and organizer list queries (interface section 4.3)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from .coerce import is_truthy
from .listing_common import (
    MAX_SEARCH_WORDS,
    Bad,
    Problems,
    event_id,
    paging,
    read_statuses,
    search_text,
)
from .permissions import Actor
from .queries import EventFilter, LinkedFilter, LinkedQuery, fold
from .records import Event
from .settings import Settings
from .statuses import Status
from .storage import Storage

__all__ = ["LINKED_SEARCH_WORD", "linked_filter"]

#: Statuses whose events make a venue or organizer count as "having events" (the reference
#: leaves out drafts and pending events, and counts trashed ones).
_HAS_EVENTS_STATUSES = frozenset(Status) - {Status.DRAFT, Status.PENDING}
_PUBLIC = frozenset({Status.PUBLISH})

#: The reference's ``find_like`` for venues and organizers: words are runs of letters, digits
#: and dashes; every other character separates them.
LINKED_SEARCH_WORD = re.compile(r"(?:[^\W_]|-)+")


def _linked_search(value: object) -> tuple[str, ...]:
    """Search words as the reference splits a venue or organizer search."""
    if value is None:
        return ()
    words = tuple(dict.fromkeys(fold(w) for w in LINKED_SEARCH_WORD.findall(search_text(value))))
    if not words:
        raise Bad("send a search text with at least one letter or digit")
    if len(words) > MAX_SEARCH_WORDS:
        return (fold(str(value).strip()),)
    return words


def linked_filter(
    kind: Literal["venue", "organizer"],
    query: LinkedQuery,
    actor: Actor,
    backend: Storage,
    settings: Settings,
    now: datetime,
) -> LinkedFilter:
    """Normalise a venue or organizer list query (interface section 4.3)."""
    problems = Problems()
    page = paging(query.page, query.per_page, settings, problems)
    statuses = problems.check("status", lambda: read_statuses(query.status, actor)) or frozenset()
    flt = LinkedFilter(
        statuses=statuses,
        search=problems.check("search", lambda: _linked_search(query.search)) or (),
        event_id=problems.check(
            "event",
            lambda: None if query.event is None else event_id(backend, query.event, actor),
        ),
        has_events=None if query.has_events is None else is_truthy(query.has_events),
        # Events the caller may not read (others' private, scheduled or trashed ones) make
        # no venue "have events" for them; the caller's own, which they may read, do.
        has_events_statuses=_HAS_EVENTS_STATUSES if actor.is_editor else _PUBLIC,
        has_events_own_statuses=frozenset() if actor.is_editor else _HAS_EVENTS_STATUSES - _PUBLIC,
        has_events_author=actor.reads_own_private,
        ids=(
            _with_upcoming(kind, backend, statuses, actor, settings, now)
            if is_truthy(query.only_with_upcoming)
            else None
        ),
        private_author=actor.private_author,
        unpublished_author=actor.unpublished_author,
        offset=page.offset,
        limit=page.per_page,
    )
    problems.raise_if_any()
    return flt


def _with_upcoming(
    kind: Literal["venue", "organizer"],
    backend: Storage,
    statuses: frozenset[Status],
    actor: Actor,
    settings: Settings,
    now: datetime,
) -> frozenset[int]:
    """The venues or organizers of the next upcoming events (``only_with_upcoming``).

    As the reference finds them: the first page of events (``settings.per_page`` of them, by
    start) that start now or later and that the list's statuses allow; the records those
    events link to are the ones "with upcoming events". A record whose only upcoming events
    come after that page is left out, as the reference leaves it out (vlist_upcoming,
    olist_upcoming).
    """
    upcoming = EventFilter(
        start_min=now,
        statuses=statuses,
        exclude_hidden=False,
        private_author=actor.private_author,
        unpublished_author=actor.unpublished_author,
        limit=settings.per_page,
    )
    events, _ = backend.query(Event, upcoming, count=False)
    return frozenset(i for event in events for i in getattr(event, kind))
