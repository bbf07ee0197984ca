"""The tables every SQL database holds, derived from the record declarations.

Columns come from the record classes (``converters.stored_fields``), so a field is declared
once. An event's links (venues, organizers, categories, tags) live in link tables, one per link
field of ``LINKS``, with a ``position`` so their order survives. Beside a record's own fields,
each table holds derived columns the indexes and filters read (``DERIVED``): the case-folded
display name, the UTC start and end as integer epoch seconds, the publication instant, a term's
stored count of counted events.

Each dialect's migrations create these tables from here; nothing else spells a column list.
"""

from __future__ import annotations

from types import UnionType
from typing import Any, get_args, get_origin, get_type_hints

import attrs

from ...converters import stored_fields
from ...records import RECORD_CLASSES, Event, Input, Kind, Record

__all__ = [
    "DERIVED",
    "LINKS",
    "LISTING_KEY",
    "TABLES",
    "Column",
    "Link",
    "column_names",
    "columns",
    "link_fields",
    "listing_key",
    "read_columns",
]

#: One table per record kind.
TABLES: dict[Kind, str] = {
    "event": "events",
    "venue": "venues",
    "organizer": "organizers",
    "category": "categories",
    "tag": "tags",
}


@attrs.frozen
class Link:
    """An event link field stored in its own table."""

    field: str  # the Event field ("venue", "organizer", "categories", "tags")
    table: str
    column: str  # the column naming the linked record
    target: Kind

    @property
    def listing_index(self) -> str:
        """The index of this link table in list order: its target, then the event's
        listing key (``LISTING_KEY``) with the event id beside its start."""
        return f"{self.table}_listing"


#: The one link map: event field -> where its links are stored.
LINKS: dict[str, Link] = {
    link.field: link
    for link in (
        Link("venue", "event_venues", "venue_id", "venue"),
        Link("organizer", "event_organizers", "organizer_id", "organizer"),
        Link("categories", "event_categories", "term_id", "category"),
        Link("tags", "event_tags", "term_id", "tag"),
    )
}

#: An event's listing key: the columns a list bounds and orders by (its status, whether it is
#: hidden from listings, its UTC start and end). Each link row keeps a copy of its event's,
#: kept in step by triggers, so that a list of one venue, organizer, category or tag walks an
#: index of that link table in list order (``Link.listing_index``) instead of every event.
LISTING_KEY = ("status", "hide_from_listings", "utc_start", "utc_end")


def listing_key(event: Event) -> tuple[str, bool, int, int]:
    """The values of ``LISTING_KEY`` for an event, as its row and its link rows store them."""
    return (
        event.status.value,
        event.hide_from_listings,
        int(event.utc_start_date.timestamp()),
        int(event.utc_end_date.timestamp()),
    )


#: Kind -> derived columns beside the record's fields (all integers but ``name_key``).
DERIVED: dict[Kind, tuple[str, ...]] = {
    "event": ("name_key", "utc_start", "utc_end", "published"),
    "venue": ("name_key", "published"),
    "organizer": ("name_key", "published"),
    "category": ("name_key", "count"),
    "tag": ("name_key", "count"),
}

_LINK_INPUTS = {Input.VENUES, Input.ORGANIZERS, Input.CATEGORIES, Input.TAGS}
_LINK_FIELDS: dict[type, list[str]] = {}
_COLUMN_NAMES: dict[type, list[str]] = {}


def link_fields(cls: type[Record]) -> list[str]:
    """The fields of a record class that are stored in link tables."""
    found = _LINK_FIELDS.get(cls)
    if found is None:
        found = _LINK_FIELDS[cls] = [
            f.name for f in attrs.fields(cls) if f.metadata.get("input") in _LINK_INPUTS
        ]
    return found


def read_columns(kind: Kind) -> list[str]:
    """What a read selects to build a record: its own columns, and a term's stored count
    (the other derived columns serve indexes and filters only)."""
    found = _READ_COLUMNS.get(kind)
    if found is None:
        found = _READ_COLUMNS[kind] = column_names(RECORD_CLASSES[kind]) + [
            name for name in DERIVED[kind] if name == "count"
        ]
    return found


_READ_COLUMNS: dict[Kind, list[str]] = {}


def column_names(cls: type[Record]) -> list[str]:
    """The columns holding a record's own fields, in declaration order."""
    found = _COLUMN_NAMES.get(cls)
    if found is None:
        links = set(link_fields(cls))
        found = _COLUMN_NAMES[cls] = [name for name in stored_fields(cls) if name not in links]
    return found


@attrs.frozen
class Column:
    """A stored column: its name, the Python type it holds, and whether it may be NULL."""

    name: str
    type: type
    nullable: bool = False


def _column(name: str, annotation: Any) -> Column:
    nullable = False
    if isinstance(annotation, UnionType) or get_origin(annotation) is not None:
        args = get_args(annotation)
        nullable = type(None) in args
        annotation = next((a for a in args if a is not type(None)), str)
    kind = annotation if annotation in (bool, int) else str
    return Column(name, kind, nullable)


def columns(kind: Kind) -> list[Column]:
    """Every column of a kind's table: the record's own fields, then the derived ones."""
    cls = RECORD_CLASSES[kind]
    hints = get_type_hints(cls)
    own = [_column(name, hints[name]) for name in column_names(cls)]
    derived = [Column(name, str if name == "name_key" else int) for name in DERIVED[kind]]
    return own + derived
