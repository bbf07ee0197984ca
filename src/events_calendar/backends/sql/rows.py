"""Records from rows of our own tables, by a reader generated once per record class.

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
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import attrs

from ...converters import NOT_STORED
from ...dates import resolve_zone
from ...records import Credential, Event, Record, User

__all__ = ["RecordFromRow", "record_reader"]

#: What a reader builds: a calendar record, or a user or credential (read at every sign-in).
R = TypeVar("R", bound=Record | User | Credential)
RecordFromRow = Callable[[dict[str, Any]], R]

#: Fields read in the event's own zone (the row holds them with their UTC offset).
_ZONED = frozenset({"start_date", "end_date"})


def _datetime(value: Any) -> datetime:
    return datetime.fromisoformat(value) if value.__class__ is str else value


def _expression(name: str, annotation: Any, zoned: bool) -> str:
    """Python source reading field ``name`` from ``row`` as its annotation needs."""
    value = f"row[{name!r}]"
    if annotation is datetime:
        return f"_datetime({value}).astimezone(zone)" if zoned else f"_datetime({value})"
    if annotation is bool:
        return f"bool({value})"
    return value  # text, ids and links as stored; enums and tuples by the class's converters


def record_reader(cls: type[R]) -> RecordFromRow[R]:
    """A function building a ``cls`` record from one row (with an event's link lists)."""
    hints = typing.get_type_hints(cls)
    fields = [f for f in attrs.fields(cls) if f.init and f.name not in NOT_STORED]
    zoned = cls is Event
    arguments = ", ".join(
        f"{f.name}={_expression(f.name, hints[f.name], zoned and f.name in _ZONED)}" for f in fields
    )
    extra = [f.name for f in attrs.fields(cls) if f.init and f.name in NOT_STORED]
    lines = [f"def read_{cls.__name__}(row):"]
    if zoned:
        lines.append("    zone = zone_of(row['timezone'])")
    if extra:  # read-time values (a term's count) when the row has them
        lines.append(f"    more = {{k: row[k] for k in {tuple(extra)!r} if k in row}}")
        lines.append(f"    return cls({arguments}, **more)")
    else:
        lines.append(f"    return cls({arguments})")
    namespace: dict[str, Any] = {"cls": cls, "_datetime": _datetime, "zone_of": resolve_zone}
    exec(compile("\n".join(lines), f"<row reader {cls.__name__}>", "exec"), namespace)  # noqa: S102
    reader: RecordFromRow[R] = namespace[f"read_{cls.__name__}"]
    return reader
