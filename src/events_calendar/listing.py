"""Turning list queries into backend filters: the meaning of every list parameter.

Each ``*_filter`` function validates a query for an actor and returns the normalised filter
(see ``queries``): bounds as UTC instants after day rounding and default windows, slugs and names
resolved to ids, the statuses the actor may see. Every invalid parameter is reported at once in
one ``InvalidParameter``. Paging follows the reference: ``page`` and ``per_page`` must be positive
integers and ``per_page`` is clamped to the maximum setting.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import Any, Literal

import attrs

from .coerce import MAX_INT, as_bool, as_id_list, as_int, as_list, clean_text, is_truthy
from .dates import default_window, query_bound
from .errors import InvalidParameter
from .lookups import child_terms, term_ids
from .permissions import Actor
from .queries import (
    EventFilter,
    EventQuery,
    LinkedFilter,
    LinkedQuery,
    TermFilter,
    TermOrder,
    TermQuery,
    fold,
)
from .records import RECORD_CLASSES, Event, Kind
from .settings import Settings
from .statuses import Status
from .storage import Storage

__all__ = ["Paging", "event_filter", "linked_filter", "paging", "term_filter"]

#: Statuses whose events make a venue or organizer count as "having events" (the reference
#: leaves out drafts and pending events, and counts trashed ones).
_HAS_EVENTS_STATUSES = frozenset(Status) - {Status.DRAFT, Status.PENDING}

_DATE_PARAMS = (
    "start_date",
    "end_date",
    "starts_before",
    "starts_after",
    "ends_before",
    "ends_after",
)
_RELATIVE_PARAMS = _DATE_PARAMS[2:]


@attrs.frozen
class Paging:
    page: int
    per_page: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


class _Problems:
    """Collects every bad parameter of one query before raising."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.codes: dict[str, str] = {}

    def check(self, name: str, read: Callable[[], Any]) -> Any:
        try:
            return read()
        except InvalidParameter as bad:
            self.fields.update(bad.fields or {name: bad.message})
            self.codes.update(bad.codes)
        except _Bad as bad:
            self.fields[name] = bad.why
        return None

    def raise_if_any(self) -> None:
        if self.fields:
            raise InvalidParameter(self.fields, codes=self.codes)


class _Bad(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _positive(value: object, what: str) -> int:
    number = as_int(value)
    if number is None or number < 1:
        raise _Bad(f"send a positive whole number of {what}")
    return number


def paging(page: object, per_page: object, settings: Settings, problems: _Problems) -> Paging:
    got_page = problems.check("page", lambda: _positive(page, "pages"))
    got_per_page = problems.check(
        "per_page",
        lambda: settings.per_page if per_page is None else _positive(per_page, "records"),
    )
    size = min(got_per_page or settings.per_page, settings.max_per_page)
    if got_page is not None and got_page * size > MAX_INT:  # its offset names no record
        problems.check("page", lambda: _positive(None, f"pages up to {MAX_INT // size}"))
        got_page = None
    return Paging(got_page or 1, size)


def _statuses(value: object, actor: Actor) -> frozenset[Status]:
    if value is None:
        return actor.default_statuses()
    items = as_list(value)
    if not items:
        raise _Bad("send one or more statuses such as 'publish'")
    if not actor.may_filter_status:
        if items != [Status.PUBLISH.value]:
            raise _Bad("only 'publish' may be listed without signing in as a contributor or up")
        return frozenset({Status.PUBLISH})
    found: set[Status] = set()
    for item in items:
        if item == "any":
            found |= actor.default_statuses()
            continue
        try:
            found.add(Status(str(item)))
        except ValueError:
            raise _Bad(f"send statuses among {', '.join(s.value for s in Status)}") from None
    return frozenset(found)


#: WordPress's ``parse_search``: a quoted phrase, or a run of characters other than tab,
#: space, quote, comma and plus.
_EVENT_SEARCH_TERM = re.compile(r'".*?(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+')
#: The reference's ``find_like`` for venues and organizers: words are runs of letters, digits
#: and dashes; every other character separates them.
_LINKED_SEARCH_WORD = re.compile(r"(?:[^\W_]|-)+")
#: WordPress's English search stopwords (``get_search_stopwords``).
# fmt: off
_STOPWORDS = frozenset({
    "about", "an", "are", "as", "at", "be", "by", "com", "for", "from", "how", "in", "is", "it",
    "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "who", "will",
    "with", "www",
})
# fmt: on
#: One-character terms WordPress leaves out of a search: single ASCII letters and a dash.
_SKIPPED_CHARACTERS = frozenset(string.ascii_letters + "-")


#: The longest search text, for every kind: a search is a few words, and each extra word or
#: character costs every row a comparison (a 60 KB search used to burn 1.4 s of CPU).
MAX_SEARCH_LENGTH = 500
#: The most words a search is split into; past it the whole text is one term, as WordPress
#: does for events (``parse_search``'s nine terms), for venues and organizers too.
MAX_SEARCH_WORDS = 9


def _search_text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad("send a non-empty search text")
    if len(value) > MAX_SEARCH_LENGTH:
        raise _Bad(f"send a search text of at most {MAX_SEARCH_LENGTH} characters")
    if not clean_text(value):
        raise _Bad("send a search text without NUL characters")
    return value


def _event_search(value: object) -> tuple[str, ...]:
    """Search terms as WordPress splits an event search (``WP_Query::parse_search``).

    Terms are separated by spaces, commas and plus signs, and a quoted phrase is one term
    (``"summer gala"`` must occur as written); every term must occur. Single letters and
    English stopwords are dropped, and when nothing is left (or more than nine terms are) the
    whole text is the one term, as WordPress does.
    """
    if value is None:
        return ()
    text = _search_text(value)
    terms: list[str] = []
    for term in _EVENT_SEARCH_TERM.findall(text):
        quoted = len(term) > 2 and term.startswith('"') and term.endswith('"')
        term = term.strip("\"'" if quoted else "\"' ")
        if not term or (len(term) == 1 and term in _SKIPPED_CHARACTERS):
            continue
        if fold(term) not in _STOPWORDS:
            terms.append(fold(term))
    if not terms or len(terms) > MAX_SEARCH_WORDS:
        terms = [fold(text.strip())]
    return tuple(dict.fromkeys(terms))


def _linked_search(value: object) -> tuple[str, ...]:
    """Search words as the reference splits a venue or organizer search."""
    if value is None:
        return ()
    words = tuple(dict.fromkeys(fold(w) for w in _LINKED_SEARCH_WORD.findall(_search_text(value))))
    if not words:
        raise _Bad("send a search text with at least one letter or digit")
    if len(words) > MAX_SEARCH_WORDS:
        return (fold(str(value).strip()),)
    return words


def _existing_ids(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    if value is None:
        return None
    ids = as_id_list(value)
    if ids is None or not ids:
        raise _Bad(f"send one or more {kind} ids")
    known = backend.get_many(RECORD_CLASSES[kind], ids)
    missing = [i for i in ids if i not in known]
    if missing:
        raise _Bad(f"there is no {kind} with id {missing[0]}; send existing {kind} ids")
    return frozenset(ids)


def _term_ids(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    """Ids of the named terms (ids, slugs or names) and of all their descendants."""
    if value is None:
        return None
    items = as_list(value)
    if not items:
        raise _Bad(f"send one or more {kind} ids or slugs")
    ids: set[int] = set()
    keys = [str(i) for i in items if as_int(i) is None]
    numbers = [n for i in items if (n := as_int(i)) is not None]
    found = term_ids(backend, kind, keys)
    known = backend.get_many(RECORD_CLASSES[kind], numbers)
    missing = [k for k in keys if k not in found] + [str(n) for n in numbers if n not in known]
    if missing:
        raise _Bad(f"there is no {kind} {missing[0]!r}; send existing {kind} ids or slugs")
    ids.update(found.values(), numbers)
    frontier = set(ids)
    while frontier:  # a category includes its sub-categories, as WordPress's tax queries do
        frontier = set(child_terms(backend, kind, frontier)) - ids
        ids |= frontier
    return frozenset(ids)


def _event_id(backend: Storage, value: object, actor: Actor | None = None) -> int:
    """An event id a filter names: one the caller may read in full (an event they may not
    read is answered as an unknown id, so the filter cannot tell its terms or links)."""
    number = as_int(value)
    if number is None or number < 1 or backend.post_kind(number) != "event":
        raise _Bad("send the id of an existing event")
    if actor is not None:
        event = backend.get_many(Event, [number])[number]
        if not actor.can_read_event(event.author, event.status, password=event.password):
            raise _Bad("send the id of an existing event")
    return number


def _flag(value: object) -> bool | None:
    if value is None:
        return None
    read = as_bool(value)
    if read is None:
        raise _Bad("send true or false")
    return read


def _unsupported(query: EventQuery, problems: _Problems) -> None:
    """Parameters of the reference's paid add-ons, answered honestly.

    Geolocation filters are refused with a clear "not supported" error: the reference ignores
    them without its add-on and lists everything, which looks like an answer but is not one.
    Asking for ``ticketed`` events is refused the way the reference refuses it without Event
    Tickets (evlist_ticketed_true); ``ticketed=false`` is a true answer as it stands (no event
    here has tickets), so it filters nothing.
    """
    for name in ("geoloc", "geoloc_lat", "geoloc_lng"):
        if getattr(query, name) is not None:
            problems.fields[name] = (
                "geolocation filters are not supported by this calendar; leave them out"
            )
    if query.ticketed is not None and is_truthy(query.ticketed):
        problems.fields["ticketed"] = "ticketing is not supported by this calendar"
        problems.codes["ticketed"] = "event-tickets-not-active"


def event_filter(
    query: EventQuery,
    actor: Actor,
    backend: Storage,
    settings: Settings,
    zone: tzinfo,
    now: datetime,
) -> EventFilter:
    """Normalise an event list query (interface section 4.2, reference semantics)."""
    problems = _Problems()
    page = paging(query.page, query.per_page, settings, problems)
    strict = bool(problems.check("strict_dates", lambda: _strict(query.strict_dates)))
    include = problems.check("include", lambda: _include(query.include))

    bounds: dict[str, datetime | None] = {}
    for name in _DATE_PARAMS:
        value = getattr(query, name)
        edge: Literal["start", "end"] = "start" if name == "start_date" else "end"
        bounds[name] = (
            None
            if value is None
            else problems.check(
                name,
                lambda v=value, n=name, e=edge: query_bound(  # type: ignore[misc]
                    v, edge=e, strict=strict, zone=zone, now=now, field=n
                ),
            )
        )
    relative = any(getattr(query, name) is not None for name in _RELATIVE_PARAMS)
    if include is None and not relative:
        window_start, window_end = default_window(now, zone)
        if query.start_date is None:
            bounds["start_date"] = window_start
        if query.end_date is None:
            bounds["end_date"] = window_end
    if include is not None:  # the spec: with include, date filters are ignored
        bounds = dict.fromkeys(_DATE_PARAMS)

    flt = EventFilter(
        start_min=bounds["start_date"],
        end_max=bounds["end_date"],
        start_before=bounds["starts_before"],
        start_after=bounds["starts_after"],
        end_before=bounds["ends_before"],
        end_after=bounds["ends_after"],
        statuses=problems.check("status", lambda: _statuses(query.status, actor)) or frozenset(),
        search=problems.check("search", lambda: _event_search(query.search)) or (),
        category_ids=problems.check(
            "categories", lambda: _term_ids(backend, "category", query.categories)
        ),
        tag_ids=problems.check("tags", lambda: _term_ids(backend, "tag", query.tags)),
        venue_ids=problems.check("venue", lambda: _existing_ids(backend, "venue", query.venue)),
        organizer_ids=problems.check(
            "organizer", lambda: _existing_ids(backend, "organizer", query.organizer)
        ),
        featured=problems.check("featured", lambda: _flag(query.featured)),
        include=include,
        post_parent=problems.check(
            "post_parent",
            lambda: (
                None if query.post_parent is None else _event_id(backend, query.post_parent, actor)
            ),
        ),
        private_author=actor.private_author,
        unpublished_author=actor.unpublished_author,
        locked_search_in_title=not actor.system,
        order_by_date=include is not None,
        offset=page.offset,
        limit=page.per_page,
    )
    _unsupported(query, problems)
    problems.raise_if_any()
    return flt


def _strict(value: object) -> bool:
    if value is None:
        return False
    if value == "":
        raise _Bad("send true or false")
    return is_truthy(value)


def _include(value: object) -> frozenset[int] | None:
    if value is None:
        return None
    ids = as_id_list(value)
    if ids is None or not ids or 0 in ids:
        raise _Bad("send one or more positive event ids")
    return frozenset(ids)


def linked_filter(
    kind: Literal["venue", "organizer"],
    query: LinkedQuery,
    actor: Actor,
    backend: Storage,
    settings: Settings,
    now: datetime,
) -> LinkedFilter:
    """Normalise a venue or organizer list query (interface section 4.3)."""
    problems = _Problems()
    page = paging(query.page, query.per_page, settings, problems)
    statuses = problems.check("status", lambda: _statuses(query.status, actor)) or frozenset()
    flt = LinkedFilter(
        statuses=statuses,
        search=problems.check("search", lambda: _linked_search(query.search)) or (),
        event_id=problems.check(
            "event",
            lambda: None if query.event is None else _event_id(backend, query.event, actor),
        ),
        has_events=None if query.has_events is None else is_truthy(query.has_events),
        # Others' private events make no venue "have events" for a caller who cannot read them.
        has_events_statuses=_HAS_EVENTS_STATUSES
        if actor.is_editor
        else _HAS_EVENTS_STATUSES - {Status.PRIVATE},
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


_TERM_ORDERS: dict[str, TermOrder] = {
    "name": "name",
    "id": "id",
    "term_id": "id",
    "slug": "slug",
    "count": "count",
    "description": "description",
    "include": "include",
    "term_group": "term_group",
}


def term_filter(
    kind: Literal["category", "tag"],
    query: TermQuery,
    backend: Storage,
    settings: Settings,
    actor: Actor | None = None,
) -> TermFilter:
    """Normalise a category or tag list query (interface section 4.4); ``event`` (``post``)
    must name an event ``actor`` may read (``None``: full access)."""
    problems = _Problems()
    page = paging(query.page, query.per_page, settings, problems)
    include = problems.check("include", lambda: _existing_ids(backend, kind, query.include))
    post_value = query.event if query.event is not None else query.post
    post_name = "event" if query.event is not None else "post"
    flt = TermFilter(
        search=problems.check(
            "search", lambda: None if query.search is None else _search_text(query.search).strip()
        ),
        include=include,
        include_order=tuple(as_id_list(query.include) or ()) if include else (),
        exclude=problems.check("exclude", lambda: _existing_ids(backend, kind, query.exclude))
        or frozenset(),
        orderby=problems.check("orderby", lambda: _term_order(query.orderby)) or "name",
        descending=bool(problems.check("order", lambda: _descending(query.order))),
        hide_empty=True
        if query.hide_empty is None
        else bool(problems.check("hide_empty", lambda: _flag(query.hide_empty))),
        parents=problems.check("parent", lambda: _parent(backend, kind, query.parent))
        if kind == "category"
        else None,  # tags are flat: WordPress ignores ``parent`` for them (tlist_parent)
        post=problems.check(
            post_name,
            lambda: None if post_value is None else _event_id(backend, post_value, actor),
        ),
        slug=problems.check("slug", lambda: _nonempty(query.slug)),
        offset=page.offset,
        limit=page.per_page,
    )
    problems.raise_if_any()
    return flt


def _nonempty(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _Bad("send a non-empty text")
    if not clean_text(value):
        raise _Bad("send a text without NUL characters")
    return value.strip()


def _term_order(value: object) -> TermOrder:
    if value is None:
        return "name"
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"send one of {', '.join(_TERM_ORDERS)}")
    # The reference (WordPress) falls back to name order for an unknown orderby.
    return _TERM_ORDERS.get(value.strip().lower(), "name")


def _descending(value: object) -> bool:
    if value is None:
        return False
    if not isinstance(value, str) or value.strip().lower() not in ("asc", "desc"):
        raise _Bad("send 'asc' or 'desc'")
    return value.strip().lower() == "desc"


def _parent(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    """The category whose direct children to list.

    It must be an existing category: the reference validates ``parent`` with
    ``is_event_category``, so ``parent=0`` is a 400 (``clist_parent_zero``), not "top level".
    """
    if value is None:
        return None
    number = as_int(value)
    if number is None or number < 1 or not backend.get_many(RECORD_CLASSES[kind], [number]):
        raise _Bad(f"send the id of an existing {kind}")
    return frozenset({number})
