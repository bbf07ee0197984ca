"""Turning list queries into backend filters: the meaning of every list parameter.

This module normalises event lists; ``listing_linked`` does venues and organizers,
``listing_terms`` categories and tags, and ``listing_common`` holds what they share. The three
filter functions are importable from here. Each validates a query for an actor and returns the
normalised filter (see ``queries``): bounds as UTC instants after day rounding and default
windows, slugs and names resolved to ids, the statuses the actor may see. Every invalid parameter
is reported at once in one ``InvalidParameter``.
"""

from __future__ import annotations

import re
import string
from datetime import datetime, tzinfo
from typing import Literal

import attrs

from .coerce import as_id_list, as_int, as_list, clean_text, filter_bool
from .dates import default_window, query_bound
from .listing_common import (
    MAX_SEARCH_WORDS,
    Bad,
    Paging,
    Problems,
    event_id,
    existing_ids,
    flag,
    number,
    paging,
    read_statuses,
    search_text,
)
from .listing_linked import linked_filter
from .listing_terms import term_filter
from .lookups import child_terms, term_ids
from .permissions import Actor
from .queries import EventFilter, EventQuery, fold
from .records import RECORD_CLASSES, Kind
from .settings import Settings
from .statuses import Status
from .storage import Storage

__all__ = [
    "DATE_FILTERS",
    "Paging",
    "event_filter",
    "linked_filter",
    "paging",
    "term_filter",
    "within_read_rule",
]

#: The date filters of an event list.
DATE_FILTERS = (
    "start_date",
    "end_date",
    "starts_before",
    "starts_after",
    "ends_before",
    "ends_after",
)
_RELATIVE_PARAMS = DATE_FILTERS[2:]


#: WordPress's ``parse_search``: a quoted phrase, or a run of characters other than tab,
#: space, quote, comma and plus.
_EVENT_SEARCH_TERM = re.compile(r'".*?(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+')
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


def _event_search(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Search terms as WordPress splits an event search (``WP_Query::parse_search``): the
    words that must occur, and those that must not.

    Terms are separated by spaces, commas and plus signs, and a quoted phrase is one term
    (``"summer gala"`` must occur as written); every term must occur, but one that starts with
    ``-`` must not (``jazz -festival``), as WordPress reads its exclusion prefix. Single
    letters and English stopwords are dropped, and when nothing is left (or more than nine
    terms are) the whole text is the one term, as WordPress does.
    """
    if value is None:
        return (), ()
    text = search_text(value)
    terms: list[str] = []
    for term in _EVENT_SEARCH_TERM.findall(text):
        quoted = len(term) > 2 and term.startswith('"') and term.endswith('"')
        term = term.strip("\"'" if quoted else "\"' ")
        if not term or (len(term) == 1 and term in _SKIPPED_CHARACTERS):
            continue
        if term.lower() not in _STOPWORDS:
            terms.append(term)
    if not terms or len(terms) > MAX_SEARCH_WORDS:
        terms = [text.strip()]
    # Read as written, then folded (``queries.fold``): a stopword is one lower-cased, as
    # WordPress compares them (``thé`` is no ``the``), and only a dash as typed excludes
    # (folding turns a fullwidth or small hyphen-minus into one).
    wanted = [fold(t) for t in terms if not t.startswith("-")]
    excluded = [fold(t[1:]) for t in terms if t.startswith("-")]
    return tuple(dict.fromkeys(wanted)), tuple(dict.fromkeys(excluded))


def _term_ids(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    """Ids of the named terms (ids, slugs or names) and of all their descendants."""
    if value is None:
        return None
    items = as_list(value, split_items=False)  # an item is one name, commas and all
    if not items:
        raise Bad(f"send one or more {kind} ids or slugs")
    ids: set[int] = set()
    keys = [str(i) for i in items if as_int(i) is None]
    if not all(clean_text(key) for key in keys):  # no stored slug or name holds one
        raise Bad(f"send {kind} ids, slugs or names without NUL characters")
    numbers = [n for i in items if (n := as_int(i)) is not None]
    found = term_ids(backend, kind, keys)
    known = backend.get_many(RECORD_CLASSES[kind], numbers)
    missing = [k for k in keys if k not in found] + [str(n) for n in numbers if n not in known]
    if missing:
        raise Bad(f"there is no {kind} {missing[0]!r}; send existing {kind} ids or slugs")
    ids.update(found.values(), numbers)
    frontier = set(ids)
    while frontier:  # a category includes its sub-categories, as WordPress's tax queries do
        frontier = set(child_terms(backend, kind, frontier)) - ids
        ids |= frontier
    return frozenset(ids)


def _add_ons(query: EventQuery, problems: Problems) -> None:
    """Parameters of the reference's paid add-ons, answered as the reference answers them
    without those add-ons (its recordings: evlist_geoloc*, evlist_ticketed_*).

    Geolocation filters are checked (``geoloc`` a boolean, ``geoloc_lat`` and ``geoloc_lng``
    numbers) and then filter nothing: without Events Calendar Pro the reference lists every
    event, and no venue here holds coordinates to filter on. Asking for ``ticketed`` events
    is refused the way the reference refuses it without Event Tickets; ``ticketed=false`` is
    a true answer as it stands (no event here has tickets), so it filters nothing.
    """
    problems.check("geoloc", lambda: flag(query.geoloc))
    problems.check("geoloc_lat", lambda: number(query.geoloc_lat))
    problems.check("geoloc_lng", lambda: number(query.geoloc_lng))
    if problems.check("ticketed", lambda: flag(query.ticketed)):  # a boolean, typed so
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
    problems = Problems()
    page = paging(query.page, query.per_page, settings, problems)
    strict = bool(problems.check("strict_dates", lambda: _strict(query.strict_dates)))
    include = problems.check("include", lambda: _include(query.include))

    bounds: dict[str, datetime | None] = {}
    for name in DATE_FILTERS:
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
        bounds = dict.fromkeys(DATE_FILTERS)

    searched = problems.check("search", lambda: _event_search(query.search)) or ((), ())
    flt = EventFilter(
        start_min=bounds["start_date"],
        end_max=bounds["end_date"],
        start_before=bounds["starts_before"],
        start_after=bounds["starts_after"],
        end_before=bounds["ends_before"],
        end_after=bounds["ends_after"],
        statuses=problems.check("status", lambda: read_statuses(query.status, actor))
        or frozenset(),
        search=searched[0],
        search_excluded=searched[1],
        category_ids=problems.check(
            "categories", lambda: _term_ids(backend, "category", query.categories)
        ),
        tag_ids=problems.check("tags", lambda: _term_ids(backend, "tag", query.tags)),
        venue_ids=problems.check("venue", lambda: existing_ids(backend, "venue", query.venue)),
        organizer_ids=problems.check(
            "organizer", lambda: existing_ids(backend, "organizer", query.organizer)
        ),
        featured=problems.check("featured", lambda: flag(query.featured)),
        include=include,
        post_parent=problems.check(
            "post_parent",
            lambda: (
                None if query.post_parent is None else event_id(backend, query.post_parent, actor)
            ),
        ),
        order_by_date=include is not None,
        offset=page.offset,
        limit=page.per_page,
    )
    _add_ons(query, problems)
    problems.raise_if_any()
    return within_read_rule(flt, actor)


def within_read_rule(flt: EventFilter, actor: Actor) -> EventFilter:
    """``flt`` narrowed to what ``actor`` may read (``Actor.can_read``, in a list's form):
    published events only below contributors, others' private and unpublished events only
    for editors, password-protected text searched by title alone below full access.

    Every event filter passes here, a normalised query's and one a caller built by hand
    (``EventCollection.batches``), so no way into a list reads past the rule."""
    statuses = flt.statuses if actor.may_filter_status else flt.statuses & {Status.PUBLISH}
    return attrs.evolve(
        flt,
        statuses=statuses,
        private_author=actor.private_author,
        unpublished_author=actor.unpublished_author,
        locked_search_in_title=not actor.system,
    )


def _strict(value: object) -> bool:
    if value is None:
        return False
    if value == "":
        raise Bad("send true or false")
    return filter_bool(value)


def _include(value: object) -> frozenset[int] | None:
    if value is None:
        return None
    ids = as_id_list(value)
    if ids is None or not ids or 0 in ids:
        raise Bad("send one or more positive event ids")
    return frozenset(ids)
