"""What a cached answer depends on, and what a write through this process can change.

Both are sets of tags (strings); a write retires every cached answer sharing a tag with it
(``cache.ResponseCache.wrote``). The rules are conservative: anything not recognised here
(an unknown path, a body that is not the expected JSON) is treated as depending on, or
changing, everything.

- ``all``: every answer other than a single venue, organizer, category, tag or event by id:
  lists of every kind (their items, order and totals change with nearly any write), the
  by-slug routes, the index, the documentation and the feed. Every write retires them.
- ``<kind>:<id>``: a single record's own answer.
- ``counts``: a single category or tag, whose ``count`` moves with event writes.
- ``embeds:<kind>:<id>``: a single event embedding that venue, organizer, category or tag;
  ``embeds:terms``: a single event embedding any category or tag (an embedded term carries
  its ``count``, which an update or delete of any event in it may change).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any
from urllib.parse import parse_qsl

__all__ = ["ALL", "event_list", "read_tags", "spared_lists", "write_tags"]

ALL = "all"
_COUNTS = "counts"
_ANY_TERM = "embeds:terms"
_KINDS = {
    "events": "event",
    "venues": "venue",
    "organizers": "organizer",
    "categories": "category",
    "tags": "tag",
}
_SINGLE = re.compile(r"/(events|venues|organizers|categories|tags)/(\d+)/?")
_COLLECTION = re.compile(r"/(events|venues|organizers|categories|tags)/?")
_EVENTS = re.compile(r"/events/?")
#: A search this module can judge: one word of ASCII letters and digits, which a search
#: reads as that one word (stopwords included: a search of nothing else keeps it).
_WORD = re.compile(r"[A-Za-z0-9]{1,40}")
#: More than any zone's offset: a window's dates are days in the calendar's zone, an event's
#: answer gives its times in UTC.
_MARGIN = timedelta(days=2)


def event_list(path: str) -> bool:
    """Whether ``path`` (below the API root) is the event list."""
    return _EVENTS.fullmatch(path) is not None


def read_tags(path: str, body: bytes) -> frozenset[str]:
    """The tags of a 200 answer to an anonymous GET of ``path`` (below the API root)."""
    match = _SINGLE.fullmatch(path)
    if match is None:
        return frozenset({ALL})
    kind, record = _KINDS[match[1]], int(match[2])
    own = f"{kind}:{record}"
    if kind in ("category", "tag"):
        return frozenset({own, _COUNTS})
    if kind != "event":
        return frozenset({own})
    embedded = _linked(body)
    if embedded is None:
        return frozenset({ALL})
    tags = {own, *(f"embeds:{k}:{i}" for k, i in embedded)}
    if any(k in ("category", "tag") for k, _ in embedded):
        tags.add(_ANY_TERM)
    return frozenset(tags)


def write_tags(method: str, path: str, body: bytes) -> frozenset[str] | None:
    """The tags a successful write (``method`` on ``path``, answered ``body``) may have
    changed; ``None`` when that cannot be told (everything is retired then)."""
    single, collection = _SINGLE.fullmatch(path), _COLLECTION.fullmatch(path)
    if single is None and (collection is None or method != "POST"):
        return None
    kind = _KINDS[(single or collection)[1]]  # type: ignore[index]
    data = _json(body)
    record = int(single[2]) if single else data.get("id") if isinstance(data, dict) else None
    if not isinstance(record, int) or isinstance(record, bool):
        return None
    tags = {ALL, f"{kind}:{record}"}
    if kind in ("category", "tag"):  # counts, parents and embedded copies all may move
        return frozenset(tags | {_COUNTS, _ANY_TERM, f"embeds:{kind}:{record}"})
    if kind != "event":
        return frozenset(tags | {f"embeds:{kind}:{record}"})
    linked = _linked(body)
    if linked is None:
        return None
    # The event's linked records, as the write left them: an event write may create or edit
    # them inline. Its terms' counts move; on an update or delete, so may those of the terms
    # it had before, which the answer does not name.
    tags |= {_COUNTS, *(f"{k}:{i}" for k, i in linked), *(f"embeds:{k}:{i}" for k, i in linked)}
    if single is not None:
        tags.add(_ANY_TERM)
    return frozenset(tags)


def spared_lists(method: str, path: str, body: bytes) -> Callable[[str], bool] | None:
    """For an event created with no category or tag (no term's count moves, and an event
    write never edits an existing venue or organizer), whether an event list with a given
    query string certainly leaves the new event out, so its answer is as it was; ``None``
    for every other write (no list is spared). A list leaves it out when a venue, organizer
    or term filter names none of its links, an absolute window ends days before it starts or
    starts days after it ends, or a one-word search is in none of its texts (a search
    matches substrings of the title, excerpt and description, ``queries``)."""
    data = _json(body)
    if method != "POST" or not event_list(path) or not isinstance(data, dict):
        return None
    linked = _linked(body)
    if linked is None or any(kind in ("category", "tag") for kind, _ in linked):
        return None
    try:
        starts = date.fromisoformat(str(data["utc_start_date"])[:10])
        ends = date.fromisoformat(str(data["utc_end_date"])[:10])
    except (KeyError, ValueError):
        return None
    venues = {i for k, i in linked if k == "venue"}
    organizers = {i for k, i in linked if k == "organizer"}
    text = _searched_text(data)

    def spared(query: str) -> bool:
        raw: dict[str, list[str]] = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            raw.setdefault(name.removesuffix("[]"), []).append(value)
        asked = {
            name: [v for value in values for v in value.split(",")] for name, values in raw.items()
        }
        ids = {name: _positive_ids(values) for name, values in asked.items()}
        word = raw["search"][0].strip() if len(raw.get("search", [])) == 1 else ""
        if text is not None and _WORD.fullmatch(word) and word.lower() not in text:
            return True
        if ids.get("venue") and not ids["venue"] & venues:
            return True
        if ids.get("organizer") and not ids["organizer"] & organizers:
            return True
        if ids.get("categories") or ids.get("tags"):
            return True  # the new event has none
        first, last = _day(asked.get("start_date")), _day(asked.get("end_date"))
        return (first is not None and ends < first - _MARGIN) or (
            last is not None and starts > last + _MARGIN
        )

    return spared


def _searched_text(data: dict[str, Any]) -> str | None:
    """An event's title, excerpt and description as a search reads them (lower-cased,
    ``queries.fold``), with accents also taken off so that no database's folding can find a
    word this text lacks; ``None`` if the answer does not carry them."""
    fields = [data.get(name) for name in ("title", "excerpt", "description")]
    if not all(isinstance(field, str) for field in fields):
        return None
    decomposed = unicodedata.normalize("NFKD", "\n".join(map(str, fields)).lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _positive_ids(values: list[str]) -> set[int]:
    """The ids a filter asks for, or none at all unless every value is a positive id."""
    stripped = [v.strip() for v in values]
    if not stripped or not all(v.isdigit() and int(v) > 0 for v in stripped):
        return set()
    return {int(v) for v in stripped}


def _day(values: list[str] | None) -> date | None:
    if not values or len(values) != 1:
        return None
    try:
        return date.fromisoformat(values[0].strip()[:10])
    except ValueError:
        return None


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
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
