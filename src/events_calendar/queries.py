"""Query specs (what a caller asks) and filters (what a backend answers).

A *query* holds the caller's parameters as given: strings, CSV lists, relative dates, slugs. The
calendar normalises it into a *filter*: instants in UTC, ids instead of slugs, the caller's visible
statuses, defaults applied, an offset and a limit. Backends only ever see filters, so the meaning
of every parameter is decided once, in the core, and no backend can reinterpret it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import UTC, datetime
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Literal,
    TypeVar,
)

import attrs

from .page import Page
from .statuses import Status

if TYPE_CHECKING:
    from .records import Category, Event, Organizer, Tag, Venue

__all__ = [
    "ACCENT_MARKS",
    "EventFilter",
    "EventQuery",
    "LinkedFilter",
    "LinkedQuery",
    "Page",
    "TermFilter",
    "TermOrder",
    "TermQuery",
    "fold",
]


#: The blocks of combining diacritical marks a search ignores (accents: acute, grave,
#: circumflex, tilde, diaeresis, ring, cedilla, caron, ogonek, dot above and the like):
#: Combining Diacritical Marks, its Extended and Supplement blocks, those for symbols, and
#: the half marks. Blocks rather than a Unicode property, so that the rule is one explicit
#: list that PostgreSQL's regular expressions spell as they are (``postgres_schema.fold``)
#: and that a newer Unicode never widens. The marks of other scripts (Hebrew points, Arabic
#: vowels, kana voicing, Indic vowel signs) are letters a reader tells apart and are kept.
ACCENT_MARKS: tuple[tuple[int, int], ...] = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)
_ACCENT = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in ACCENT_MARKS) + "]")


def fold(text: str) -> str:
    """How text is compared in searches and name order: without case and accents, as the
    reference's MySQL collation (``utf8mb4_unicode_ci``) compares it, so ``cafe`` finds
    ``Café`` and ``muller`` finds ``Müller``.

    Four steps, each one PostgreSQL spells exactly (``postgres_schema.fold``): compatibility
    decomposition (NFKD: ``é`` is ``e`` and an accent, ``ﬁ`` is ``fi``, a fullwidth ``Ａ``
    is ``A``), the ``ACCENT_MARKS`` dropped, the rest composed again (NFC: Hangul syllables
    and voiced kana are whole letters again, so a part of one finds nothing), then
    ``str.lower``. Lowering comes last so that it reads no accents: the dotted capital ``İ``
    has already lost its dot and lowers to ``i``. ``str.lower`` rather than ``casefold``:
    ICU's lowercase mapping is the same letter for letter, and ``ß`` stays ``ß``.
    """
    if text.isascii():  # every step but the last leaves ASCII as it is
        return text.lower()
    bare = _ACCENT.sub("", unicodedata.normalize("NFKD", text))
    return (bare if bare.isascii() else unicodedata.normalize("NFC", bare)).lower()


#: Where an event search looks: every word must occur in one of these.
EVENT_SEARCH_FIELDS: tuple[str, ...] = ("title", "excerpt", "description")

#: Where a venue or organizer search looks: one field must contain every word (the reference's
#: ``find_like`` lists).
LINKED_SEARCH_FIELDS: dict[str, tuple[str, ...]] = {
    "venue": (
        "venue",
        "description",
        "excerpt",
        "address",
        "city",
        "province",
        "state",
        "stateprovince",
        "zip",
        "phone",
    ),
    "organizer": ("organizer", "description", "excerpt", "phone", "email", "website"),
}

R = TypeVar("R", bound="Venue | Organizer")
TermT = TypeVar("TermT", bound="Category | Tag")

#: A list parameter: a sequence, or a CSV string as HTTP clients send it.
ListParam = Sequence[int | str] | str | int | None


@attrs.frozen(kw_only=True)
class EventQuery:
    """Parameters of an event list (interface section 4.2). Every field is optional."""

    page: int | str = 1
    per_page: int | str | None = None
    start_date: object = None
    end_date: object = None
    starts_before: object = None
    starts_after: object = None
    ends_before: object = None
    ends_after: object = None
    strict_dates: bool | str | None = None
    search: str | None = None
    categories: ListParam = None
    tags: ListParam = None
    venue: ListParam = None
    organizer: ListParam = None
    featured: bool | str | int | None = None
    status: str | Sequence[str] | None = None
    geoloc: bool | str | None = None
    geoloc_lat: float | str | None = None
    geoloc_lng: float | str | None = None
    include: ListParam = None
    post_parent: int | str | None = None
    ticketed: bool | str | None = None


@attrs.frozen(kw_only=True)
class LinkedQuery:
    """Parameters of a venue or organizer list (interface section 4.3)."""

    page: int | str = 1
    per_page: int | str | None = None
    search: str | None = None
    event: int | str | None = None
    has_events: bool | str | int | None = None
    only_with_upcoming: bool | str | int | None = None
    status: str | Sequence[str] | None = None


TermOrder = Literal["name", "id", "slug", "count", "description", "include", "term_group"]


@attrs.frozen(kw_only=True)
class TermQuery:
    """Parameters of a category or tag list (interface section 4.4)."""

    page: int | str = 1
    per_page: int | str | None = None
    search: str | None = None
    exclude: ListParam = None
    include: ListParam = None
    order: str | None = None
    orderby: str | None = None
    hide_empty: bool | str | int | None = None
    parent: int | str | None = None
    post: int | str | None = None
    event: int | str | None = None
    slug: str | None = None


@attrs.frozen(kw_only=True)
class EventFilter:
    """A normalised event query. Every set filter must hold (AND); sets match any member (OR).

    Bounds are UTC instants; ``None`` means "no bound". Ordering is by UTC start, then id, unless
    ``order_by_date`` (used with ``include``) asks for publication date, then id.
    """

    start_min: datetime | None = None  # start >= start_min
    start_after: datetime | None = None  # start > start_after
    start_before: datetime | None = None  # start < start_before
    end_max: datetime | None = None  # end <= end_max
    end_after: datetime | None = None  # end > end_after
    end_before: datetime | None = None  # end < end_before
    statuses: frozenset[Status] = frozenset({Status.PUBLISH})
    #: Words folded by ``fold`` (no case, no accents); each must occur in the title, excerpt
    #: or description.
    search: tuple[str, ...] = ()
    #: Folded words none of which may occur there (WordPress's ``-word`` in a search).
    search_excluded: tuple[str, ...] = ()
    category_ids: frozenset[int] | None = None
    tag_ids: frozenset[int] | None = None
    venue_ids: frozenset[int] | None = None
    organizer_ids: frozenset[int] | None = None
    featured: bool | None = None
    include: frozenset[int] | None = None
    post_parent: int | None = None
    exclude_hidden: bool = True
    #: When set, private events of other authors are invisible (non-editors).
    private_author: int | None = None
    #: When set, events in any status but ``publish`` match only if this user wrote them
    #: (``Actor.can_read`` for lists: non-editors never list others' drafts or trash).
    unpublished_author: int | None = None
    #: A password-protected event matches ``search`` by its title only: its other text is
    #: hidden from this caller, so it must not answer guesses about it.
    locked_search_in_title: bool = False
    order_by_date: bool = False
    #: Keyset paging (``iter``): the ``sort_key`` of the last event already seen; only events
    #: strictly after it in list order match. ``None``: from the first event on, as is
    #: ``BEFORE_ALL`` (which still marks the query as a keyset page).
    after: tuple[datetime, int] | None = None
    offset: int = 0
    #: At most this many records from ``offset`` on; ``None``: all of them.
    limit: int | None = 10

    def matches(self, event: Event) -> bool:
        """Whether ``event`` is in this list: the one statement of every filter's meaning.

        The in-memory backend runs it directly; SQL backends compile the same conditions,
        and the differential tests hold them to this.
        """
        if self.after is not None and self.sort_key(event) <= self.after:
            return False
        if event.status not in self.statuses or not _own_private(event, self.private_author):
            return False
        if not _own_unpublished(event, self.unpublished_author):
            return False
        if self.exclude_hidden and event.hide_from_listings:
            return False
        start, end = event.utc_start_date, event.utc_end_date
        if (
            (self.start_min is not None and start < self.start_min)
            or (self.start_after is not None and start <= self.start_after)
            or (self.start_before is not None and start >= self.start_before)
            or (self.end_max is not None and end > self.end_max)
            or (self.end_after is not None and end <= self.end_after)
            or (self.end_before is not None and end >= self.end_before)
        ):
            return False
        if self.featured is not None and event.featured != self.featured:
            return False
        if self.post_parent is not None and event.post_parent != self.post_parent:
            return False
        for ids, linked in (
            (self.include, (event.id,)),
            (self.venue_ids, event.venue),
            (self.organizer_ids, event.organizer),
            (self.category_ids, event.categories),
            (self.tag_ids, event.tags),
        ):
            if ids is not None and not ids.intersection(linked):
                return False
        if self.search or self.search_excluded:
            locked = self.locked_search_in_title and event.password
            fields = ("title",) if locked else EVENT_SEARCH_FIELDS
            # Joined by NUL, which no field or word holds: a word found in no one field is
            # not found across two (WordPress searches each field on its own).
            text = fold("\0".join(str(getattr(event, f)) for f in fields))
            return all(word in text for word in self.search) and not any(
                word in text for word in self.search_excluded
            )
        return True

    #: A cursor before every event (no instant or id is smaller).
    BEFORE_ALL: ClassVar[tuple[datetime, int]] = (datetime.min.replace(tzinfo=UTC), 0)

    def sort_key(self, event: Event) -> tuple[datetime, int]:
        """The list order: UTC start, then id (publication date, then id, for ``include``)."""
        if self.order_by_date:
            return (event.date_utc, event.id)
        return (event.utc_start_date, event.id)

    def order(self, events: Iterable[Event]) -> list[Event]:
        return sorted(events, key=self.sort_key)


@attrs.frozen(kw_only=True)
class LinkedFilter:
    """A normalised venue/organizer query; results are newest first (publication date, id)."""

    statuses: frozenset[Status] = frozenset({Status.PUBLISH})
    #: Folded words (``fold``); one field of the record must contain all of them.
    search: tuple[str, ...] = ()
    event_id: int | None = None
    #: True: linked to an event with one of ``has_events_statuses``, or one of
    #: ``has_events_author``'s own with one of ``has_events_own_statuses``; False: to none.
    has_events: bool | None = None
    has_events_statuses: frozenset[Status] = frozenset()
    has_events_own_statuses: frozenset[Status] = frozenset()
    has_events_author: int | None = None
    #: Only these records (``only_with_upcoming``, resolved by the core to the records the
    #: upcoming events link to); ``None`` means no restriction.
    ids: frozenset[int] | None = None
    private_author: int | None = None
    #: As ``EventFilter.unpublished_author``: others' unpublished records are left out.
    unpublished_author: int | None = None
    #: Keyset paging (``iter``): the ``sort_key`` of the last record already seen; only
    #: records strictly after it in list order (newest first: a smaller key) match.
    after: tuple[datetime, int] | None = None
    offset: int = 0
    limit: int | None = 10

    def matches(self, record: Venue | Organizer, *, events: Collection[Event]) -> bool:
        """Whether ``record`` is in this list, given the events that link to it."""
        if self.after is not None and self.sort_key(record) >= self.after:
            return False
        if record.status not in self.statuses or not _own_private(record, self.private_author):
            return False
        if not _own_unpublished(record, self.unpublished_author):
            return False
        if self.event_id is not None and not any(e.id == self.event_id for e in events):
            return False
        if self.search and not _any_field_has_all(record, self.search):
            return False
        if self.has_events is not None:
            has = any(self._counts(e) for e in events)
            if has != self.has_events:
                return False
        return self.ids is None or record.id in self.ids

    def _counts(self, event: Event) -> bool:
        """Whether ``event`` gives its venue or organizer events (``has_events``)."""
        return event.status in self.has_events_statuses or (
            event.status in self.has_events_own_statuses and event.author == self.has_events_author
        )

    @staticmethod
    def sort_key(record: Venue | Organizer) -> tuple[datetime, int]:
        """The list order's key, read backwards: publication date, then id."""
        return (record.date_utc, record.id)

    def order(self, records: Iterable[R]) -> list[R]:
        """Newest first: publication date, then id, both descending."""
        return sorted(records, key=self.sort_key, reverse=True)


@attrs.frozen(kw_only=True)
class TermFilter:
    """A normalised category/tag query."""

    search: str | None = None  # a substring of name or slug, both folded (``fold``)
    include: frozenset[int] | None = None
    exclude: frozenset[int] = frozenset()
    orderby: TermOrder = "name"
    descending: bool = False
    include_order: tuple[int, ...] = ()
    hide_empty: bool = True
    #: Only direct children of one of these categories.
    parents: frozenset[int] | None = None
    post: int | None = None
    slug: str | None = None
    #: Keyset paging (``iter``): the ``sort_key`` of the last term already seen; only terms
    #: strictly after it in list order match (a key further along ``orderby`` in its
    #: direction, or the same key and a larger id: ties are by ascending id either way).
    after: tuple[object, int] | None = None
    offset: int = 0
    limit: int | None = 10

    def matches(self, term: Category | Tag, *, events: Collection[int]) -> bool:
        """Whether ``term`` (with its stored ``count``) is in this list, given the ids of the
        events that link to it."""
        if self.after is not None and not self._past(self.sort_key(term), self.after):
            return False
        if self.include is not None and term.id not in self.include:
            return False
        if term.id in self.exclude:
            return False
        if self.parents is not None and term.parent not in self.parents:
            return False
        if self.hide_empty and term.count <= 0:
            return False
        if self.slug is not None and term.slug != self.slug:
            return False
        if self.post is not None and self.post not in events:
            return False
        if self.search:
            needle = fold(self.search)
            return needle in fold(term.name) or needle in fold(term.slug)
        return True

    def order(self, terms: Iterable[TermT]) -> list[TermT]:
        """By ``orderby`` (ascending, or descending), ties by ascending id either way."""
        found = sorted(terms, key=lambda t: t.id)
        found.sort(key=self._sort_key(), reverse=self.descending)
        return found

    def sort_key(self, term: Category | Tag) -> tuple[object, int]:
        """The list order's key of ``term``: its ``orderby`` value, then its id."""
        return (self._sort_key()(term)[0], term.id)

    def _past(self, key: tuple[Any, int], after: tuple[Any, int]) -> bool:
        """Whether ``key`` comes strictly after ``after`` in this list's order."""
        if key[0] == after[0]:
            return key[1] > after[1]
        return bool(key[0] < after[0]) if self.descending else bool(key[0] > after[0])

    def _sort_key(self) -> Callable[[Category | Tag], tuple[object, ...]]:
        if self.orderby == "include" and self.include_order:
            position = {term_id: n for n, term_id in enumerate(self.include_order)}
            return lambda t: (position.get(t.id, len(position)),)
        field = TERM_ORDER_FIELDS[self.orderby]
        if field in ("name", "description"):
            return lambda t: (fold(str(getattr(t, field))),)
        return lambda t: (getattr(t, field),)


#: The record field each term order sorts by.
TERM_ORDER_FIELDS: dict[TermOrder, str] = {
    "name": "name",
    "id": "id",
    "slug": "slug",
    "count": "count",
    "description": "description",
    "term_group": "id",
    "include": "id",
}


def _own_private(record: Event | Venue | Organizer, private_author: int | None) -> bool:
    """Private records are visible only to their author when ``private_author`` is set."""
    return (
        private_author is None or record.status != Status.PRIVATE or record.author == private_author
    )


def _own_unpublished(record: Event | Venue | Organizer, author: int | None) -> bool:
    """Unpublished records are visible only to their author when ``author`` is set."""
    return author is None or record.status == Status.PUBLISH or record.author == author


def _any_field_has_all(record: Venue | Organizer, words: tuple[str, ...]) -> bool:
    for name in LINKED_SEARCH_FIELDS[record.kind]:
        value = fold(str(getattr(record, name) or ""))
        if all(word in value for word in words):
            return True
    return False
