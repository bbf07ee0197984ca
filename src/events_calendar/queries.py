"""Query specs (what a caller asks) and filters (what a backend answers).

A *query* holds the caller's parameters as given: strings, CSV lists, relative dates, slugs. The
calendar normalises it into a *filter*: instants in UTC, ids instead of slugs, the caller's visible
statuses, defaults applied, an offset and a limit. Backends only ever see filters, so the meaning
of every parameter is decided once, in the core, and no backend can reinterpret it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Generic, Literal, TypeVar

import attrs

from .statuses import Status

__all__ = [
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


def fold(text: str) -> str:
    """How text is compared case-insensitively in searches and name order.

    ``str.lower`` rather than ``casefold``: it is what SQLite's FTS5 and our SQL function
    agree on, so every backend folds text the same way.
    """
    return text.lower()


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

T = TypeVar("T")

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
    #: Lower-cased words; each must occur in the title, excerpt or description.
    search: tuple[str, ...] = ()
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
    order_by_date: bool = False
    offset: int = 0
    limit: int = 10


@attrs.frozen(kw_only=True)
class LinkedFilter:
    """A normalised venue/organizer query; results are newest first (publication date, id)."""

    statuses: frozenset[Status] = frozenset({Status.PUBLISH})
    #: Lower-cased words; one field of the record must contain all of them.
    search: tuple[str, ...] = ()
    event_id: int | None = None
    #: True: linked to an event with one of ``has_events_statuses``; False: to none.
    has_events: bool | None = None
    has_events_statuses: frozenset[Status] = frozenset()
    #: Only these records (``only_with_upcoming``, resolved by the core to the records the
    #: upcoming events link to); ``None`` means no restriction.
    ids: frozenset[int] | None = None
    private_author: int | None = None
    offset: int = 0
    limit: int = 10


@attrs.frozen(kw_only=True)
class TermFilter:
    """A normalised category/tag query."""

    search: str | None = None  # case-insensitive substring of name or slug
    include: frozenset[int] | None = None
    exclude: frozenset[int] = frozenset()
    orderby: TermOrder = "name"
    descending: bool = False
    include_order: tuple[int, ...] = ()
    hide_empty: bool = True
    parent: int | None = None
    post: int | None = None
    slug: str | None = None
    offset: int = 0
    limit: int = 10


@attrs.frozen(kw_only=True)
class Page(Generic[T]):
    """One page of a list, with what a caller needs to fetch the others."""

    items: tuple[T, ...]
    total: int
    page: int
    per_page: int
    #: The normalised filter the page answers (effective date bounds, statuses ...), for
    #: callers that echo the query back, such as the HTTP adapter's ``rest_url``.
    filter: EventFilter | LinkedFilter | TermFilter | None = attrs.field(
        default=None, eq=False, repr=False
    )

    @property
    def total_pages(self) -> int:
        """``ceil(total / per_page)``; 0 for an empty list."""
        return -(-self.total // self.per_page) if self.per_page else 0

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
