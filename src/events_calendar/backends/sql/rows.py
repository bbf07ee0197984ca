"""Records from rows of our own tables, by a reader generated once per record class and
list of columns, which reads each value where the row holds it (no dict per row).

A row read back from the store holds values the store wrote from a valid record, so reading
it needs only the conversions its column types imply, not the generic structuring (and
checking) of untrusted data: stored datetimes are ISO 8601 text, booleans may come back as
integers (SQLite), an event's wall-clock dates are re-attached to its own zone. Everything
else (status strings to ``Status``, link lists to tuples, the derived fields) is the record
class's own ``__init__`` work, as for any record.

The storage converter (``converters.make_storage_converter``) states the same mapping for
any input; ``tests/test_sql_rows.py`` checks that both build equal records from the same rows.
Reading a page of events with the generated reader takes a fraction of the generic one's time,
which is most of what whole-query iteration spends outside the database.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import attrs

from ...converters import NOT_STORED
from ...dates import resolve_zone
from ...records import Credential, Event, Record, User
from .schema import link_fields

__all__ = ["Links", "RecordFromRow", "record_reader"]

#: What a reader builds: a calendar record, or a user or credential (read at every sign-in).
R = TypeVar("R", bound=Record | User | Credential)
#: An event's link lists, one map per link field (``schema.link_fields(Event)`` order) from
#: event id to the linked ids in their stored order; ``None`` for a record without links.
Links = Sequence[Mapping[int, Sequence[int]]] | None
RecordFromRow = Callable[[Sequence[Any], Links], R]

#: Fields read in the event's own zone (the row holds them with their UTC offset).
_ZONED = frozenset({"start_date", "end_date"})


def _datetime(value: Any) -> datetime:
    return datetime.fromisoformat(value) if value.__class__ is str else value


def _expression(value: str, annotation: Any, zoned: bool) -> str:
    """Python source reading a column's ``value`` as its field's annotation needs."""
    if annotation is datetime:
        return f"_datetime({value}).astimezone(zone)" if zoned else f"_datetime({value})"
    if annotation is bool:
        return f"bool({value})"
    return value  # text, ids and links as stored; enums and tuples by the class's converters


def record_reader(cls: type[R], columns: Sequence[str]) -> RecordFromRow[R]:
    """A function building a ``cls`` record from one row of ``columns`` (a statement's
    result, read by position: no dict per row) and, for an event, its ``Links``."""
    hints = typing.get_type_hints(cls)
    at = {name: n for n, name in enumerate(columns)}
    zoned = cls is Event
    links = link_fields(Event) if cls is Event else []
    arguments = [
        f"{f.name}={_expression(f'row[{at[f.name]}]', hints[f.name], zoned and f.name in _ZONED)}"
        for f in attrs.fields(cls)
        if f.init and f.name not in NOT_STORED and f.name not in links
    ]
    arguments += [f"{name}=links[{n}].get(row[{at['id']}], ())" for n, name in enumerate(links)]
    # Read-time values (a term's count) when the statement selected them.
    arguments += [
        f"{f.name}=row[{at[f.name]}]"
        for f in attrs.fields(cls)
        if f.init and f.name in NOT_STORED and f.name in at
    ]
    lines = [f"def read_{cls.__name__}(row, links):"]
    if zoned:
        lines.append(f"    zone = zone_of(row[{at['timezone']}])")
    lines.append(f"    return cls({', '.join(arguments)})")
    namespace: dict[str, Any] = {"cls": cls, "_datetime": _datetime, "zone_of": resolve_zone}
    exec(compile("\n".join(lines), f"<row reader {cls.__name__}>", "exec"), namespace)  # noqa: S102
    reader: RecordFromRow[R] = namespace[f"read_{cls.__name__}"]
    return reader
