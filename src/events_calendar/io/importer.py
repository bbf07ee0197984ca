"""The import engine: rows from any reader in, records and an ``ImportReport`` out.

The rules, written once for every format:

- **Keys.** Each row is matched to a stored record by its key (``SourceRow.key``, else the
  format's default, see ``keys``). A key repeated within one file is refused on its later
  rows: one file describes a record once.
- **Conflicts.** A matched row is left alone (``on_conflict="skip"``: reported unchanged) or
  brought up to date (``"update"``: only the fields that differ are written, and a row that
  differs in nothing is reported unchanged).
- **Atomic by default.** Every row is checked before anything is written; one refused row
  means nothing is written, and every refused row is reported with its place in the file and
  the reason. ``partial=True`` writes the good rows.
- **Imports at once.** Rows are matched inside the transaction that writes them, under the
  write lock, so two imports of one file at once end as one after the other would.
- **Dry runs** check and classify every row exactly as an import would and write nothing,
  not even an id reservation.
- **The bulk path.** New events are written with ``cal.events.bulk_create`` inside one
  transaction, so a large file loads as fast as the calendar can insert. Venues and
  organizers (small files) are created one by one in the same transaction.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, Literal

import attrs

from ..errors import CalendarError, InvalidParameter, MissingParameter
from ..posts import Made, PostCollection
from ..progress import Advance, ProgressArg, tracking
from ..records import RECORD_CLASSES, Event, Kind, Organizer, Record, Venue, input_fields
from ..row_reader import RowReader
from ..validation import read_flag, read_input
from .compare import DATE_FIELDS, Comparer
from .keys import MAX_KEY_LENGTH, KeyConflict, find_records, is_derived, is_stored
from .report import ImportReport, RowOutcome
from .rows import IdOrName, ImportKind, SourceRow, read_import_status

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["DefaultKey", "OnConflict", "import_rows"]

OnConflict = Literal["skip", "update"]
#: A format's key for a row that names none (``None``: the row matches nothing).
DefaultKey = Callable[[SourceRow], "str | None"]
#: Kinds in the order they are written: what events link to first.
_ORDER: tuple[ImportKind, ...] = ("venue", "organizer", "event")
#: The links a file may give by number (``IdOrName``).
_LINKS: tuple[Kind, ...] = ("venue", "organizer")
#: Matched rows read and compared at a time.
_READ_BATCH = 1000


class _Abort(Exception):
    """Internal: undo every write of an atomic import that refused a row."""


@attrs.define
class _Row:
    """One row on its way through the engine."""

    index: int
    source: SourceRow
    fields: Mapping[str, Any]
    key: str | None
    match: int | None = None
    by_former_key: bool = False  # matched by one of ``source.former_keys``
    outcome: RowOutcome | None = None
    changes: dict[str, Any] = attrs.Factory(dict)

    def refuse(self, reason: str) -> None:
        self.outcome = RowOutcome(self.source.where, "refused", reason=reason)

    def done(
        self, outcome: Literal["created", "updated", "unchanged"], record_id: int | None
    ) -> None:
        self.outcome = RowOutcome(self.source.where, outcome, record_id)


def reason(error: CalendarError) -> str:
    """An error as the one-line reason a report gives for a refused row."""
    if error.fields:
        return "; ".join(f"{name}: {why}" for name, why in error.fields.items())
    return error.message


def import_rows(
    cal: Calendar,
    rows: Iterable[SourceRow],
    *,
    kind: ImportKind = "event",
    dry_run: bool = False,
    on_conflict: OnConflict = "skip",
    partial: bool = False,
    status: str | None = None,
    default_key: DefaultKey | None = None,
    progress: ProgressArg = None,
) -> ImportReport:
    """Import ``rows`` into ``cal`` by the rules of this module; returns what happened.

    ``dry_run`` and ``partial`` are read strictly (``validation.read_flag``), as ``force``
    is: ``dry_run="false"`` read for truthiness would be a dry run, ``dry_run="no"`` one
    that writes."""
    dry_run = read_flag(dry_run, field="dry_run")
    partial = read_flag(partial, field="partial")
    if on_conflict not in ("skip", "update"):
        raise InvalidParameter.one("on_conflict", "send 'skip' or 'update'")
    if status is not None:
        read_import_status(status)
    with _cycle_collection_paused():
        sources = list(rows)
        # Every row counts once it is settled (matched unchanged, refused, updated, created),
        # so a re-import that only finds rows unchanged moves the bar too.
        with tracking(progress, total=len(sources), unit="rows") as advance:
            # Rows are matched under the write lock their writes take, in the same
            # transaction: matched before it, an import running beside another of the same
            # file would find none of the other's records and create every row again. A dry
            # run writes nothing, so it takes no lock.
            try:
                with nullcontext() if dry_run else cal.transaction():
                    work = _matched(cal, sources, status, default_key, on_conflict)
                    pending = [row for row in work if row.outcome is None]
                    advance(len(work) - len(pending))
                    checking = dry_run or (_refused(work) and not partial)
                    if not checking:
                        _write(
                            cal,
                            pending,
                            partial=partial,
                            advance=advance,
                            before=len(work),
                            on_conflict=on_conflict,
                        )
                        _store_keys(cal, [row for row in work if row.by_former_key])
            except _Abort:  # the ids handed to new rows were rolled back with them
                for row in pending:
                    if row.outcome is not None and row.outcome.outcome == "created":
                        row.outcome = attrs.evolve(row.outcome, record_id=None)
            if checking:  # after the lock: it writes nothing
                _check_all(cal, pending)
            advance(len(work))
        outcomes = tuple(row.outcome for row in work if row.outcome is not None)
        note = "" if work else f"no {kind}s found in the file; nothing imported"
        stopped = _refused(work) and not partial
        return ImportReport(kind=kind, rows=outcomes, dry_run=dry_run, stopped=stopped, note=note)


def _refused(rows: list[_Row]) -> bool:
    return any(row.outcome is not None and row.outcome.outcome == "refused" for row in rows)


@contextmanager
def _cycle_collection_paused() -> Iterator[None]:
    """Python's cycle collector off during the import, and back as it was after it.

    An import holds every row until it has checked them all (it must, to be atomic), so it
    allocates many long-lived objects; each collection walks all of them again, which took a
    third of the time of reading a large CSV. Rows, records and reports hold no reference
    cycles, and reference counting still frees everything else as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _numbers_resolved(cal: Calendar, rows: list[SourceRow]) -> list[SourceRow]:
    """Rows whose ``IdOrName`` links are ids (of records that exist and the importer may
    read) or names: one storage lookup per kind for the whole file."""
    asked = {attr: {int(i.text) for row in rows for i in _numbers(row, attr)} for attr in _LINKS}
    known = {
        attr: {i for i, found in cal._context.exist_many(attr, ids).items() if found}
        for attr, ids in asked.items()
        if ids
    }
    return [_resolved(row, known) for row in rows] if known else rows


def _numbers(row: SourceRow, attr: Kind) -> list[IdOrName]:
    items = row.fields.get(attr)
    return [i for i in items if isinstance(i, IdOrName)] if isinstance(items, list) else []


def _resolved(row: SourceRow, known: Mapping[Kind, set[int]]) -> SourceRow:
    changed: dict[str, list[Any]] = {}
    for attr in _LINKS:
        if not _numbers(row, attr):
            continue
        items: list[Any] = []
        for item in row.fields[attr]:
            if isinstance(item, IdOrName):
                number = int(item.text)
                item = number if number in known[attr] else {attr: item.text}
            if item not in items:  # "3, 03" names one organizer once
                items.append(item)
        changed[attr] = items
    return attrs.evolve(row, fields={**row.fields, **changed}) if changed else row


def _prepare(
    rows: list[SourceRow], status: str | None, default_key: DefaultKey | None
) -> list[_Row]:
    """Rows with their keys and forced status (not on a row that ``keeps_status``); reader
    refusals and repeated keys refused."""
    work: list[_Row] = []
    first: dict[tuple[str, str], int] = {}
    for index, source in enumerate(rows):
        forced = status is not None and not source.keeps_status
        fields = {**source.fields, "status": status} if forced else source.fields
        key = (
            source.key if source.key is not None else (default_key(source) if default_key else None)
        )
        row = _Row(index, source, fields, key)
        if source.refused is not None:
            row.refuse(source.refused)
        elif key is not None and len(key) > MAX_KEY_LENGTH and not is_derived(key):
            row.refuse(f"its key (a UID or key column) is longer than {MAX_KEY_LENGTH} characters")
        elif key is not None:
            # By position: two VEVENTs of one UID share their ``where``.
            seen = rows[first.setdefault((source.kind, key), index)].where
            if first[(source.kind, key)] != index:
                earlier = "an earlier row of that name" if seen == source.where else seen
                row.refuse(f"describes the same {source.kind} as {earlier} (key {key!r})")
        work.append(row)
    return work


def _matched(
    cal: Calendar,
    sources: list[SourceRow],
    status: str | None,
    default_key: DefaultKey | None,
    on_conflict: OnConflict,
) -> list[_Row]:
    """The rows with their keys, each matched to its record, or refused: what the import
    does with each, decided from the calendar as it is (a constant number of storage
    queries per kind, and per batch of matched rows)."""
    work = _prepare(_numbers_resolved(cal, sources), status, default_key)
    for each in _ORDER:
        group = [row for row in work if row.source.kind == each and row.outcome is None]
        if group:
            _match(cal, each, group, on_conflict)
    return work


def _match(cal: Calendar, kind: Kind, rows: list[_Row], on_conflict: OnConflict) -> None:
    """Find each row's record; decide skip, unchanged or the changes an update makes."""
    keys = {
        key for row in rows if row.key is not None for key in (row.key, *row.source.former_keys)
    }
    found = find_records(cal.backend, kind, keys) if keys else {}
    actor = cal.actor
    matched: list[tuple[_Row, Record]] = []
    for row in rows:
        record = _found(row, found)
        if isinstance(record, KeyConflict):
            row.refuse(record.reason)
            continue
        if record is None or not actor.can_read(record.author, record.status):
            continue  # a record the importer may not read is not found (its own is made)
        if on_conflict == "update" and not actor.can_edit(kind, record.author, record.status):
            row.refuse(reason(cal._context.refusal(f"edit this {kind}")))  # as ``update`` does
            continue
        row.match = record.id
        if on_conflict == "skip":
            row.done("unchanged", row.match)
        else:
            matched.append((row, record))
    reader = RowReader(RECORD_CLASSES[kind], cal._context.remembering(), creating=False)
    comparer = Comparer(cal)
    for at in range(0, len(matched), _READ_BATCH):
        _compare(cal, reader, comparer, matched[at : at + _READ_BATCH])


def _found(row: _Row, found: Mapping[str, Any]) -> Any:
    """What the row's key names, else what one of its former keys does (noted on the row,
    so that its key is stored in the current form)."""
    if row.key is None:
        return None
    if row.key in found:
        return found[row.key]
    former = next((found[key] for key in row.source.former_keys if key in found), None)
    row.by_former_key = former is not None
    return former


def _compare(
    cal: Calendar, reader: RowReader, comparer: Comparer, matched: list[tuple[_Row, Record]]
) -> None:
    """The changes each matched row makes to its record (none: unchanged). The rows are read
    as updates, dates in their record's zone unless they name one: a batch at a time, a
    column at a time (``RowReader``), or row by row when the batch has a row the shortcut
    refuses, so that each bad row gets its own error."""
    zones = [cal.events._zone_of(r) if isinstance(r, Event) else cal.zone for _, r in matched]
    batch = reader.read_batch([row.fields for row, _ in matched], zones)
    for at, (row, record) in enumerate(matched):
        try:
            clean = batch[at] if batch is not None else reader.read(row.fields, zones[at])
            changed = comparer.changed_fields(record, clean, one_of=row.source.one_of)
        except CalendarError as error:
            row.refuse(reason(error))
            continue
        if isinstance(record, Event) and any(name in DATE_FIELDS for name in changed):
            changed += [name for name in DATE_FIELDS if name in row.fields]
        row.changes = {name: row.fields[name] for name in dict.fromkeys(changed)}
        if not row.changes:
            row.done("unchanged", row.match)


def _collection(cal: Calendar, kind: Kind) -> PostCollection[Any]:
    if kind == "event":
        return cal.events
    return cal.venues if kind == "venue" else cal.organizers


def _check_all(cal: Calendar, rows: list[_Row]) -> None:
    """Classify the remaining rows as an import would, writing nothing (ids included), the
    caller's rights included (an update's in ``_match``): a venue or organizer the caller
    may not create is the row's refusal, and new events are the whole dry run's error, as
    ``bulk_create`` makes them the import's."""
    ctx = cal._context
    if any(row.match is None and row.source.kind == "event" for row in rows):
        ctx.require(ctx.actor.can_create("event"), "create events")
    for row in rows:
        kind = row.source.kind
        if row.match is not None:
            row.done("updated", row.match)  # its changes and rights were read in _match
        elif not ctx.actor.can_create(kind):
            row.refuse(reason(ctx.refusal(f"create {kind}s")))
        else:
            _check_create(cal, row)
            if row.outcome is None:
                row.done("created", None)


def _check_create(cal: Calendar, row: _Row) -> None:
    """Refuse the row if ``create`` would (validation and date order, no writes)."""
    cls = RECORD_CLASSES[row.source.kind]
    try:
        clean = read_input(cls, row.fields, cal._context.remembering(), creating=True)
        if cls is Event:
            cal.events._span(clean, None)
    except CalendarError as error:
        row.refuse(reason(error))


def _write(
    cal: Calendar,
    rows: list[_Row],
    *,
    partial: bool,
    advance: Advance,
    before: int,
    on_conflict: OnConflict,
) -> None:
    """Inside the import's transaction: updates, then creates, then the keys. Raises
    ``_Abort`` (undoing it all) when a row is refused and the import is not partial.
    ``advance`` counts the rows settled, ``before`` of all the import's rows being settled
    already apart from these."""
    refused = False
    done = before - len(rows)
    for row in rows:
        if row.match is not None:
            try:
                with cal.transaction():  # a refused update undoes only itself
                    _collection(cal, row.source.kind).update(row.match, **row.changes)
                row.done("updated", row.match)
            except CalendarError as error:
                row.refuse(reason(error))
                refused = True
            done += 1
            advance(done)
    creates = [row for row in rows if row.match is None and row.outcome is None]
    for kind in ("venue", "organizer"):
        linked = [r for r in creates if r.source.kind == kind]
        refused |= _create_linked(cal, kind, linked, on_conflict)
    done += sum(1 for row in creates if row.source.kind != "event")
    events = [row for row in creates if row.source.kind == "event"]
    counted = done  # the events' bulk load counts on from here
    refused |= _create_events(
        cal, events, partial=partial, advance=lambda created: advance(counted + created)
    )
    if refused and not partial:
        raise _Abort
    _store_keys(cal, rows)


def _store_keys(cal: Calendar, rows: list[_Row]) -> None:
    """The keys of the rows imported (or found) that storage must keep to find their
    records again (``keys.is_stored``)."""
    by_kind: dict[Kind, dict[str, int]] = {}
    calendar = cal.backend.calendar_identity()
    for row in rows:
        out = row.outcome
        if not (row.key and out and out.record_id and out.outcome != "refused"):
            continue
        if is_stored(row.key, out.record_id, calendar):
            by_kind.setdefault(row.source.kind, {})[row.key] = out.record_id
    for kind, keys in by_kind.items():
        cal.backend.set_import_keys(kind, keys)


def _create_linked(
    cal: Calendar,
    kind: Literal["venue", "organizer"],
    rows: list[_Row],
    on_conflict: OnConflict,
) -> bool:
    """Venues or organizers, one ``create`` each; whether any was refused.

    A create answers with the venue or organizer the row describes when one exists
    (``LinkedCollection.create``): that row found its record, as a matched row does. It is
    unchanged when the record holds all its values; when only its status or publication
    date differ (which that match does not compare), it is updated with ``"update"`` and
    left alone, unchanged, with ``"skip"``. (Every such row was reported created.)"""
    collection = cal.venues if kind == "venue" else cal.organizers
    refused = False
    for row in rows:
        try:
            with cal.transaction():
                record: Venue | Organizer
                record, made = collection._create(**row.fields)
                if made == "similar" and on_conflict == "update":
                    changes = {k: v for k, v in row.fields.items() if k in ("status", "date")}
                    record = collection.update(record.id, **changes)
            row.done(_MADE[made] if on_conflict == "update" else _SKIPPED[made], record.id)
        except CalendarError as error:
            row.refuse(reason(error))
            refused = True
    return refused


#: A linked record's create, reported: with ``on_conflict="update"``, and with ``"skip"``.
_MADE: dict[Made, Literal["created", "updated", "unchanged"]] = {
    "created": "created",
    "same": "unchanged",
    "similar": "updated",
}
_SKIPPED: dict[Made, Literal["created", "updated", "unchanged"]] = {
    **_MADE,
    "similar": "unchanged",
}


def _create_events(cal: Calendar, rows: list[_Row], *, partial: bool, advance: Advance) -> bool:
    """New events through the bulk path; whether any row was refused.

    ``bulk_create`` checks every row before it writes and stops at the first bad one, so
    only when it refuses a row is each row checked on its own, to report every bad row (and,
    for a partial import, to load the good ones)."""
    if not rows:
        return False
    try:
        with cal.transaction():  # a refused row undoes the venues made for the batch too
            ids = _bulk(cal, rows, advance)
    except (InvalidParameter, MissingParameter):
        for row in rows:
            _check_create(cal, row)
        good = [row for row in rows if row.outcome is None]
        if len(good) == len(rows):
            raise  # no row is at fault on its own: the error is the whole import's
        if not partial:  # held back: reported as what partial=True would make of them
            for row in good:
                row.done("created", None)
            return True
        if not good:
            return True
        ids = _bulk(cal, good, advance)
        rows = good
        refused = True
    else:
        refused = False
    for row, record_id in zip(rows, ids, strict=True):
        row.done("created", record_id)
    return refused


def _bulk(cal: Calendar, rows: list[_Row], advance: Advance) -> list[int]:
    fields = _with_link_ids(cal, [row.fields for row in rows])
    return cal.events.bulk_create(fields, progress=lambda done, _total: advance(done))


def _with_link_ids(cal: Calendar, rows: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows whose inline venues and organizers are ids, each distinct one found or created
    once (``LinkedCollection.create``: the same record the row alone would link to), rather
    than looked up again for every row that names it."""
    made: dict[Any, int] = {}
    found: list[Mapping[str, Any]] = []
    linked = (("venue", cal.venues), ("organizer", cal.organizers))
    known = {attr: input_fields(collection._cls) for attr, collection in linked}

    def link_id(attr: str, collection: Any, data: Mapping[str, Any]) -> int:
        given = {k: v for k, v in data.items() if k in known[attr]}
        try:
            key: Any = (attr, frozenset(given.items()))
        except TypeError:  # an unhashable value: compare by its text
            key = (attr, repr(sorted(given.items())))
        if key not in made:
            made[key] = collection.create(**given).id
        return made[key]

    for fields in rows:
        changed: dict[str, Any] | None = None
        for attr, collection in linked:
            items = fields.get(attr)
            if isinstance(items, list) and any(_inline(item) for item in items):
                changed = dict(changed or fields)
                changed[attr] = [
                    link_id(attr, collection, item) if _inline(item) else item for item in items
                ]
        found.append(changed or fields)
    return found


def _inline(item: object) -> bool:
    """Whether a link item is a venue's or organizer's data (not an id or ``{"id": n}``)."""
    return isinstance(item, Mapping) and "id" not in item
