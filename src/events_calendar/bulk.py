"""Bulk loads of events (``cal.events.bulk_create``), streamed in batches.

Rows are read from the caller's iterable one batch (``settings.bulk_batch_size`` rows) at a
time: a batch is validated whole, then written, then dropped, so memory stays flat whatever
the number of rows (a list of a million rows is the caller's memory, not the load's).

Two contracts:

- **atomic** (the default): every batch is written inside one transaction, committed after
  the last row. A bad row (named ``rows[N].field``), a row the caller may not write, or a
  storage failure rolls everything back: the calendar is unchanged and nobody saw any of it.
  Inside that transaction the backend may build its indexes and aggregates once, after the
  rows, rather than row by row (``BulkLoading``).
- ``atomic=False``: each batch commits on its own. A failure stops the load with
  ``BulkIncomplete``, which says how many rows (whole batches, the first ones) are stored.
  For loads too long to hold one write transaction open (other writers wait for it).

Validation is ``row_reader.RowReader``: ``read_input``'s checks, with what a batch shares
(field sets, repeated values) read once, and the ids a batch links to asked about at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from contextlib import AbstractContextManager, nullcontext
from itertools import islice
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from .errors import BulkIncomplete, InvalidParameter, MissingParameter
from .posts_bulk import enter_trash, give_up_slugs, slug_holders
from .progress import ProgressArg, tracking
from .records import Event, Kind
from .row_reader import RowReader
from .slugs import allocate_slugs
from .statuses import Status
from .validation import read_flag

if TYPE_CHECKING:
    from .events import EventCollection

__all__ = ["BulkLoading", "bulk_create"]

_Rows = list[dict[str, Any]]


@runtime_checkable
class BulkLoading(Protocol):
    """A backend that can load many rows of a kind faster inside one transaction.

    ``bulk_load(kind)`` is entered inside the caller's write transaction and wraps every
    insert of the load; on leaving it the backend finishes what it deferred (indexes,
    aggregates, the search index), so that the data ends up exactly as if the rows had been
    inserted one by one. On an error the transaction rolls back, deferral and all.
    """

    def bulk_load(self, kind: Kind) -> AbstractContextManager[None]: ...


def bulk_create(
    events: EventCollection,
    rows: Iterable[Mapping[str, Any]],
    *,
    progress: ProgressArg = None,
    atomic: bool = True,
) -> list[int]:
    """Create many events (see ``EventCollection.bulk_create``); the new ids in row order.

    ``atomic`` is read strictly, as ``force`` is (``validation.read_flag``): read for
    truthiness, ``atomic="false"`` would mean atomic and ``pd.NA`` would raise a bare
    ``TypeError``; either is an ``InvalidParameter`` naming it, before anything is read.
    """
    atomic = read_flag(atomic, field="atomic")  # validation first, as for every write
    ctx = events._ctx
    ctx.require(ctx.actor.can_create("event"), "create events")
    load = _Load(events)
    total = len(rows) if isinstance(rows, Sized) else None
    with tracking(progress, total=total, unit="events") as advance:
        if atomic:
            with ctx.backend.transaction(), _deferring(ctx.backend):
                for chunk in load.batches(rows):
                    load.write(chunk)
                    advance(len(load.ids))
            return load.ids
        try:
            for chunk in load.batches(rows):
                with ctx.backend.transaction(), _deferring(ctx.backend):
                    load.write(chunk)
                advance(len(load.ids))
        except Exception as error:
            raise BulkIncomplete(error, ids=load.ids) from error
        return load.ids


def _deferring(backend: object) -> AbstractContextManager[None]:
    return backend.bulk_load("event") if isinstance(backend, BulkLoading) else nullcontext()


class _Load:
    """One bulk load: its validation pass, its slug numbering, the ids written so far."""

    def __init__(self, events: EventCollection) -> None:
        self.events = events
        self.ctx = events._ctx
        self.lookup = self.ctx.remembering()
        self.reader = RowReader(Event, self.lookup, creating=True)
        self.ids: list[int] = []
        self.next_number: dict[str, int] = {}  # slug suffixes already tried, across batches

    def batches(self, rows: Iterable[Mapping[str, Any]]) -> Iterator[_Rows]:
        """The rows cleaned, a batch at a time; a bad row raises before its batch is
        written, named by its position among all rows."""
        size = self.ctx.settings.bulk_batch_size
        numbered = enumerate(rows)
        while chunk := list(islice(numbered, size)):
            for number, row in chunk:
                if not isinstance(row, Mapping):
                    raise InvalidParameter.one(
                        f"rows[{number}]", f"send a mapping of fields to values, not {row!r:.40}"
                    )
            for kind, ids in _linked_ids(row for _, row in chunk).items():
                self.lookup.learn(kind, ids)
            read = self.reader.read_batch([row for _, row in chunk])
            if read is None:  # a row for the slow path: row by row, the first bad one raises
                yield [self.clean(number, row) for number, row in chunk]
            else:
                yield [
                    self.check(number, clean)
                    for (number, _), clean in zip(chunk, read, strict=True)
                ]

    def clean(self, number: int, row: Mapping[str, Any]) -> dict[str, Any]:
        """One row read and checked; an error names it by ``number``."""
        return self.check(number, row, read=self.reader.read)

    def check(
        self,
        number: int,
        row: Mapping[str, Any],
        *,
        read: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The cleaned fields of a row (``read`` from the row given, else the row is read
        already), checked for what spans fields and for what the caller may write; an error
        names the row by ``number``."""
        events = self.events
        try:
            clean = read(row) if read is not None else cast("dict[str, Any]", row)
            events._span(clean, None)  # an end before the start, found before any write
        except MissingParameter as bad:
            raise MissingParameter(f"rows[{number}].{name}" for name in bad.fields) from None
        except InvalidParameter as bad:
            raise InvalidParameter(
                {f"rows[{number}].{name}": why for name, why in bad.fields.items()},
                codes={f"rows[{number}].{name}": code for name, code in bad.codes.items()},
            ) from None
        events._author(clean.get("author"))  # may the caller name this author?
        events._status(clean.get("status"))  # and ask for this status?
        return clean

    def write(self, chunk: _Rows) -> None:
        """Store one validated batch (inside the caller's transaction)."""
        events, backend = self.events, self.ctx.backend
        chunk = _with_term_ids(events, chunk)
        record_ids = backend.reserve_ids("post", len(chunk))
        bases = [
            events.slug_base(clean, record_id)
            for clean, record_id in zip(chunk, record_ids, strict=True)
        ]
        trashed = [events._status(clean.get("status")) == Status.TRASH for clean in chunk]
        slugs = self.slugs(bases, trashed, record_ids)
        batch = [
            events._build(clean, slug=slug, record_id=record_id)
            for clean, slug, record_id in zip(chunk, slugs, record_ids, strict=True)
        ]
        backend.insert(batch)
        self.ids.extend(record_ids)

    def slugs(self, bases: list[str], trashed: list[bool], record_ids: range) -> list[str]:
        """The slugs of one batch's rows, as creating them one by one, in row order, gives
        them (``slugs.allocate_slugs``; across batches too): a row not in the trash takes a
        slug a trashed post holds (stored before the load, or a row of it, even of this
        batch), the holder moving to its trash slug (``posts_bulk.give_up_slugs``), as
        ``create`` moves it. Trashed holders are moved at once, in the caller's transaction,
        once every row's slug is chosen: storage still says their slugs are taken while the
        rows before the one that takes them are numbered."""
        backend = self.ctx.backend
        live = {base for base, in_trash in zip(bases, trashed, strict=True) if not in_trash}
        holders = slug_holders(backend, "event", live)
        stored = [post for post in holders.values() if post.status == Status.TRASH]
        slugs, given_up = allocate_slugs(
            bases,
            trashed,
            {post.slug for post in stored},
            lambda candidates: backend.taken_slugs("event", candidates),
            self.next_number,
            known={base: base in holders for base in live},
        )
        claimed: set[str] = set()  # trash slugs handed out here
        give_up_slugs(backend, "event", stored, claimed=claimed)
        for row in given_up:
            slugs[row] = enter_trash(backend, "event", record_ids[row], slugs[row], claimed=claimed)
        return slugs


def _with_term_ids(events: EventCollection, rows: _Rows) -> _Rows:
    """Rows whose category and tag names are ids, resolved for the whole batch at once
    (building each event would otherwise ask storage once per row); new names are created,
    in the order rows first name them."""
    for field, terms in (("categories", events._categories), ("tags", events._tags)):
        named = (item for clean in rows for item in clean.get(field, ()) if isinstance(item, str))
        found = terms.resolve(dict.fromkeys(named))
        if found:
            rows = [
                clean | {field: tuple(found.get(i, i) for i in clean[field])}
                if field in clean
                else clean
                for clean in rows
            ]
    return rows


#: The event fields that name other records by id, and the kind each names.
_LINKED_KINDS: dict[str, Kind] = {
    "venue": "venue",
    "organizer": "organizer",
    "categories": "category",
    "tags": "tag",
    "post_parent": "event",
}


def _linked_ids(rows: Iterable[Mapping[str, Any]]) -> dict[Kind, set[int]]:
    """The ids (plain integers, alone, in lists or as ``{"id": n}``) that rows name per kind
    of record: what validation will ask about, asked all at once. Anything else the readers
    look up one by one, as ever."""
    found: dict[Kind, set[int]] = {kind: set() for kind in _LINKED_KINDS.values()}
    for row in rows:
        for field, kind in _LINKED_KINDS.items():
            value = row.get(field)
            for item in value if isinstance(value, list | tuple) else (value,):
                if isinstance(item, Mapping):
                    item = item.get("id")
                if type(item) is int:
                    found[kind].add(item)
    return {kind: ids for kind, ids in found.items() if ids}
