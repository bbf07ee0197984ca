"""The event collection: the post life cycle plus dates, links, passwords and bulk loads."""

from __future__ import annotations

import builtins
import hmac
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import tzinfo
from typing import Any, TypeVar

import attrs

from . import bulk
from .context import Context
from .dates import all_day_span, on_wall_clock, resolve_zone, zone_name
from .errors import Forbidden, InvalidParameter, PageNotFound
from .linked import LinkedCollection
from .listing import event_filter, within_read_rule
from .listing_stream import ITER_BATCH, given_query, keyset_batches, whole_query
from .posts import PostCollection
from .progress import ProgressArg
from .queries import EventFilter, EventQuery, Page, fold
from .records import Category, Event, Organizer, Tag, Venue
from .terms import TermCollection
from .validation import refuse_end_before_start

__all__ = ["EventCollection", "Related"]

_Rows = list[dict[str, Any]]
_Events = list[Event]
_Ids = list[int]


@attrs.frozen
class Related:
    """The records a set of events links to, keyed by id (what a page needs to render).

    ``readable`` holds the ids of the linked venues and organizers the caller may read on
    their own: the others (a draft organizer, for an anonymous caller) are still part of the
    event, as the reference shows them, but get no public description such as JSON-LD.
    """

    venues: dict[int, Venue]
    organizers: dict[int, Organizer]
    categories: dict[int, Category]
    tags: dict[int, Tag]
    readable: frozenset[int] = frozenset()

    def venues_of(self, event: Event) -> list[Venue]:
        """The event's venues, in the order they were linked."""
        return [self.venues[i] for i in event.venue if i in self.venues]

    def organizers_of(self, event: Event) -> list[Organizer]:
        """The event's organizers, in the order they were linked."""
        return [self.organizers[i] for i in event.organizer if i in self.organizers]

    def categories_of(self, event: Event) -> list[Category]:
        """The event's categories by name, as the reference (WordPress) lists a post's terms."""
        return _by_name([self.categories[i] for i in event.categories if i in self.categories])

    def tags_of(self, event: Event) -> list[Tag]:
        """The event's tags by name."""
        return _by_name([self.tags[i] for i in event.tags if i in self.tags])


T = TypeVar("T", Category, Tag)
R = TypeVar("R", Venue, Organizer, Category, Tag)


def _by_name(terms: list[T]) -> list[T]:
    return sorted(terms, key=lambda term: (fold(term.name), term.id))


class EventCollection(PostCollection[Event]):
    """Events of a calendar (``cal.events``)."""

    def __init__(
        self,
        context: Context,
        *,
        venues: LinkedCollection[Venue],
        organizers: LinkedCollection[Organizer],
        categories: TermCollection[Category],
        tags: TermCollection[Tag],
    ) -> None:
        super().__init__(Event, context)
        self._venues = venues
        self._organizers = organizers
        self._categories = categories
        self._tags = tags

    # -- reading ---------------------------------------------------------------------------
    def _check_readable(self, record: Event, password: str | None, *, edit: bool = False) -> None:
        """Who may read one event, in the reference's order of checks.

        A trashed event is treated like any other unpublished one: readable by those who may
        read it (editors, its author), ``event-not-accessible`` for everyone else. The fact
        sheet describes an ``event-no-longer-available`` check that comes first, but the
        recordings of 6.17.1 (``del_ev_read_admin``: 200, ``del_ev_read_anon``: 403
        ``event-not-accessible``) show it is no longer reached, and the recordings win.
        """
        super()._check_readable(record, password, edit=edit)
        if not self._unlocked(record, password, edit=edit):
            raise Forbidden(
                "This event is not accessible without a password: send its password, or "
                "read it for editing as someone who may edit it.",
                code="event-password-protected",
            )

    def _unlocked(self, record: Event, password: str | None, *, edit: bool = False) -> bool:
        """Whether the caller may see a password-protected event's content.

        Only the right password unlocks it, for administrators too (DESIGN 3 and the
        ``pw_read_admin`` deviation), unless the event is read in order to edit it by someone
        who may edit it: the reference's ``context=edit`` (fact sheet 4.6). The full-access
        actor of a bare ``connect()`` stands for that edit context: scripts that own the data
        see everything.
        """
        if not record.password:
            return True
        if password is not None and hmac.compare_digest(
            password.encode(), record.password.encode()
        ):
            return True
        actor = self._ctx.actor
        return actor.system or (edit and actor.can_edit("event", record.author, record.status))

    def list(self, query: EventQuery | None = None, **params: Any) -> Page[Event]:
        """One page of events (interface section 4.2), ordered by start.

        Password-protected events stay in the list with their content blanked (``locked``)
        unless the caller has full access (see ``_unlocked``).
        """
        ctx = self._ctx
        query = given_query(EventQuery, query, params)
        flt = event_filter(query, ctx.actor, ctx.backend, ctx.settings, ctx.zone, ctx.now())
        items, total = self._page_and_total(flt)
        if not items and flt.offset > 0:
            raise PageNotFound(
                f"This event list has fewer than {flt.offset + 1} events; ask for an earlier page.",
                code="event-archive-page-not-found",
            )
        return Page.of(self._shown(items), total, flt, kind="event")

    def _shown(self, events: Iterable[Event]) -> tuple[Event, ...]:
        """Events as a list shows them to the caller: password-protected ones blanked."""
        return tuple(e if self._unlocked(e, None) else _blanked(e) for e in events)

    def iter(
        self,
        query: EventQuery | Mapping[str, Any] | None = None,
        *,
        progress: ProgressArg = None,
        batch_size: int = ITER_BATCH,
        **params: Any,
    ) -> Iterator[Event]:
        """Every event ``list()`` would list with these filters, page after page, in list
        order: streamed in batches of ``batch_size`` with keyset paging (constant memory,
        no page cap, no total counted). Filters are checked now, before the first event.

        Visibility is ``list()``'s: password-protected events are blanked for callers
        without the password. See ``listing_stream`` for what iteration sees of writes made
        while it runs.
        """
        ctx = self._ctx
        query = whole_query(EventQuery, query, params)
        flt = event_filter(query, ctx.actor, ctx.backend, ctx.settings, ctx.zone, ctx.now())
        batches = self.batches(flt, size=batch_size, progress=progress)
        return (event for batch in batches for event in batch)

    def batches(
        self,
        flt: EventFilter,
        *,
        size: int = ITER_BATCH,
        progress: ProgressArg = None,
        total: int | None = None,
    ) -> Iterator[builtins.list[Event]]:
        """Every event of a normalised filter (``listing.event_filter``), in list order,
        ``size`` at a time, as a list shows them to this caller: what ``iter`` streams, and
        what exports walk with filters of their own (``io.walk``). Keyset paging: each batch
        is one indexed range, however deep (an offset re-reads every row it skips). A filter
        built by hand is narrowed to what this caller may read, as a query's is
        (``listing.within_read_rule``)."""

        def fetch(current: EventFilter) -> _Events:
            return ctx.backend.query(Event, current, count=False)[0]

        ctx = self._ctx
        found = keyset_batches(
            fetch,
            within_read_rule(flt, ctx.actor),
            flt.sort_key,
            size=size,
            progress=progress,
            unit="events",
            start=EventFilter.BEFORE_ALL,  # the first batch is a keyset page too
            total=total,
        )
        return (builtins.list(self._shown(batch)) for batch in found)

    def _page_and_total(self, flt: EventFilter) -> tuple[_Events, int]:
        """A page of events and the total, the total counted only once per data generation.

        Counting every match is most of a list's cost on a large calendar; the total cannot
        change until a write commits, so repeated lists (other pages, other visitors) reuse it.
        """
        ctx = self._ctx
        key = attrs.evolve(flt, offset=0, limit=0)
        generation = ctx.backend.generation()
        total = ctx.totals.get(key, generation)
        items, counted = ctx.backend.query(Event, flt, count=total is None)
        if counted is None:
            assert total is not None  # counted is None only when not asked for
            return items, total
        ctx.totals.put(key, generation, counted)
        return items, counted

    def related(self, events: Iterable[Event]) -> Related:
        """The venues, organizers and terms these events link to, in four lookups (of
        what this data generation has not read yet: ``Context.get_linked``).

        Linked venues and organizers are part of the event whatever their status: the
        reference shows a draft organizer inside a published event to anyone
        (``del_venue_event_after``). ``Related.readable`` says which of them the caller may
        read on their own.
        """
        events = list(events)
        ctx, actor = self._ctx, self._ctx.actor
        generation = ctx.backend.generation()

        def fetch(cls: type[R], attr: str) -> dict[int, R]:
            ids = {i for e in events for i in getattr(e, attr)}
            return ctx.get_linked(cls, ids, generation)

        venues, organizers = fetch(Venue, "venue"), fetch(Organizer, "organizer")
        readable = frozenset(
            i
            for found in (venues, organizers)
            for i, record in found.items()
            if actor.can_read(record.author, record.status)
        )
        shown = self._linked_by_readable_events(
            events, (venues.keys() | organizers.keys()) - readable
        )
        return Related(
            venues={i: v for i, v in venues.items() if i in readable or i in shown},
            organizers={i: o for i, o in organizers.items() if i in readable or i in shown},
            categories=fetch(Category, "categories"),
            tags=fetch(Tag, "tags"),
            readable=readable,
        )

    def _linked_by_readable_events(
        self, events: builtins.list[Event], linked: AbstractSet[int]
    ) -> frozenset[int]:
        """Which of ``linked`` a stored event this caller may read links to: a venue or
        organizer the caller may not read on its own is shown only as part of such an event,
        never because an ``Event`` handed in (made up, or changed) names it. Asked of
        storage only for events that name one: most pages link to public records alone."""
        ctx, actor = self._ctx, self._ctx.actor
        if actor.system:
            return frozenset(linked)
        naming = {e.id for e in events for i in (*e.venue, *e.organizer) if i in linked}
        stored = ctx.backend.get_many(Event, sorted(naming)) if naming else {}
        return frozenset(
            i
            for event in stored.values()
            if actor.can_read(event.author, event.status)
            for i in (*event.venue, *event.organizer)
            if i in linked
        )

    # -- writing ---------------------------------------------------------------------------
    def _zone_of(self, record: Event | None) -> tzinfo:
        return resolve_zone(record.timezone) if record else self._ctx.zone

    def _span(self, clean: Mapping[str, Any], current: Event | None) -> dict[str, Any]:
        """The zone and start/end an event gets from cleaned input: no writes, may raise.

        Kept apart from link resolution so that ``bulk_create`` can check every row's dates
        before it writes anything.
        """
        name = clean.get("timezone") or (current.timezone if current else zone_name(self._ctx.zone))
        zone = resolve_zone(name)
        start = clean.get("start_date") or (current.start_date if current else None)
        end = clean.get("end_date") or (current.end_date if current else None)
        assert start is not None  # required on create
        assert end is not None
        if "timezone" in clean and current is not None:  # same wall clock, new zone
            if "start_date" not in clean:
                start = on_wall_clock(start, zone)
            if "end_date" not in clean:
                end = on_wall_clock(end, zone)
        if clean.get("all_day", current.all_day if current else False):
            start, end = all_day_span(start, end)
        refuse_end_before_start(start, end)
        return {"timezone": name, "start_date": start, "end_date": end}

    def _prepare(self, clean: dict[str, Any], current: Event | None) -> dict[str, Any]:
        if current is not None:
            self._refuse_parent_loop(clean, current)
        return dict(clean) | self._span(clean, current) | self._links(clean)

    def _prepare_many(self, plans: Sequence[tuple[Event, dict[str, Any]]]) -> _Rows:
        """Links resolved once for a whole bulk change (every record gets the same ones)."""
        links: dict[int, dict[str, Any]] = {}  # by cleaned changes (one per time zone)
        prepared = []
        for current, clean in plans:
            if id(clean) not in links:
                links[id(clean)] = self._links(clean)
            prepared.append(dict(clean) | self._span(clean, current) | links[id(clean)])
        return prepared

    def _check_change(self, clean: dict[str, Any], current: Event) -> None:
        self._span(clean, current)  # the new dates in order, for this event's dates and zone
        self._refuse_parent_loop(clean, current)

    def _refuse_parent_loop(self, clean: Mapping[str, Any], current: Event) -> None:
        """Refuse a ``post_parent`` that is the event itself or one of its descendants.

        Such a parent makes a loop (an event its own parent, or two events each other's),
        in which every walk up the tree, and the reparenting a forced delete does
        (``Storage.remove``), goes round for ever or hands an event itself as its parent.
        Categories refuse the same loop through ``parent`` (``TermCollection.update``);
        WordPress quietly sets such a parent to 0 (``wp_check_post_hierarchy_for_loops``),
        which would drop what the caller asked for without a word, so it is an
        ``InvalidParameter`` on ``post_parent`` here. The walk goes up from the new parent
        (one lookup per level, usually one or two) and stops at a loop stored before this
        check existed.
        """
        parent = clean.get("post_parent") or 0
        seen: set[int] = set()
        backend = self._ctx.backend
        while parent and parent not in seen:
            if parent == current.id:
                raise InvalidParameter.one(
                    "post_parent",
                    "send an event that is not this one or one of its child events: "
                    "an event cannot be its own parent or ancestor",
                )
            seen.add(parent)
            found = backend.get_many(Event, [parent]).get(parent)
            parent = found.post_parent if found is not None else 0

    def _links(self, clean: Mapping[str, Any]) -> dict[str, Any]:
        """The link fields of cleaned input as ids: terms and linked records named by text are
        found, or created (inside the caller's transaction)."""
        fields: dict[str, Any] = {}
        if "categories" in clean:
            fields["categories"] = self._categories.ids_for(clean["categories"])
        if "tags" in clean:
            fields["tags"] = self._tags.ids_for(clean["tags"])
        for attr, collection in (("venue", self._venues), ("organizer", self._organizers)):
            if attr in clean:
                fields[attr] = tuple(
                    dict.fromkeys(
                        item if isinstance(item, int) else collection.create_or_reuse(item).id
                        for item in clean[attr]
                    )
                )
        return fields

    def bulk_create(
        self,
        rows: Iterable[Mapping[str, Any]],
        *,
        progress: ProgressArg = None,
        atomic: bool = True,
    ) -> _Ids:
        """Create many events, validated like ``create``; the new ids, in row order.

        ``rows``: mappings of event fields, or a pandas DataFrame (a row per event). Rows are
        read, validated and written a batch (``settings.bulk_batch_size`` rows) at a time, so
        memory stays flat however many rows come (any iterable: a generator is not read
        ahead). A bad row is named in the error (``rows[12].start_date``).

        ``atomic`` (the default): the whole load is one transaction; a bad row, a row the
        caller may not write or a storage failure leaves the calendar unchanged, and nobody
        sees any row before the last is stored. ``atomic=False``: each batch commits on its
        own, and a failure raises ``BulkIncomplete``, saying how many rows (the first ones,
        whole batches) were committed, with the cause chained.

        ``progress=True`` shows a bar (tqdm) of the rows written; a callable is called as
        ``progress(done, total)`` after each batch (``total`` is ``None`` when ``rows`` has no
        length).
        """
        from .io import dataframe  # when first used: ``import events_calendar`` stays light

        rows = dataframe.rows_of(rows) if dataframe.is_dataframe(rows) else rows
        return bulk.bulk_create(self, rows, progress=progress, atomic=atomic)


def _blanked(event: Event) -> Event:
    """A password-protected event as a caller without the password sees it in a list."""
    return attrs.evolve(
        event,
        description="",
        excerpt="",
        cost="",
        website="",
        image="",
        categories=(),
        tags=(),
        venue=(),
        organizer=(),
        password="",  # a blanked event must not hand out the password it hides behind
        locked=True,
    )
