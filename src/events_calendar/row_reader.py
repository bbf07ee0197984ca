"""Reading a bulk load's rows a batch at a time, a column at a time: ``RowReader``.

Validation is defined once, by ``validation.read_input`` and its readers; this module only
changes the order the same work is done in, so that what rows of one load repeat is done
once and what they do not is done in tight loops rather than field by field, row by row:

- rows are grouped by the set of field names they send, and each set is checked (unknown
  fields, required ones) once;
- a group is read a column at a time: every value of one field through the field's reader
  (``validation._values``), dates per time zone, the rows' own zone read first;
- a field whose values repeat (statuses, zones, venues, categories, costs) is read once per
  distinct value (and zone, for dates) for the whole load: a reader's answer depends only on
  the value, the zone and the lookup, whose answers are fixed for the pass (give the reader a
  ``Context.remembering()`` lookup). A field whose values rarely repeat (titles,
  descriptions, start dates) stops being remembered once ``MEMO_TRIAL`` values show it, and
  any field after ``MEMO_LIMIT`` distinct values, so memory stays bounded;
- a batch the shortcut cannot take whole (any problem in any row, a publication date, a
  required field sent as ``None``) is not read at all (``read_batch`` answers ``None``): the
  caller reads its rows one by one with ``read``, which hands a row the shortcut refuses to
  ``read_input`` itself, so a bad row's error is the slow path's, word for word, and the
  first bad row is the first one reported.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from datetime import tzinfo
from typing import Any, cast

from .coerce import clean_text, plain_fields
from .dates import resolve_zone
from .errors import InvalidParameter
from .records import Input, Record, input_fields
from .validation import Lookup, _clean, _Invalid, _Reader, _values, read_input

__all__ = ["RowReader"]

_Shape = tuple[tuple[str, Input, bool], ...]


class RowReader:
    """Reads many rows of one record class, each exactly as ``read_input`` reads it, faster
    (see the module's docstring)."""

    #: Distinct values remembered per field before the field is read afresh for every row.
    MEMO_LIMIT = 20_000
    #: Values of a field read before deciding whether it repeats enough to be remembered:
    #: it stays remembered only if fewer than half of them were distinct.
    MEMO_TRIAL = 1_000

    def __init__(self, cls: type[Record], lookup: Lookup, *, creating: bool) -> None:
        self._cls, self._lookup, self._creating = cls, lookup, creating
        self._fields = input_fields(cls)
        self._reader = _Reader(lookup, lookup.zone, rest_booleans=cls.kind == "event")
        self._shapes: dict[tuple[str, ...], _Shape | None] = {}
        self._memos: dict[str, dict[Hashable, Any] | None] = {name: {} for name in self._fields}
        self._tried: dict[str, int] = dict.fromkeys(self._fields, 0)  # values looked up
        self._zones: dict[str, tzinfo] = {}

    def read(self, data: Mapping[str, Any], zone: tzinfo | None = None) -> dict[str, Any]:
        """``read_input(cls, data, lookup, creating=..., zone=zone)``, the same answer or
        error."""
        batch = self.read_batch([data], None if zone is None else [zone])
        if batch is None:
            return read_input(self._cls, data, self._lookup, creating=self._creating, zone=zone)
        return batch[0]

    def read_batch(
        self, rows: Sequence[Mapping[str, Any]], zones: Sequence[tzinfo] | None = None
    ) -> list[dict[str, Any]] | None:
        """Every row as ``read`` reads it (with its zone of ``zones``, the zone its dates are
        read in when it names none: an updated record's own), or ``None`` when any row is not
        for the shortcut (then read them one by one with ``read``)."""
        datas = [plain_fields(row) for row in rows]  # numpy, NaN ... as read_input reads them
        given = [self._lookup.zone] * len(datas) if zones is None else list(zones)
        groups: dict[tuple[str, ...], list[int]] = {}
        for number, data in enumerate(datas):
            groups.setdefault(tuple(data), []).append(number)
        read: list[dict[str, Any]] = [{} for _ in datas]
        try:
            for names, members in groups.items():
                group = [datas[number] for number in members]
                own = [given[number] for number in members]
                for number, clean in zip(members, self._group(names, group, own), strict=True):
                    read[number] = clean
        except (_Slow, _Invalid, InvalidParameter):
            return None
        return read

    def _group(
        self, names: tuple[str, ...], rows: list[dict[str, Any]], zones: list[tzinfo]
    ) -> list[dict[str, Any]]:
        """Rows that send exactly ``names``, in these zones unless they name one, read a
        column at a time."""
        if names not in self._shapes:
            self._shapes[names] = self._shape(names)
        shape = self._shapes[names]
        if shape is None:
            raise _Slow
        columns: list[list[Any]] = []
        for name, kind, required in shape:
            column = [row[name] for row in rows]
            if required and any(value is None for value in column):
                raise _Slow
            read = self._column(name, kind, column, zones)
            columns.append(read)
            if kind is Input.ZONE:
                zones = [self._zone(zone) for zone in read]
        order = [name for name, _, _ in shape]
        return [dict(zip(order, values, strict=True)) for values in zip(*columns, strict=True)]

    def _shape(self, names: tuple[str, ...]) -> _Shape | None:
        """The fields of rows sending exactly ``names`` (the zone first, as ``read_input``
        reads it first), or ``None`` when such rows take the slow path."""
        fields = self._fields
        if "date" in names or any(name not in fields for name in names):
            return None
        if self._creating and any(f.required and n not in names for n, f in fields.items()):
            return None
        ordered = sorted(names, key=lambda name: name != "timezone")
        return tuple((n, fields[n].input, fields[n].required) for n in ordered)

    def _column(self, name: str, kind: Input, column: list[Any], zones: list[tzinfo]) -> list[Any]:
        """Every value of one field read, remembered ones looked up."""
        memo = self._memos[name]
        if memo is None:
            return self._fresh(name, kind, column, zones)
        # Texts are their own key (no other type equals a text); see ``_memo_key``.
        keys = [value if type(value) is str else _memo_key(value) for value in column]
        if any(key is None for key in keys):
            return self._fresh(name, kind, column, zones)
        if kind is Input.DATETIME:
            keys = [(zone, key) for zone, key in zip(zones, keys, strict=True)]
        new = {key: at for at, key in enumerate(keys) if key not in memo}
        if new:
            at = list(new.values())
            fresh = self._fresh(name, kind, [column[i] for i in at], [zones[i] for i in at])
            for key, value in zip(new, fresh, strict=True):
                memo[key] = list(value) if type(value) is list else value
        read = [memo[key] for key in keys]
        tried = self._tried[name] = self._tried[name] + len(column)
        if len(memo) > self.MEMO_LIMIT or (tried >= self.MEMO_TRIAL and len(memo) * 2 > tried):
            self._memos[name] = None  # too many, or mostly new values: no help remembering
        return [list(value) if type(value) is list else value for value in read]

    def _fresh(self, name: str, kind: Input, column: list[Any], zones: list[tzinfo]) -> list[Any]:
        """Values read by the field's reader, dates in their rows' zones."""
        if not _all_clean(column):
            raise _Slow
        reader, record_kind = self._reader, self._cls.kind
        if kind is not Input.DATETIME:
            return _values(reader, record_kind, kind, name, column)
        by_zone: dict[tzinfo, list[int]] = {}
        for at, zone in enumerate(zones):
            by_zone.setdefault(zone, []).append(at)
        read: list[Any] = [None] * len(column)
        for zone, positions in by_zone.items():
            reader.zone = zone
            values = _values(reader, record_kind, kind, name, [column[i] for i in positions])
            for at, value in zip(positions, values, strict=True):
                read[at] = value
        return read

    def _zone(self, name: str) -> tzinfo:
        zone = self._zones.get(name)
        if zone is None:
            zone = self._zones[name] = resolve_zone(name)
        return zone


class _Slow(Exception):
    """Internal: these rows are for ``read_input`` itself, one by one."""


def _all_clean(values: list[Any]) -> bool:
    """``validation._clean`` of every value; a column of texts is checked as one text (it is
    clean exactly when each of them is)."""
    if all(type(value) is str for value in values):
        return clean_text("".join(values))
    return all(_clean(value) for value in values)


#: Value types a reader's answer may be remembered for: immutable, and equal only to values
#: of their own type (``1``, ``True`` and ``1.0`` are equal keys, so the type is part of it).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _memo_key(value: object) -> Hashable | None:
    """What identifies ``value`` for a reader, or ``None`` when it cannot be remembered: a
    plain value, or a list, tuple or object (a venue given inline, ``{"venue": "Hall"}``)
    of them; objects may sit in a list (``[{"organizer": "Jane"}]``)."""
    kind = type(value)
    if kind in _PLAIN:
        return (kind, value)
    if kind is dict:
        pairs = cast("dict[object, object]", value).items()
        if all(type(k) is str and type(v) in _PLAIN for k, v in pairs):
            return (kind, tuple(sorted((k, type(v), v) for k, v in pairs)))
        return None
    if kind is list or kind is tuple:
        keys: list[Hashable] = []
        for item in cast("list[object] | tuple[object, ...]", value):
            key = _memo_key(item) if type(item) in _PLAIN or type(item) is dict else None
            if key is None:
                return None
            keys.append(key)
        return (kind, tuple(keys))
    return None
