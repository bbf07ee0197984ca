"""Whether an import row would change the record it matched, found without writing.

``Comparer.changed_fields`` reads a row's cleaned input (``validation.read_input``) against
the stored record: plain fields by value; dates as the event would store them (zone, all-day
span), by their instant; categories and tags by the terms the names resolve to; venues and
organizers given inline by the record the calendar would reuse for them (same name ignoring
case, and every given field equal), so re-importing a file the calendar exported reports its
rows as unchanged.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..dates import to_utc
from ..lookups import term_ids
from ..records import Event, Kind, Organizer, Record, Venue
from ..statuses import Status

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["DATE_FIELDS", "Comparer"]

#: Fields that decide an event's span together: one changed means all are sent.
DATE_FIELDS = ("start_date", "end_date", "timezone", "all_day")
_TERMS: dict[str, Kind] = {"categories": "category", "tags": "tag"}
_LINKED: dict[str, type[Venue | Organizer]] = {"venue": Venue, "organizer": Organizer}
#: Fields a re-used venue or organizer is not compared on (as ``LinkedCollection.create``).
_NOT_COMPARED = frozenset({"author", "status", "date"})


class Comparer:
    """Compares rows of one import with their records; remembers what names resolve to, so
    a file that names one venue a thousand times asks storage once."""

    def __init__(self, cal: Calendar) -> None:
        self._cal = cal
        self._terms: dict[tuple[Kind, str], int | None] = {}
        self._linked: dict[tuple[Kind, str], int | None] = {}

    def changed_fields(
        self, record: Record, clean: Mapping[str, Any], *, one_of: Collection[str] = ()
    ) -> list[str]:
        """The names of the fields of ``clean`` whose value differs from ``record``'s.

        ``one_of`` names the links the row's format holds one of at most
        (``SourceRow.one_of``): one that is already among the record's is no change."""
        changed = [
            name
            for name, value in clean.items()
            if self._differs(record, name, value, one_of=name in one_of)
        ]
        if isinstance(record, Event) and any(name in DATE_FIELDS for name in clean):
            span = self._cal.events._span(clean, record)
            if any(_differ(span[name], getattr(record, name)) for name in span):
                changed += [name for name in DATE_FIELDS if name in clean]
        return list(dict.fromkeys(changed))

    def _differs(self, record: Record, name: str, value: Any, *, one_of: bool) -> bool:
        current = getattr(record, name)
        if isinstance(record, Event):
            if name in DATE_FIELDS:
                return False  # compared as a span above
            if name in _TERMS:
                return self._term_ids(_TERMS[name], value) != set(current)
            if name in _LINKED:
                linked = self._linked_ids(_LINKED[name], value)
                if one_of and len(linked) == 1 and linked[0] in current:
                    return False
                return linked != tuple(current)
        if name == "status":
            return bool(Status(value) != current)
        differs: bool = current != value
        return differs

    def _term_ids(self, kind: Kind, items: list[int | str]) -> set[int | None]:
        names = [item for item in items if isinstance(item, str)]
        missing = [name for name in names if (kind, name) not in self._terms]
        if missing:
            found = term_ids(self._cal.backend, kind, missing)
            self._terms.update({(kind, name): found.get(name) for name in missing})
        return {item if isinstance(item, int) else self._terms[kind, item] for item in items}

    def _linked_ids(
        self, cls: type[Venue | Organizer], items: list[int | dict[str, Any]]
    ) -> tuple[int | None, ...]:
        """The ids the items would link to: ``None`` for one that would be a new record."""
        return tuple(
            dict.fromkeys(
                item if isinstance(item, int) else self._reused(cls, item) for item in items
            )
        )

    def _reused(self, cls: type[Venue | Organizer], data: Mapping[str, Any]) -> int | None:
        key = (cls.kind, repr(sorted(data.items())))
        if key not in self._linked:
            self._linked[key] = _reused(self._cal, cls, data)
        return self._linked[key]


def _differ(given: Any, current: Any) -> bool:
    """Whether a span's value differs from the record's: dates by their instant, since two
    datetimes of one zone compare by wall clock alone (01:30 EDT equals 01:30 EST)."""
    if isinstance(given, datetime) and isinstance(current, datetime):
        return to_utc(given) != to_utc(current)
    return bool(given != current)


def _reused(cal: Calendar, cls: type[Venue | Organizer], data: Mapping[str, Any]) -> int | None:
    """The record ``LinkedCollection.create`` would return for ``data`` (``None``: a new one)."""
    backend = cal.backend
    name = data[cls.title_field]
    compared = {k: v for k, v in data.items() if k != cls.title_field and k not in _NOT_COMPARED}
    ids = backend.find_names(cls.kind, [name]).get(name, [])
    for record in backend.get_many(cls, ids).values():
        if record.status != Status.TRASH and all(
            getattr(record, k, None) == v for k, v in compared.items()
        ):
            return record.id
    return None
