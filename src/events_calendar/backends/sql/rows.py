"""Records from rows of our own tables, by a reader generated once per record class and
list of columns, which reads each value where the row holds it (no dict per row).

A row read back from the store holds values the store wrote from a valid record, so reading
it needs only the conversions its column types imply, not the generic structuring (and
checking) of untrusted data: stored datetimes are ISO 8601 text, booleans may come back as
integers (SQLite), an event's wall-clock dates are re-attached to its own zone. Everything
else (status strings to ``Status``, link lists to tuples, the derived fields) is the record
class's own declaration: its converters and its derived fields' factories, as for any record.

The reader fills the record's fields itself, in the order and with the converters and
factories its attrs ``__init__`` uses (``_direct``), rather than calling that ``__init__``
with a keyword per field: parsing some thirty keywords, and looking a status up through
``Enum.__call__``, were a fifth of what building an event cost (1.5 of 7.2 µs), and whole-
query iteration builds a million of them. A class whose ``__init__`` does more than that
(a validator, a pre- or post-init hook, a converter on a derived field) is built by calling
it, as before (``_direct_allowed``).

The storage converter (``converters.make_storage_converter``) states the same mapping for
any input; ``tests/test_sql_rows.py`` checks that both build equal records from the same rows,
and that the fields filled directly equal what ``__init__`` makes of the same values.
"""

from __future__ import annotations

import enum
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


def _expression(value: str, annotation: Any, zoned: bool) -> str:
    """Python source reading a column's ``value`` as its field's annotation needs."""
    if annotation is datetime:
        # Stored as ISO text; a driver that hands back datetimes keeps them as they are.
        read = f"(_fromiso({value}) if {value}.__class__ is str else {value})"
        return f"{read}.astimezone(zone)" if zoned else read
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
    given: dict[str, str] = {}  # field -> Python source of its value, for the init fields read
    for field in attrs.fields(cls):
        if not field.init:
            continue
        if field.name in links:
            given[field.name] = f"links[{links.index(field.name)}].get(row[{at['id']}], ())"
        elif field.name not in NOT_STORED:
            annotation, is_zoned = hints[field.name], zoned and field.name in _ZONED
            given[field.name] = _expression(f"row[{at[field.name]}]", annotation, is_zoned)
        elif field.name in at:  # a read-time value (a term's count) the statement selected
            given[field.name] = f"row[{at[field.name]}]"
    namespace: dict[str, Any] = {
        "cls": cls,
        "_fromiso": datetime.fromisoformat,
        "zone_of": resolve_zone,
        "_new": object.__new__,
        "_setattr_of": object.__setattr__.__get__,
    }
    lines = [f"def read_{cls.__name__}(row, links):"]
    if zoned:
        lines.append(f"    zone = zone_of(row[{at['timezone']}])")
    if _direct_allowed(cls):
        lines += _direct(cls, given, namespace)
    else:
        lines.append(f"    return cls({', '.join(f'{k}={v}' for k, v in given.items())})")
    exec(compile("\n".join(lines), f"<row reader {cls.__name__}>", "exec"), namespace)  # noqa: S102
    reader: RecordFromRow[R] = namespace[f"read_{cls.__name__}"]
    return reader


def _direct_allowed(cls: type) -> bool:
    """Whether attrs' ``__init__`` of ``cls`` only sets each field, converted or made by its
    factory, in ``attrs.fields`` order: what ``_direct`` repeats."""
    hooks = ("__attrs_pre_init__", "__attrs_post_init__")
    cached_hash = "_attrs_cached_hash" in getattr(cls, "__slots__", ())  # __init__ resets it
    return (
        not cached_hash
        and not any(hasattr(cls, hook) for hook in hooks)
        and all(
            field.validator is None
            and not isinstance(field.converter, attrs.Converter)  # one taking self or the fields
            and (field.init or field.converter is None)
            and (field.init or field.default is not attrs.NOTHING)  # __init__ leaves it unset
            for field in attrs.fields(cls)
        )
    )


def _direct(cls: type, given: Mapping[str, str], namespace: dict[str, Any]) -> list[str]:
    """Lines that build the record as its attrs ``__init__`` would from ``given``: each
    field set in turn on a new instance, through its converter (an enum's by a lookup of
    its members, the converter itself for any other value) or its factory."""
    lines = ["    self = _new(cls)", "    _set = _setattr_of(self)"]
    for n, field in enumerate(attrs.fields(cls)):
        value = given.get(field.name)
        if value is None:  # the field's default, as __init__ makes it
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                namespace[f"_factory{n}"] = default.factory
                value = f"_factory{n}({'self' if default.takes_self else ''})"
            else:
                namespace[f"_default{n}"] = default
                value = f"_default{n}"
        converter = field.converter
        if converter is not None:
            namespace[f"_convert{n}"] = converter
            if isinstance(converter, type) and issubclass(converter, enum.Enum):
                namespace[f"_members{n}"] = dict(converter._value2member_map_)
                lines.append(f"    value = {value}")
                value = f"_members{n}[value] if value in _members{n} else _convert{n}(value)"
            else:
                value = f"_convert{n}({value})"
        lines.append(f"    _set({field.name!r}, {value})")
    lines.append("    return self")
    return lines
