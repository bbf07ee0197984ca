"""What a cached answer depends on, and what a journaled change retires.

Both are sets of tags (strings); a change retires every cached answer sharing a tag with it
(``cache.ResponseCache.caught_up``). The changes come from the storage's journal
(``changes``), so writes through any worker, process or tool are accounted for alike. The rules
are conservative: anything not recognised here (an unknown path, a body that is not the
expected JSON) is treated as depending on everything.

- ``all``: every answer other than a single venue, organizer, category, tag or event by id:
  lists of every kind (their items, order and totals change with nearly any write), the
  by-slug routes, the index, the documentation and the feed. Every change retires them, but
  a new event only those that may show it.
- ``shows-events``: the answers tagged ``all`` that a new event can change: all but the
  venue, organizer, category and tag lists and by-slug routes (a new event's own rows change
  none of them; the terms whose counts it moves are journaled apart), except the venue and
  organizer lists that filter by their events (``has_events``, ``only_with_upcoming``,
  ``event``). Of these, a new event
  keeps the event lists whose filters leave it out (``NewEvents``).
- ``<kind>:<id>``: a single record's own answer (a term's carries its stored count, which
  the journal reports as an update of the term when it moves).
- ``embeds:<kind>:<id>``: a single event embedding that venue, organizer, category or tag.
- ``category:*``: every single category's answer, retired by a change to any category: its
  ``url`` is the path of its ancestors' slugs, so renaming, moving or deleting one changes
  the answers of all below it (which the journal does not name).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from datetime import date
from typing import Any
from urllib.parse import parse_qsl

import attrs
import orjson

from ..changes import ANYTHING, Change
from ..queries import EVENT_SEARCH_FIELDS
from ..records import Event
from ..statuses import Status
from .params import bare_name

__all__ = [
    "ALL",
    "MARGIN_DAYS",
    "SHOWS_EVENTS",
    "Listing",
    "NewEvents",
    "Shown",
    "change_tags",
    "event_list",
    "read_tags",
]

ALL = "all"
SHOWS_EVENTS = "shows-events"
_ANY_CATEGORY = "category:*"
_KINDS = {
    "events": "event",
    "venues": "venue",
    "organizers": "organizer",
    "categories": "category",
    "tags": "tag",
}
_SINGLE = re.compile(r"/(events|venues|organizers|categories|tags)/(\d+)/?")
_EVENTS = re.compile(r"/events/?")
#: Answers of other kinds than events that show no event: their lists and by-slug routes.
_NO_EVENTS = re.compile(r"/(venues|organizers|categories|tags)(/by-slug/[^/]+)?/?")
#: Venue and organizer lists, and the filters of theirs that read events.
_LINKED_LIST = re.compile(r"/(venues|organizers)/?")
_EVENT_FILTERS = frozenset({"has_events", "only_with_upcoming", "event"})
#: A search this module can judge: one word of ASCII letters and digits, which a search
#: reads as that one word (stopwords included: a search of nothing else keeps it).
_WORD = re.compile(r"[A-Za-z0-9]{1,40}")
#: More than any zone's offset, in days: a window's dates are days in the calendar's zone,
#: an event's instants are in UTC. Days are compared as ordinals: a window may end on the last
#: day a date can hold, where a day more would overflow.
MARGIN_DAYS = 2


def event_list(path: str) -> bool:
    """Whether ``path`` (below the API root) is the event list."""
    return _EVENTS.fullmatch(path) is not None


def read_tags(path: str, body: bytes, query: str = "") -> frozenset[str]:
    """The tags of a 200 answer to an anonymous GET of ``path`` (below the API root) with
    the query string ``query``."""
    match = _SINGLE.fullmatch(path)
    if match is None:
        shows = _NO_EVENTS.fullmatch(path) is None or _asks_about_events(path, query)
        return frozenset({ALL, SHOWS_EVENTS} if shows else {ALL})
    kind, record = _KINDS[match[1]], int(match[2])
    own = f"{kind}:{record}"
    if kind == "category":
        return frozenset({own, _ANY_CATEGORY})
    if kind != "event":
        return frozenset({own})
    embedded = _linked(body)
    if embedded is None:
        return frozenset({ALL})
    return frozenset({own, *(f"embeds:{k}:{i}" for k, i in embedded)})


def _asks_about_events(path: str, query: str) -> bool:
    """Whether a venue or organizer list filters by the events that link to its records
    (``has_events``, ``only_with_upcoming``, ``event``): a new event linking one of them
    changes it, and the journal names no venue or organizer then."""
    if _LINKED_LIST.fullmatch(path) is None:
        return False
    names = {bare_name(name) for name, _ in parse_qsl(query, keep_blank_values=True)}
    return not names.isdisjoint(_EVENT_FILTERS)


def change_tags(changes: Iterable[Change], created: Collection[int]) -> frozenset[str] | None:
    """The tags the journal's ``changes`` retire (``None``: everything), leaving out the rows
    of the events in ``created``, new since the cache's cursor, which ``NewEvents``
    judges."""
    tags = set()
    for change in changes:
        if change.kind == ANYTHING:
            return None
        if change.kind == "event" and change.record_id in created:
            continue
        own = f"{change.kind}:{change.record_id}"
        tags |= {ALL, own} if change.kind == "event" else {ALL, own, f"embeds:{own}"}
        if change.kind == "category":
            tags.add(_ANY_CATEGORY)
    return frozenset(tags)


@attrs.frozen(cache_hash=True)
class Listing:
    """What ``NewEvents`` reads of an event list's query string, parsed once, when the
    answer is kept: a catch-up judges the kept lists that may show a new event
    (``listing_index``) against each of them."""

    word: str  # a one-word search this module can judge, lower-cased, or ""
    venues: frozenset[int]
    organizers: frozenset[int]
    terms: bool  # a category or tag filter naming ids
    first: date | None  # an absolute start_date
    last: date | None  # an absolute end_date

    @classmethod
    def of(cls, query: str) -> Listing:
        raw: dict[str, list[str]] = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            raw.setdefault(bare_name(name), []).append(value)
        asked = {
            name: [v for value in values for v in value.split(",")] for name, values in raw.items()
        }
        word = raw["search"][0].strip() if len(raw.get("search", [])) == 1 else ""
        # With ``include`` the date filters are ignored (``listing.event_filter``): no window.
        dated = "include" not in raw
        return cls(
            word=word.lower() if _WORD.fullmatch(word) else "",
            venues=_positive_ids(asked.get("venue", [])),
            organizers=_positive_ids(asked.get("organizer", [])),
            terms=any(_positive_ids(asked.get(name, [])) for name in ("categories", "tags")),
            first=_day(asked.get("start_date")) if dated else None,
            last=_day(asked.get("end_date")) if dated else None,
        )


class NewEvents:
    """Events new since the cache's cursor (as stored now), as the event lists' filters read
    them: called with an event list's query (``Listing``), whether that list certainly shows
    none of them, so its answer is as it was. A list leaves an event out when it is not
    published (anonymous lists show no other), or a venue, organizer or term filter names none
    of its links, an absolute window ends days before it starts or starts days after it ends,
    or a one-word search is in none of its texts (a search matches substrings of the title,
    excerpt and description, ``queries``). What else the new events changed (their terms'
    counts) the journal reports apart.

    Verdicts are kept: a catch-up judges in its worker thread the lists worth asking
    (``listing_index``), and the event loop, where the cache applies them, only looks them up.
    """

    def __init__(self, shown: Iterable[Shown]) -> None:
        self.shown = tuple(shown)
        self._verdicts: dict[Listing, bool] = {}

    @classmethod
    def of(cls, created: Sequence[Event]) -> NewEvents:
        """The new events an anonymous list may show: the published ones."""
        return cls(Shown.of(event) for event in created if event.status is Status.PUBLISH)

    def __call__(self, listing: Listing) -> bool:
        found = self._verdicts.get(listing)
        if found is None:
            found = self._verdicts[listing] = all(e.left_out(listing) for e in self.shown)
        return found


@attrs.frozen
class Shown:
    """What an event list's filters read of a new event: its UTC days, links and text."""

    starts: date
    ends: date
    venues: frozenset[int]
    organizers: frozenset[int]
    terms: bool
    text: str

    @classmethod
    def of(cls, event: Event) -> Shown:
        texts = "\n".join(str(getattr(event, name)) for name in EVENT_SEARCH_FIELDS)
        return cls(
            starts=event.utc_start_date.date(),
            ends=event.utc_end_date.date(),
            venues=frozenset(event.venue),
            organizers=frozenset(event.organizer),
            terms=bool(event.categories or event.tags),
            text=_folded(texts),
        )

    def left_out(self, listing: Listing) -> bool:
        if listing.word and listing.word not in self.text:
            return True
        if listing.venues and not listing.venues & self.venues:
            return True
        if listing.organizers and not listing.organizers & self.organizers:
            return True
        if listing.terms and not self.terms:
            return True  # a term filter shows only events with terms (child terms included)
        first, last = listing.first, listing.last
        return (first is not None and first.toordinal() - self.ends.toordinal() > MARGIN_DAYS) or (
            last is not None and self.starts.toordinal() - last.toordinal() > MARGIN_DAYS
        )


def _folded(text: str) -> str:
    """Text as a one-word search (ASCII letters and digits, ``_WORD``) can find in it:
    lower-cased, decomposed (``é`` is ``e`` and an accent), and with every character that is
    not ASCII left out, so that no database's folding can find a word this text lacks.
    Leaving characters out only joins what was apart, so it finds every word the text holds
    and perhaps more: a list kept for nothing is rebuilt, never one kept stale.

    Each step is one pass in C: an event of megabytes is judged in milliseconds, while every
    cached read waits for the catch-up that judges it."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii").lower()


def _positive_ids(values: list[str]) -> frozenset[int]:
    """The ids a filter asks for, or none at all unless every value is a positive id."""
    stripped = [v.strip() for v in values]
    if not stripped or not all(v.isdigit() and int(v) > 0 for v in stripped):
        return frozenset()
    return frozenset(int(v) for v in stripped)


def _day(values: list[str] | None) -> date | None:
    if not values or len(values) != 1:
        return None
    try:
        return date.fromisoformat(values[0].strip()[:10])
    except ValueError:
        return None


def _json(body: bytes) -> Any:
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def _linked(body: bytes) -> set[tuple[str, int]] | None:
    """The (kind, id) of every venue, organizer, category and tag an event answer embeds;
    ``None`` when the body is not an event."""
    data = _json(body)
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        return None
    found: set[tuple[str, int]] = set()
    for field, kind in (
        ("venue", "venue"),
        ("organizer", "organizer"),
        ("categories", "category"),
        ("tags", "tag"),
    ):
        value = data.get(field, [])
        items = value if isinstance(value, list) else [value]
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("id"), int):
                return None
            found.add((kind, item["id"]))
    return found
