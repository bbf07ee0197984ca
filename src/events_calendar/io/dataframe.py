"""pandas DataFrames in and out of a calendar (the ``dataframe`` extra).

``to_dataframe`` streams a list query (``iter``) into typed columns: instants as UTC
``datetime64[ns, UTC]`` (an event's own zone in ``timezone``; ``datetime64[us, UTC]`` for a
column with an instant outside the years nanoseconds hold: ``_instants``), flags as ``bool``,
text as ``string``, an event's categories and tags as lists of names, its venue as
``venue_id`` and ``venue_name`` (the first, for the rare event with several: read back, a
``venue_id`` that is an event's first venue leaves all its venues as they are), its organizers
as ``organizer_ids`` and ``organizer_names``. Secrets (an event's password) are never exported.

``from_dataframe`` reads such a frame back (or any frame whose columns are ``create`` fields):
row by row, creating or updating, and reports what happened to each row. A cell that is
``None``, ``NaN`` or ``NaT`` is a missing value (the field is left out); numpy scalars become
Python values. Rows are matched to stored records by a key column (``key_columns``: ``id``,
``slug`` or a text field; see ``_Keyed``). ``rows_of`` gives the rows as ``create`` keyword
arguments, with the frame's length, which is how ``bulk_create`` takes a DataFrame.

pandas is imported only inside these functions: ``import events_calendar`` never loads it.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC
from enum import Enum
from html import escape
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, cast

import attrs

from ..coerce import MAX_INT, plain
from ..context import error_code
from ..errors import CalendarError, InTrash, InvalidParameter
from ..progress import ProgressArg, tracking
from ..records import Event, Input, Record, input_fields
from ..statuses import Status
from ..validation import read_id, read_input
from .csv_columns import normalize
from .keys import MAX_KEY_LENGTH, column_key

if TYPE_CHECKING:
    import pandas as pd

    from ..events import EventCollection
    from ..posts import PostCollection
    from .rows import ImportKind

__all__ = [
    "DataFrameReport",
    "FrameRows",
    "RowOutcome",
    "from_dataframe",
    "is_dataframe",
    "key_columns",
    "rows_of",
    "to_dataframe",
]

#: Event columns and their dtypes, in order.
EVENT_COLUMNS: dict[str, str] = {
    "id": "int64",
    "title": "string",
    "slug": "string",
    "status": "string",
    "start_date": "datetime64[ns, UTC]",
    "end_date": "datetime64[ns, UTC]",
    "timezone": "string",
    "all_day": "bool",
    "featured": "bool",
    "sticky": "bool",
    "hide_from_listings": "bool",
    "show_map": "bool",
    "show_map_link": "bool",
    "cost": "string",
    "website": "string",
    "image": "string",
    "description": "string",
    "excerpt": "string",
    "venue_id": "Int64",
    "venue_name": "string",
    "organizer_ids": "object",
    "organizer_names": "object",
    "categories": "object",
    "tags": "object",
    "author": "int64",
    "post_parent": "int64",
    "date": "datetime64[ns, UTC]",
    "modified": "datetime64[ns, UTC]",
}

#: The event columns read from the event's own fields (the others come from its links), and
#: one C-level getter for all of them: a frame of 100,000 events asks for each 100,000 times.
_EVENT_FIELDS = tuple(name for name in EVENT_COLUMNS if name in attrs.fields_dict(Event))
_event_fields = operator.attrgetter(*_EVENT_FIELDS)

#: Fields never exported: secrets, and UTC copies of instants that are exported in UTC.
_NOT_EXPORTED = frozenset({"password", "date_utc", "modified_utc", "cost_details", "locked"})
#: Columns a frame may carry that an import does not write: set by the calendar, or (the
#: author) by who imports: user ids do not carry over from one calendar to another.
_READ_ONLY = frozenset({"id", "modified", "venue_name", "organizer_names", "count", "author"})
_UTC = "datetime64[ns, UTC]"
#: The dtype of each field type records declare (by its name: annotations are strings).
_DTYPES: dict[str, str] = {
    "bool": "bool",
    "int": "int64",
    "str": "string",
    "str | None": "string",
    "Status": "string",
    "datetime": _UTC,
}

Key = Literal["id", "slug"] | str | None
Outcome = Literal["created", "updated", "unchanged", "skipped", "error"]


# -- out ---------------------------------------------------------------------------------------
def _event_row(event: Event, related: Any) -> dict[str, Any]:
    venues, organizers = related.venues_of(event), related.organizers_of(event)
    row = dict(zip(_EVENT_FIELDS, _event_fields(event), strict=True))
    row.update(
        status=event.status.value,
        website=event.website,  # never set (None: <NA>) is not set to "" (cleared)
        venue_id=venues[0].id if venues else None,
        venue_name=venues[0].name if venues else None,
        organizer_ids=[o.id for o in organizers],
        organizer_names=[o.name for o in organizers],
        categories=[c.name for c in related.categories_of(event)],
        tags=[t.name for t in related.tags_of(event)],
    )
    return row


def _record_columns(cls: type[Record]) -> dict[str, str]:
    """Columns and dtypes of a venue, organizer, category or tag: its fields, minus secrets."""
    return {
        field.name: _DTYPES.get(_type_name(field.type), "object")
        for field in attrs.fields(cls)
        if field.name not in _NOT_EXPORTED
    }


def _type_name(declared: Any) -> str:
    """A field's type as written (``int``), whether attrs holds it as text or, once a
    converter has resolved the annotations, as the class itself."""
    return declared.__name__ if isinstance(declared, type) else str(declared)


def _plain_column(values: list[Any]) -> list[Any]:
    """A column's enum members (statuses) as their values; other columns as they are,
    looked at by type only (a pass in C rather than a test per cell)."""
    if any(issubclass(kind, Enum) for kind in set(map(type, values))):
        return [value.value if isinstance(value, Enum) else value for value in values]
    return values


def _frame(columns: Mapping[str, str], rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    import pandas as pd  # the dataframe extra, loaded only when a frame is made

    data: dict[str, list[Any]] = {name: [] for name in columns}
    appends = [(name, values.append) for name, values in data.items()]
    for row in rows:  # a column at a time: a row is not kept once its cells are
        get = row.get
        for name, append in appends:
            append(get(name))
    return pd.DataFrame(
        {name: _column(_plain_column(data[name]), dtype) for name, dtype in columns.items()}
    )


def _column(values: list[Any], dtype: Any) -> pd.Series:
    """One column of ``dtype``: instants through ``_instants`` (UTC), lists as objects."""
    import pandas as pd

    series = pd.Series(values, dtype=object)
    if dtype == _UTC:
        return _instants(series)
    return series if dtype == "object" else series.astype(dtype)


def _instants(series: pd.Series) -> pd.Series:
    """A column of instants in UTC: ``datetime64[ns, UTC]`` when every value fits one
    (1677-09-21 to 2262-04-11), else ``datetime64[us, UTC]`` for this column alone.

    A calendar holds the years 1000 to 9999, and a nanosecond column past 2262 cannot hold
    them: the export failed (``OutOfBoundsDatetime``). Microseconds hold every instant the
    calendar stores, exactly, so the wider unit loses nothing; the usual column keeps the
    nanoseconds pandas makes by default.
    """
    import pandas as pd

    try:
        column: pd.Series = pd.to_datetime(series, utc=True).astype(cast(Any, _UTC))
    except pd.errors.OutOfBoundsDatetime:
        return _wide_instants(series)
    return column


def _wide_instants(series: pd.Series) -> pd.Series:
    """``datetime64[us, UTC]`` from aware ``datetime`` values (and ``None``), through numpy,
    whose microsecond dates reach every year the calendar holds whatever the pandas version
    (pandas 2's ``to_datetime`` makes nanoseconds only)."""
    import numpy as np
    import pandas as pd

    utc = [
        v if v is None or v.tzinfo is None else v.astimezone(UTC).replace(tzinfo=None)
        for v in series
    ]
    return pd.Series(np.array(utc, dtype="datetime64[us]"), index=series.index).dt.tz_localize(
        "UTC"
    )


def to_dataframe(
    collection: Any,
    params: Mapping[str, Any],
    *,
    progress: ProgressArg = None,
) -> pd.DataFrame:
    """Every record ``collection.iter(**params)`` yields, as one typed frame."""
    records = collection.iter(progress=progress, **params)
    if collection.kind != "event":
        return _frame(_record_columns(collection._cls), (attrs.asdict(r) for r in records))
    events: Any = collection

    def rows() -> Iterator[dict[str, Any]]:
        batch: list[Event] = []
        for event in records:
            batch.append(event)
            if len(batch) == _BATCH:
                yield from _event_rows(events, batch)
                batch = []
        yield from _event_rows(events, batch)

    return _frame(EVENT_COLUMNS, rows())


_BATCH = 1000


def _event_rows(events: EventCollection, batch: list[Event]) -> Iterator[dict[str, Any]]:
    related = events.related(batch)  # four lookups for the whole batch
    return (_event_row(event, related) for event in batch)


# -- in ----------------------------------------------------------------------------------------
def is_dataframe(value: object) -> TypeGuard[pd.DataFrame]:
    """Whether ``value`` is a pandas DataFrame, or of a subclass of one (a GeoDataFrame, a
    frame class of the caller's own), as ``from_dataframe`` takes it. Answered from the
    names of its classes, without importing pandas."""
    return any(
        kind.__name__ == "DataFrame" and kind.__module__.startswith("pandas")
        for kind in type(value).__mro__
    )


def _cell(value: Any) -> Any:
    """A cell as a Python value (``coerce.plain``); ``_MISSING`` for ``None``, ``NaN``,
    ``pd.NA`` and ``NaT``, which a list cell leaves out."""
    value = plain(value)
    if value is None:
        return _MISSING
    if isinstance(value, list | tuple):
        return [item for item in map(_cell, value) if item is not _MISSING]
    return value


_MISSING = object()


def _fields(kind: str, row: Mapping[Any, Any]) -> dict[str, Any]:
    """A frame row as ``create`` keyword arguments (see the module docstring)."""
    cells = {str(name): _cell(value) for name, value in row.items()}
    fields = {n: v for n, v in cells.items() if v is not _MISSING and n not in _READ_ONLY}
    if kind != "event":
        return {n: v for n, v in fields.items() if n not in ("date_utc", "modified_utc")}
    for attr, names in (("venue", "venue_name"), ("organizer", "organizer_names")):
        ids = fields.pop(f"{attr}_id" if attr == "venue" else "organizer_ids", _MISSING)
        if attr in fields:  # a column of the field itself says it all
            continue
        if ids is not _MISSING:
            fields[attr] = ids if isinstance(ids, list) else [ids]
        elif cells.get(names, _MISSING) is not _MISSING:
            given = cells[names]
            fields[attr] = [{attr: n} for n in (given if isinstance(given, list) else [given])]
    return fields


class FrameRows:
    """The rows of a frame as ``create`` keyword arguments, each read as it is reached.

    Sized (its length is the frame's) as well as iterable, so that a bulk load knows its total
    before the first row: ``bulk_create(df, progress=...)`` reports ``(done, len(df))``.
    """

    def __init__(self, frame: pd.DataFrame, kind: str) -> None:
        self.frame = frame
        self.kind = kind

    def __len__(self) -> int:
        return len(self.frame)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for _, row in self.frame.iterrows():
            yield _fields(self.kind, row.to_dict())


def rows_of(frame: pd.DataFrame, kind: str = "event") -> FrameRows:
    """The rows of ``frame`` as ``create`` keyword arguments (``bulk_create`` takes these)."""
    _refuse_repeated_columns(frame)
    return FrameRows(frame, kind)


def _refuse_repeated_columns(frame: pd.DataFrame) -> None:
    """A field named by two columns (``title`` twice, or ``1`` and ``"1"``) is refused before
    anything is written: a row read as a mapping keeps one of the two cells, and the other
    was dropped without a word."""
    seen: set[str] = set()
    for name in map(str, frame.columns):
        if name in seen:
            raise InvalidParameter.one(
                "frame", f"the column {name!r} appears twice; give each field one column"
            )
        seen.add(name)


@attrs.frozen
class RowOutcome:
    """What happened to one row: its label in the frame, the outcome, the record's id."""

    row: Any
    outcome: Outcome
    id: int | None = None
    error: str = ""


@attrs.frozen
class DataFrameReport:
    """What ``from_dataframe`` did, row by row (``rows``), with counts per outcome."""

    rows: tuple[RowOutcome, ...]

    def count(self, outcome: Outcome) -> int:
        return sum(1 for r in self.rows if r.outcome == outcome)

    @property
    def created(self) -> int:
        return self.count("created")

    @property
    def updated(self) -> int:
        return self.count("updated")

    @property
    def unchanged(self) -> int:
        return self.count("unchanged")

    @property
    def skipped(self) -> int:
        return self.count("skipped")

    @property
    def errors(self) -> tuple[RowOutcome, ...]:
        """The rows that could not be written, with why."""
        return tuple(r for r in self.rows if r.outcome == "error")

    def __repr__(self) -> str:
        return (
            f"DataFrameReport({len(self.rows):,} rows: {self.created:,} created, "
            f"{self.updated:,} updated, {self.unchanged:,} unchanged, {self.skipped:,} skipped, "
            f"{len(self.errors):,} errors)"
        )

    def _repr_html_(self) -> str:
        """A table of the counts per outcome, then one of the rows in error, if any
        (Jupyter)."""
        counts = "".join(
            f"<tr><td>{outcome}</td><td>{number:,}</td></tr>"
            for outcome, number in (
                ("created", self.created),
                ("updated", self.updated),
                ("unchanged", self.unchanged),
                ("skipped", self.skipped),
                ("errors", len(self.errors)),
            )
        )
        body = "".join(
            f"<tr><td>{escape(str(r.row))}</td><td>{escape(r.error)}</td></tr>" for r in self.errors
        )
        errors = (
            f"<table><thead><tr><th>row</th><th>error</th></tr></thead><tbody>{body}</tbody>"
            "</table>"
            if body
            else ""
        )
        return (
            f"<table><thead><tr><th>outcome</th><th>rows</th></tr></thead><tbody>{counts}"
            f"</tbody></table>{errors}"
        )


#: Input kinds of the fields besides ``id`` and ``slug`` that rows can be matched on: one
#: text, compared whole (a title, a website, an email address).
_KEY_INPUTS = frozenset({Input.NAME, Input.TEXT, Input.URL})


def key_columns(cls: type[Record]) -> tuple[str, ...]:
    """The columns ``from_dataframe`` can match rows on for ``cls``: ``id``, ``slug`` and its
    text fields (for events ``title``, ``website``, ``description`` and ``excerpt``)."""
    texts = (name for name, f in input_fields(cls).items() if f.input in _KEY_INPUTS)
    return ("id", "slug", *texts)


def own_key(cls: type[Record], column: str) -> bool:
    """Whether ``column`` is a key column of the caller's own (an id from another system):
    no column a frame of ``cls`` is read from (its fields, the columns ``to_dataframe``
    writes), so it is matched through stored import keys, not through the records."""
    known = {*input_fields(cls), *_READ_ONLY, *_NOT_EXPORTED}
    return column not in known and not (cls is Event and column in EVENT_COLUMNS)


class _Keyed:
    """How the rows of one frame find the records they stand for (``from_dataframe``'s key).

    A row matches only records the caller may read (``_readable``, the rule of every read): any
    other is not found, so neither a match, an ambiguity nor an error tells of it. ``id`` names
    a record directly (read as ``get`` reads an id: a whole float from an id column with gaps
    too); an unknown id (or one the caller may not read) is the row's error, and so is the id of
    a record in the trash (``InTrash``): a row matches live records only, whatever its key, and
    a trashed record is neither updated nor replaced by a new one. Any other key matches the
    live records (not in the trash, as for an import key) whose field holds the row's value as
    the field stores it (``" Gala "`` is read as ``"Gala"``, a slug is slugified). Those records
    are looked up once for the whole column, before the first write: ``slug`` and the name
    column through the storage's indexes, another text field by one storage lookup of the
    column's values (``Storage.find_values``). A value that names several records is refused
    then, for every such row at once, so nothing is written; a row that creates a record makes
    its value name it.
    """

    def __init__(self, collection: PostCollection[Any], key: str, frame: pd.DataFrame) -> None:
        self.collection, self.key = collection, key
        #: Whether the key is a column of the caller's own, whose values are stored as
        #: import keys (``own_key``) rather than read from the records.
        self.own = own_key(collection._cls, key)
        self.values: list[Any] = []
        self.ids: dict[Any, list[int]] = {}
        if key == "id":
            return
        read = self._own_value if self.own else self._read
        self.values = [read(cell) for cell in frame[key]]
        wanted = {value for value in self.values if value is not _MISSING}
        lookup = self._lookup_own if self.own else self._lookup
        self.ids = lookup(wanted) if wanted else {}
        kind = collection.kind
        ambiguous = {
            f"rows[{label}].{key}": f"{len(ids)} {kind}s have this {key} "
            f"(ids {', '.join(map(str, ids))}); match on a column that names one {kind}, "
            "such as 'id'"
            for label, value in zip(frame.index, self.values, strict=True)
            if len(ids := self.ids.get(value, [])) > 1
        }
        if ambiguous:
            raise InvalidParameter(ambiguous, codes=dict.fromkeys(ambiguous, "ambiguous_key"))

    def _read(self, cell: Any) -> Any:
        """The key a cell gives, as its field stores it; ``_MISSING`` when the cell is empty
        (blank text names no record either) or unreadable (the row is then new, and creating
        it says what is wrong)."""
        value = _cell(cell)
        if value is _MISSING:
            return _MISSING
        collection = self.collection
        try:
            clean = read_input(collection._cls, {self.key: value}, collection._ctx, creating=False)
        except CalendarError:
            return _MISSING
        return clean[self.key] if clean[self.key] else _MISSING

    def _own_value(self, cell: Any) -> Any:
        """The stored key a cell of the caller's own column gives (``keys.column_key``, as a
        CSV import's ``--key`` column stores it: a frame holding such a file's ``ID`` column
        finds its records); ``_MISSING`` when the cell is empty. A whole float is read as
        the integer it is (an id column with gaps is floats in pandas); a key over
        ``MAX_KEY_LENGTH`` is refused with the row (``existing``)."""
        value = _cell(cell)
        if value is _MISSING:
            return _MISSING
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        text = str(value).strip()
        column = normalize(self.key, cast("ImportKind", self.collection.kind))  # a post kind
        return column_key(column, text) if text else _MISSING

    def _lookup_own(self, keys: set[Any]) -> dict[Any, list[int]]:
        """The live record each stored key names, if the caller may read it."""
        collection = self.collection
        backend, cls, kind = collection._ctx.backend, collection._cls, collection.kind
        found = backend.find_import_keys(kind, keys)
        records = backend.get_many(cls, set(found.values()))
        return {
            key: [i]
            for key, i in found.items()
            if i in records and records[i].status != Status.TRASH and self._readable(records[i])
        }

    def _lookup(self, values: set[Any]) -> dict[Any, list[int]]:
        """The ids of the live records holding each value, oldest first."""
        collection, key = self.collection, self.key
        backend, cls, kind = collection._ctx.backend, collection._cls, collection.kind
        if key == "slug":
            found = {slug: [i] for slug, i in backend.taken_slugs(kind, values).items()}
        elif key == cls.title_field:
            found = backend.find_names(kind, values)  # ignoring case: checked below
        else:
            found = backend.find_values(kind, key, values)
        records = backend.get_many(cls, {i for ids in found.values() for i in ids})
        return {
            value: live
            for value, ids in found.items()
            if (
                live := [
                    i
                    for i in ids
                    if i in records
                    and records[i].status != Status.TRASH
                    and self._readable(records[i])
                    and getattr(records[i], key) == value
                ]
            )
        }

    def _readable(self, record: Any) -> bool:
        """Whether the caller may read ``record``: a row matches no other, as an import
        matches none (``importer._match``), so a key tells nothing of what it cannot read."""
        return self.collection._ctx.actor.can_read(record.author, record.status)

    def existing(self, position: int, row: Mapping[Any, Any]) -> Any:
        """The record the row at ``position`` stands for, or ``None`` when it is new."""
        collection = self.collection
        backend, cls = collection._ctx.backend, collection._cls
        if self.key != "id":
            value = self.values[position]
            if self.own and value is not _MISSING and len(value) > MAX_KEY_LENGTH:
                raise InvalidParameter.one(  # as an import refuses such a key column's row
                    self.key, f"send a shorter key: at most {MAX_KEY_LENGTH} characters are kept"
                )
            ids = self.ids.get(value, [])
            return backend.get_many(cls, ids[:1]).get(ids[0]) if ids else None
        value = _cell(row.get("id", _MISSING))
        if value is _MISSING:
            return None
        record_id = read_id(value)
        in_range = 0 < record_id <= MAX_INT  # a storage integer: none other names a record
        found = backend.get_many(cls, [record_id]).get(record_id) if in_range else None
        if found is None or not self._readable(found):  # the same answer: nothing to guess
            raise InvalidParameter.one("id", f"there is no {collection.kind} with id {record_id}")
        if found.status == Status.TRASH:
            raise InTrash(
                f"The {collection.kind} with ID {record_id} is in the trash: a row matches live "
                f"records only. Restore it (update its status) to write this row to it, or "
                f"leave the id out to create a new {collection.kind}.",
                code=error_code(collection.kind, "is-in-trash"),
            )
        return found

    def created(self, position: int, record_id: int) -> None:
        """The row at ``position`` created ``record_id``: later rows with its key match it,
        and so does a later frame, when the key is the caller's own (stored with it)."""
        value = self.values[position] if self.key != "id" else _MISSING
        if value is _MISSING:
            return
        self.ids.setdefault(value, []).append(record_id)
        if self.own:
            self.collection._ctx.backend.set_import_keys(
                self.collection.kind, {str(value): record_id}
            )


def from_dataframe(
    collection: PostCollection[Any],
    frame: pd.DataFrame,
    *,
    key: Key = None,
    on_conflict: Literal["skip", "update"] = "skip",
    progress: ProgressArg = None,
) -> DataFrameReport:
    """Create or update one record per row; see ``EventCollection.from_dataframe``."""
    if not (hasattr(frame, "iterrows") and hasattr(frame, "columns")):  # pandas not imported
        raise InvalidParameter.one(
            "frame", f"send a pandas DataFrame, not a {type(frame).__name__}"
        )
    key = cast(Key, plain(key))  # numpy text as text; NaN is no key, as None
    on_conflict = cast(Literal["skip", "update"], plain(on_conflict))
    usable = key_columns(collection._cls)
    if key is not None and key not in usable and not own_key(collection._cls, key):
        raise InvalidParameter.one(
            "key",
            f"send None, a column that names one {collection.kind} ({', '.join(usable)}), "
            "or a column of your own (an id from another system)",
        )
    if key is not None and key not in frame.columns:
        raise InvalidParameter.one("key", f"the frame has no {key!r} column to match rows on")
    if on_conflict not in ("skip", "update"):
        raise InvalidParameter.one("on_conflict", "send 'skip' or 'update'")
    _refuse_repeated_columns(frame)
    outcomes: list[RowOutcome] = []
    backend = collection._ctx.backend
    with tracking(progress, total=len(frame), unit="rows") as advance, backend.transaction():
        keyed = _Keyed(collection, key, frame) if key is not None else None
        for position, (label, series) in enumerate(frame.iterrows()):
            row = series.to_dict()
            if keyed is not None and keyed.own:
                del row[key]  # the caller's own column: no field of the record
            try:
                with backend.transaction():  # one row: written whole or not at all
                    done = _one_row(collection, label, row, keyed, position, on_conflict)
            except CalendarError as bad:
                done = RowOutcome(label, "error", error=str(bad))
            if keyed is not None and done.outcome == "created" and done.id is not None:
                keyed.created(position, done.id)
            outcomes.append(done)
            advance(position + 1)
    return DataFrameReport(tuple(outcomes))


def _one_row(
    collection: PostCollection[Any],
    label: Any,
    row: dict[Any, Any],
    keyed: _Keyed | None,
    position: int,
    on_conflict: str,
) -> RowOutcome:
    fields = _fields(collection.kind, row)
    current = keyed.existing(position, row) if keyed is not None else None
    if current is None:
        record, made = collection._create(**fields)
        if made == "created":
            return RowOutcome(label, "created", record.id)
        if made == "same":  # a venue or organizer that exists, holding every value given
            return RowOutcome(label, "unchanged", record.id)
        current = record  # the same but for its status or date: matched as by a key
    if _first_venue_only(current, row, fields):
        del fields["venue"]
    if on_conflict == "skip":
        # A matched row is left alone; it is "unchanged" when the record already holds its
        # values (a frame from ``to_dataframe`` read back), "skipped" when it differs, or
        # could not be written at all (its values are not applied, so not judged either).
        try:
            same = not _changes(collection, current, fields, keep=False)
        except CalendarError:
            same = False
        return RowOutcome(label, "unchanged" if same else "skipped", current.id)
    if _changes(collection, current, fields, keep=True):
        return RowOutcome(label, "updated", current.id)
    return RowOutcome(label, "unchanged", current.id)


def _changes(
    collection: PostCollection[Any], current: Any, fields: dict[str, Any], *, keep: bool
) -> bool:
    """Whether updating ``current`` with ``fields`` changes it; the update is kept only when
    ``keep`` and it does. It is made, then undone, so that "unchanged" is judged on the
    values as the calendar stores them (a wall-clock start, a venue given by name, a
    category in another case), not on how the frame wrote them."""
    changed = False
    try:
        with collection._ctx.backend.transaction():
            written = collection.update(current.id, **fields)
            before = _as_compared(current, current.modified)
            changed = _as_compared(written, current.modified) != before
            if not (changed and keep):
                raise _NoChange
    except _NoChange:
        pass
    return changed


def _as_compared(record: Any, modified: Any) -> Any:
    """A record as two are compared for "unchanged": whatever its modification time, an
    event's terms in any order (a frame lists them by name)."""
    terms = {}
    if isinstance(record, Event):
        terms = {"categories": sorted(record.categories), "tags": sorted(record.tags)}
    return attrs.evolve(record, modified=modified, **terms)


class _NoChange(Exception):
    """Undoes, inside a row's transaction, an update that changed nothing or was a trial."""


def _first_venue_only(current: Any, row: Mapping[Any, Any], fields: Mapping[str, Any]) -> bool:
    """Whether the row names an event's venues only as ``to_dataframe`` wrote them: its first
    venue in ``venue_id``, for an event with several. The row then leaves them as they are;
    a ``venue`` column (a list of ids) sets them all."""
    venues: tuple[int, ...] = getattr(current, "venue", ())
    return len(venues) > 1 and "venue" not in row and fields.get("venue") == [venues[0]]
