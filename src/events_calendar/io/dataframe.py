"""pandas DataFrames in and out of a calendar (the ``dataframe`` extra).

``to_dataframe`` streams a list query (``iter``) into typed columns: instants as UTC
``datetime64[ns, UTC]`` (an event's own zone in ``timezone``), flags as ``bool``, text as
``string``, an event's categories and tags as lists of names, its venue as ``venue_id`` and
``venue_name``, its organizers as ``organizer_ids`` and ``organizer_names``. Secrets (an
event's password) are never exported.

``from_dataframe`` reads such a frame back (or any frame whose columns are ``create`` fields):
row by row, creating or updating, and reports what happened to each row. A cell that is
``None``, ``NaN`` or ``NaT`` is a missing value (the field is left out); numpy scalars become
Python values. ``rows_of`` gives the rows as ``create`` keyword arguments, which is how
``bulk_create`` takes a DataFrame.

pandas is imported only inside these functions: ``import events_calendar`` never loads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import Enum
from html import escape
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

import attrs

from ..errors import CalendarError, InvalidParameter
from ..progress import ProgressArg, tracking
from ..records import Event, Record

if TYPE_CHECKING:
    import pandas as pd

    from ..events import EventCollection
    from ..posts import PostCollection

__all__ = [
    "DataFrameReport",
    "RowOutcome",
    "from_dataframe",
    "is_dataframe",
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
    row = {name: getattr(event, name) for name in EVENT_COLUMNS if hasattr(event, name)}
    row.update(
        status=event.status.value,
        website=event.website or "",
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


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _frame(columns: Mapping[str, str], rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    import pandas as pd  # the dataframe extra, loaded only when a frame is made

    data: dict[str, list[Any]] = {name: [] for name in columns}
    for row in rows:
        for name, values in data.items():
            values.append(_plain(row.get(name)))
    return pd.DataFrame({name: _column(data[name], dtype) for name, dtype in columns.items()})


def _column(values: list[Any], dtype: Any) -> pd.Series:
    """One column of ``dtype``: instants through ``to_datetime`` (UTC), lists as objects."""
    import pandas as pd

    series = pd.Series(values, dtype=object)
    if dtype == _UTC:
        return pd.to_datetime(series, utc=True).astype(dtype)
    return series if dtype == "object" else series.astype(dtype)


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
    """Whether ``value`` is a pandas DataFrame (answered without importing pandas)."""
    kind = type(value)
    return kind.__name__ == "DataFrame" and kind.__module__.startswith("pandas")


def _cell(value: Any) -> Any:
    """A cell as a Python value; ``_MISSING`` for ``None``, ``NaN`` and ``NaT``."""
    if value is None:
        return _MISSING
    if hasattr(value, "to_pydatetime"):  # pd.Timestamp (NaT included)
        return _MISSING if value != value else value.to_pydatetime()
    if hasattr(value, "tolist") and not isinstance(value, str):  # numpy arrays and scalars
        value = value.tolist()
    if isinstance(value, float) and value != value:
        return _MISSING
    if isinstance(value, list | tuple):
        return [_cell(item) for item in value if _cell(item) is not _MISSING]
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
        if ids is not _MISSING:
            fields[attr] = ids if isinstance(ids, list) else [ids]
        elif cells.get(names, _MISSING) is not _MISSING:
            given = cells[names]
            fields[attr] = [{attr: n} for n in (given if isinstance(given, list) else [given])]
    return fields


def rows_of(frame: pd.DataFrame, kind: str = "event") -> Iterator[dict[str, Any]]:
    """The rows of ``frame`` as ``create`` keyword arguments (``bulk_create`` takes these)."""
    for _, row in frame.iterrows():
        yield _fields(kind, row.to_dict())


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
        """The counts, then a table of the rows in error (Jupyter)."""
        body = "".join(
            f"<tr><td>{escape(str(r.row))}</td><td>{escape(r.error)}</td></tr>" for r in self.errors
        )
        table = (
            f"<table><thead><tr><th>row</th><th>error</th></tr></thead><tbody>{body}</tbody>"
            "</table>"
            if body
            else ""
        )
        return f"<p>{escape(repr(self))}</p>{table}"


def _existing(collection: PostCollection[Any], key: Key, fields: dict[str, Any], row: Any) -> Any:
    """The record a row's key names, or ``None`` when the row is new."""
    if key is None:
        return None
    value = row.get(key, _MISSING) if key == "id" else fields.get(key, _MISSING)
    value = _cell(value)
    if value is _MISSING:
        return None
    backend, cls = collection._ctx.backend, collection._cls
    if key == "id":
        found = backend.get_many(cls, [value]).get(value) if isinstance(value, int) else None
        if found is None:
            raise InvalidParameter.one("id", f"there is no {collection.kind} with id {value!r}")
        return found
    if key == "slug":
        ids = list(backend.taken_slugs(collection.kind, [str(value)]).values())
    else:
        ids = backend.find_names(collection.kind, [str(value)]).get(str(value), [])
    matches = [r for r in backend.get_many(cls, ids).values() if getattr(r, key) == value]
    return matches[0] if matches else None


def _same(collection: Any, current: Any, fields: Mapping[str, Any]) -> bool:
    """Whether the record already holds every value the row gives (in exported form)."""
    if collection.kind == "event":
        shown = _event_row(current, collection.related([current]))
        shown["venue"], shown["organizer"] = list(current.venue), shown["organizer_ids"]
    else:
        shown = {k: _plain(v) for k, v in attrs.asdict(current).items()}
    for name, value in fields.items():
        have = shown.get(name, _plain(getattr(current, name, _MISSING)))
        if name in ("categories", "tags") and isinstance(value, list):
            value, have = sorted(map(str, value)), sorted(map(str, have))
        if _plain(value) != have:
            return False
    return True


def from_dataframe(
    collection: PostCollection[Any],
    frame: pd.DataFrame,
    *,
    key: Key = None,
    on_conflict: Literal["skip", "update"] = "skip",
    progress: ProgressArg = None,
) -> DataFrameReport:
    """Create or update one record per row; see ``EventCollection.from_dataframe``."""
    title = collection._cls.title_field
    if key not in (None, "id", "slug", title):
        raise InvalidParameter.one("key", f"send None, 'id', 'slug' or {title!r}")
    if on_conflict not in ("skip", "update"):
        raise InvalidParameter.one("on_conflict", "send 'skip' or 'update'")
    outcomes: list[RowOutcome] = []
    backend = collection._ctx.backend
    with tracking(progress, total=len(frame), unit="rows") as advance, backend.transaction():
        for number, (label, series) in enumerate(frame.iterrows(), start=1):
            row = series.to_dict()
            try:
                with backend.transaction():  # one row: written whole or not at all
                    outcomes.append(_one_row(collection, label, row, key, on_conflict))
            except CalendarError as bad:
                outcomes.append(RowOutcome(label, "error", error=str(bad)))
            advance(number)
    return DataFrameReport(tuple(outcomes))


def _one_row(
    collection: PostCollection[Any], label: Any, row: dict[Any, Any], key: Key, on_conflict: str
) -> RowOutcome:
    fields = _fields(collection.kind, row)
    current = _existing(collection, key, fields, row)
    if current is None:
        return RowOutcome(label, "created", collection.create(**fields).id)
    if on_conflict == "skip":
        return RowOutcome(label, "skipped", current.id)
    if _same(collection, current, fields):
        return RowOutcome(label, "unchanged", current.id)
    collection.update(current.id, **fields)
    return RowOutcome(label, "updated", current.id)
