"""A differential test every backend can run: random operations, answered as memory answers.

The in-memory backend is the executable reference. A hypothesis state machine drives the same
creates, updates, deletes and lists through two calendars, the reference and the backend under
test, and compares every answer: the records returned, the totals, and the error type and code
when an operation fails. Every list is also checked against the core's statement of meaning:
the filter's ``matches()`` and order applied to every stored record, one by one.

    from events_calendar.testing.differential import DifferentialMachine

    class MyBackendMachine(DifferentialMachine):
        def make_backend(self):
            return MyBackend()

    TestMyBackend = MyBackendMachine.TestCase

Needs hypothesis (and pytest); ``import events_calendar.testing`` does not import this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import CalendarError
from events_calendar.queries import EventFilter, LinkedFilter, TermFilter
from events_calendar.records import Record
from events_calendar.statuses import Status
from events_calendar.storage import Backend

__all__ = ["DifferentialMachine", "scan"]

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
#: Words for titles, tags and searches; the last ones fold unlike ASCII (``FOLDING_TEXTS``):
#: capitals, final sigmas, accents precomposed and combining.
WORDS = [
    *("jazz", "rock", "gala", "night", "fair", "talk", "la", "é", "ΟΔΟΣ", "οδοσ", "İzmir"),
    *("Café", "cafe", "Mu\u0308ller", "MÜLLER"),
]
NAMES = ["Music", "Sport", "Jazz", "Talks"]
VENUES = ["Town Hall", "Grand Hall", "Bistro"]
ZONES = ["UTC", "Europe/Paris", "America/New_York"]
STATUSES = ["publish", "draft", "pending", "private", "future"]
ROLES = ["administrator", "editor", "author", "contributor", "subscriber"]

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
#: Searches: words, some of them excluded (``-word``, WordPress's exclusion prefix).
searches = st.lists(
    st.sampled_from(WORDS) | st.sampled_from(WORDS).map("-".__add__), min_size=1, max_size=3
).map(" ".join)
days = st.integers(-5, 800)


def _coin(data: st.DataObject) -> bool:
    """A drawn yes or no."""
    return data.draw(st.booleans())


#: The page the last operation answered, for ``both`` to check against ``scan``.
_last_page: dict[str, ec.Page[Any]] = {}


def _answer(call: Callable[[], Any]) -> Any:
    """What an operation answered: its value, or the error's type and code."""
    try:
        result = call()
    except CalendarError as error:
        return ("error", type(error).__name__, error.code)
    if isinstance(result, ec.Page):
        _last_page["page"] = result
        return ("page", result.total, result.page, result.per_page, list(map(_plain, result)))
    return _plain(result)


def _plain(value: Any) -> Any:
    if attrs.has(type(value)):
        data = attrs.asdict(value, recurse=False)
        if "count" in data:
            data["count"] = value.count
        return (type(value).__name__, data)
    return value


def scan(
    backend: Backend, cls: type[Record], flt: EventFilter | LinkedFilter | TermFilter
) -> list[int]:
    """The ids a list of ``cls`` records must answer, by the core's meaning: every stored
    record of that class tried with ``flt.matches()``, sorted by ``flt.order()``, then paged."""
    every = frozenset(Status)
    events, _ = backend.query(
        ec.Event, EventFilter(statuses=every, exclude_hidden=False, limit=None), count=False
    )
    found: Sequence[Any]
    if isinstance(flt, EventFilter):
        found = flt.order(e for e in events if flt.matches(e))
    elif isinstance(flt, LinkedFilter):
        records, _ = backend.query(cls, LinkedFilter(statuses=every, limit=None))
        found = flt.order(
            r
            for r in records
            if isinstance(r, ec.Venue | ec.Organizer)
            and flt.matches(r, events=[e for e in events if r.id in getattr(e, r.kind)])
        )
    else:
        terms, _ = backend.query(cls, TermFilter(hide_empty=False, limit=None))
        field = "categories" if cls is ec.Category else "tags"
        found = flt.order(
            t
            for t in terms
            if isinstance(t, ec.Category | ec.Tag)
            and flt.matches(t, events={e.id for e in events if t.id in getattr(e, field)})
        )
    end = None if flt.limit is None else flt.offset + flt.limit
    return [r.id for r in found[flt.offset : end]]


class DifferentialMachine(RuleBasedStateMachine):
    """Two calendars, the reference (memory) and the backend under test, fed the same
    operations. Subclass and implement ``make_backend``."""

    def make_backend(self) -> Backend:
        """A new, empty backend under test; the reference side is always a ``MemoryBackend``."""
        raise NotImplementedError

    @initialize()
    def open(self) -> None:
        clock = ec.FixedClock(NOW)
        self.cals = [
            ec.Calendar(MemoryBackend(), clock=clock),
            ec.Calendar(self.make_backend(), clock=clock),
        ]
        self.event_ids: list[int] = []
        self.venue_ids: list[int] = []
        self.term_ids: list[int] = []
        self.users: list[str] = []

    def teardown(self) -> None:
        for cal in getattr(self, "cals", []):
            cal.close()

    def both(
        self, operation: Callable[[ec.Calendar], Any], *, listing: type[Record] | None = None
    ) -> Any:
        """Run the operation on both calendars; they must answer alike, and a page of
        ``listing`` records must hold what its filter's ``matches()`` selects on each."""
        answers = []
        for cal in self.cals:
            answers.append(_answer(lambda: operation(cal)))  # noqa: B023 - called at once
            page = _last_page.pop("page", None)
            if listing is not None and page is not None and page.filter is not None:
                assert scan(cal.backend, listing, page.filter) == [r.id for r in page.items]
        memory, tested = answers
        assert memory == tested
        return memory

    def pick(self, ids: list[int], data: st.DataObject) -> int:
        return data.draw(st.sampled_from(ids)) if ids else 999

    # -- writes ------------------------------------------------------------------------------
    @rule(name=st.sampled_from(VENUES), city=st.sampled_from(["Lyon", "Paris", ""]))
    def create_venue(self, name: str, city: str) -> None:
        answer = self.both(lambda cal: cal.venues.create(venue=name, city=city))
        if answer[0] == "Venue":
            self.venue_ids.append(answer[1]["id"])

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def create_category(self, name: str, data: st.DataObject) -> None:
        parent = data.draw(st.sampled_from([0, *self.term_ids]))
        answer = self.both(lambda cal: cal.categories.create(name=name, parent=parent))
        if answer[0] == "Category":
            self.term_ids.append(answer[1]["id"])

    @rule(
        title=texts,
        day=days,
        hours=st.integers(0, 50),
        zone=st.sampled_from(ZONES),
        status=st.sampled_from(STATUSES),
        featured=st.booleans(),
        all_day=st.booleans(),
        hidden=st.booleans(),
        data=st.data(),
    )
    def create_event(
        self,
        title: str,
        day: int,
        hours: int,
        zone: str,
        status: str,
        featured: bool,
        all_day: bool,
        hidden: bool,
        data: st.DataObject,
    ) -> None:
        start = NOW + timedelta(days=day)
        fields = {
            "title": title,
            "start_date": f"{start:%Y-%m-%d %H}:00",
            "end_date": f"{start + timedelta(hours=hours):%Y-%m-%d %H}:00",
            "timezone": zone,
            "status": status,
            "featured": featured,
            "all_day": all_day,
            "hide_from_listings": hidden,
            "categories": data.draw(
                st.lists(st.sampled_from([*self.term_ids, *NAMES]), max_size=2)
            ),
            "venue": data.draw(st.lists(st.sampled_from(self.venue_ids), max_size=1))
            if self.venue_ids
            else [],
            "tags": data.draw(st.lists(st.sampled_from(WORDS), max_size=2)),
        }
        answer = self.both(lambda cal: cal.events.create(**fields))
        if answer[0] == "Event":
            self.event_ids.append(answer[1]["id"])

    @rule(
        data=st.data(),
        featured=st.booleans(),
        title=texts,
        day=st.none() | days,
        zone=st.none() | st.sampled_from(ZONES),
    )
    def update_event(
        self, data: st.DataObject, featured: bool, title: str, day: int | None, zone: str | None
    ) -> None:
        event_id = self.pick(self.event_ids, data)
        changes: dict[str, Any] = {"featured": featured, "title": title}
        if day is not None:
            changes["start_date"] = f"{NOW + timedelta(days=day):%Y-%m-%d} 09:00"
        if zone is not None:
            changes["timezone"] = zone
        self.both(lambda cal: cal.events.update(event_id, **changes))

    @rule(data=st.data(), force=st.booleans())
    def delete_event(self, data: st.DataObject, force: bool) -> None:
        event_id = self.pick(self.event_ids, data)
        self.both(lambda cal: cal.events.delete(event_id, force=force))

    @rule(data=st.data(), force=st.booleans())
    def delete_venue(self, data: st.DataObject, force: bool) -> None:
        venue_id = self.pick(self.venue_ids, data)
        self.both(lambda cal: cal.venues.delete(venue_id, force=force))

    @rule(data=st.data())
    def delete_category(self, data: st.DataObject) -> None:
        term_id = self.pick(self.term_ids, data)
        self.both(lambda cal: cal.categories.delete(term_id))

    @rule(login=st.sampled_from(["ann", "bob", "cy"]), role=st.sampled_from(ROLES))
    def create_user(self, login: str, role: str) -> None:
        answer = self.both(lambda cal: cal.users.create(login, role=role))
        if answer[0] == "User":
            self.users.append(login)

    # -- reads -------------------------------------------------------------------------------
    @rule(
        data=st.data(),
        start=st.none() | days,
        end=st.none() | days,
        per_page=st.none() | st.integers(1, 60),
        page=st.integers(1, 3),
        featured=st.none() | st.booleans(),
        search=st.none() | searches,
        strict=st.booleans(),
        status=st.none() | st.sampled_from(["publish", "any", "draft,pending"]),
    )
    def list_events(
        self,
        data: st.DataObject,
        start: int | None,
        end: int | None,
        per_page: int | None,
        page: int,
        featured: bool | None,
        search: str | None,
        strict: bool,
        status: str | None,
    ) -> None:
        query: dict[str, Any] = {
            "page": page,
            "per_page": per_page,
            "featured": featured,
            "search": search,
            "strict_dates": strict,
            "status": status,
        }
        if start is not None:
            query["start_date"] = f"{NOW + timedelta(days=start):%Y-%m-%d %H:%M}"
        if end is not None:
            query["end_date"] = f"{NOW + timedelta(days=end):%Y-%m-%d %H:%M}"
        if self.term_ids and _coin(data):
            query["categories"] = data.draw(st.lists(st.sampled_from(self.term_ids), min_size=1))
        if self.venue_ids and _coin(data):
            query["venue"] = data.draw(st.sampled_from(self.venue_ids))
        as_anon = data.draw(st.booleans())
        self.both(
            lambda cal: (cal.as_user(None) if as_anon else cal).events.list(**query),
            listing=ec.Event,
        )

    @rule(
        data=st.data(),
        start=st.none() | days,
        status=st.none() | st.sampled_from(["publish", "any"]),
        batch=st.integers(1, 4),
    )
    def iter_events(
        self, data: st.DataObject, start: int | None, status: str | None, batch: int
    ) -> None:
        """Whole-query iteration in small batches, so keyset pages follow one another."""
        query: dict[str, Any] = {"status": status}
        if start is not None:
            query["start_date"] = f"{NOW + timedelta(days=start):%Y-%m-%d}"
        if self.term_ids and _coin(data):
            query["categories"] = data.draw(st.lists(st.sampled_from(self.term_ids), min_size=1))
        if self.venue_ids and _coin(data):
            query["venue"] = data.draw(st.sampled_from(self.venue_ids))
        self.both(lambda cal: [e.id for e in cal.events.iter(batch_size=batch, **query)])

    @rule(
        data=st.data(),
        search=st.none() | st.sampled_from(["hall", "ly", "grand hall"]),
        has_events=st.none() | st.booleans(),
        upcoming=st.booleans(),
    )
    def list_venues(
        self, data: st.DataObject, search: str | None, has_events: bool | None, upcoming: bool
    ) -> None:
        query: dict[str, Any] = {
            "search": search,
            "has_events": has_events,
            "only_with_upcoming": upcoming,
        }
        if self.event_ids and _coin(data):
            query["event"] = data.draw(st.sampled_from(self.event_ids))
        self.both(lambda cal: cal.venues.list(**query), listing=ec.Venue)

    @rule(
        hide_empty=st.booleans(),
        orderby=st.sampled_from(["name", "count", "id", "slug"]),
        order=st.sampled_from(["asc", "desc"]),
        search=st.none() | st.sampled_from(["s", "mu"]),
    )
    def list_categories(
        self, hide_empty: bool, orderby: str, order: str, search: str | None
    ) -> None:
        self.both(
            lambda cal: cal.categories.list(
                hide_empty=hide_empty, orderby=orderby, order=order, search=search, per_page=50
            ),
            listing=ec.Category,
        )

    @invariant()
    def same_tags(self) -> None:
        if hasattr(self, "cals"):
            self.both(lambda cal: cal.tags.list(hide_empty=False, per_page=50), listing=ec.Tag)
