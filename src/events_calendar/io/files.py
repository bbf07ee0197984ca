"""``cal.import_file`` and ``cal.export_file``: a file's format to its reader or writer.

The format comes from ``format=`` or, when not given, from the file's extension (``.csv``,
``.ics``/``.ical``/``.ifb``, ``.json``); ``format=`` takes the same names (``ical``).
iCalendar support lives in ``io.ical`` and needs the ``io`` extra; it is imported only when
an iCalendar file is read or written.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import attrs

from ..dates import default_window, format_wall, query_bound
from ..errors import CalendarError, Conflict, InvalidParameter
from ..progress import ProgressArg
from ..transfer import FAMILIES, restore
from ..validation import read_flag
from .backup import BackupSnapshot, backup_rows, read_backup, write_backup
from .csv_read import default_key, read_csv
from .csv_write import write_csv
from .formats import FORMAT_NAMES, FORMATS, Format
from .importer import OnConflict, import_rows
from .report import ImportReport, RowOutcome
from .rows import MAX_LINE, ImportKind, SourceRow, UnreadableFile, one_line, read_import_status
from .walk import walk_events

if TYPE_CHECKING:
    from ..calendar import Calendar
    from ..storage import Backend

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "FormatUnavailable",
    "export_file",
    "format_of",
    "import_file",
]

_KINDS: dict[str, ImportKind] = {
    "event": "event",
    "events": "event",
    "venue": "venue",
    "venues": "venue",
    "organizer": "organizer",
    "organizers": "organizer",
}


class FormatUnavailable(CalendarError):
    """A file format whose support is not installed."""

    code = "format_unavailable"


def format_of(path: str | Path, given: str | None) -> Format:
    """The format named by ``given`` (a name of ``FORMAT_NAMES``, with or without a leading
    dot, in any case), else by the extension of ``path``."""
    if given is not None:
        found = FORMATS.get("." + given.lower().lstrip(".")) if isinstance(given, str) else None
        if found is None:
            raise InvalidParameter.one(
                "format", f"{given!r} is no format; send csv, ics (or ical, ifb) or json"
            )
        return found
    found = FORMATS.get(Path(path).suffix.lower())
    if found is None:
        raise InvalidParameter.one(
            "format",
            f"cannot tell the format of {str(path)!r} from its extension; "
            "name it .csv, .ics or .json, or pass format='csv' (--format csv)",
        )
    return found


def _ical() -> Any:
    try:
        return importlib.import_module("events_calendar.io.ical")
    except ImportError as error:
        raise FormatUnavailable(
            f"iCalendar files need the 'io' extra: pip install 'events-calendar[io]' ({error})"
        ) from None


def _kind(kind: str) -> ImportKind:
    found = _KINDS.get(kind.lower())
    if found is None:
        raise InvalidParameter.one("kind", "send event, venue or organizer")
    return found


@attrs.frozen
class _Keyed:
    """What a format other than CSV is, holds and is keyed by, for refusing CSV options."""

    name: str
    holds: str
    keyed_by: str
    kinds: frozenset[ImportKind]


_NOT_CSV: dict[Format, _Keyed] = {
    "ics": _Keyed("an iCalendar file", "holds events", "its UIDs", frozenset({"event"})),
    "json": _Keyed("a JSON backup", "holds every kind", "ids and slugs", frozenset()),
}


#: An import window as given: a start and an end (dates as list filters take them, either
#: ``None`` for the default window's side).
WindowArg = tuple[object, object] | None


def _refuse_csv_options(
    fmt: Format, kind: str | None, mapping: Mapping[str, str] | None, key: str | None
) -> None:
    """``InvalidParameter`` for an option only CSV files have, given for another format:
    ignored, it would let a caller believe it did something. ``kind`` stays for what a
    format holds anyway (``event`` for iCalendar)."""
    keyed = _NOT_CSV[fmt]
    if kind is not None and _kind(kind) not in keyed.kinds:
        raise InvalidParameter.one(
            "kind", f"{keyed.name} {keyed.holds}; kind= (--kind) says what a CSV file holds"
        )
    if mapping:
        raise InvalidParameter.one("map", f"map= (--map) reads CSV columns; {keyed.name} has none")
    if key is not None:
        raise InvalidParameter.one(
            "key", f"a key column is a CSV column; {keyed.name} is keyed by {keyed.keyed_by}"
        )


def import_file(
    cal: Calendar,
    path: str | Path,
    *,
    format: str | None = None,
    kind: str | None = None,
    dry_run: bool = False,
    on_conflict: OnConflict = "skip",
    partial: bool = False,
    mapping: Mapping[str, str] | None = None,
    status: str | None = None,
    key: str | None = None,
    window: WindowArg = None,
    progress: ProgressArg = None,
    max_line: int = MAX_LINE,
) -> ImportReport:
    """Import a CSV, iCalendar or JSON backup file (see ``Calendar.import_file``).

    ``kind`` (CSV: what the file holds, events when not given), ``mapping`` and ``key`` are
    CSV options, refused for the other formats (``kind="event"`` stays for iCalendar);
    ``window`` bounds an iCalendar file's recurring events and is refused for the others."""
    # Read strictly (``validation.read_flag``) before the file is opened: a backup's import
    # takes them from here, CSV and iCalendar ones through ``import_rows``, which reads them too.
    dry_run = read_flag(dry_run, field="dry_run")
    partial = read_flag(partial, field="partial")
    fmt = format_of(path, format)
    if fmt == "csv":
        record_kind = _kind(kind or "event")
    else:
        _refuse_csv_options(fmt, kind, mapping, key)
    if window is not None and fmt != "ics":
        raise InvalidParameter.one(
            "window", "window= (--window) bounds the recurring events of an iCalendar file"
        )
    bounds = _import_window(cal, window)  # read before the file is opened, as the flags
    if fmt == "json" and status is not None:
        raise InvalidParameter.one(
            "status",
            "a JSON backup keeps each record's own status; status= (--status) sets the "
            "status of a CSV or iCalendar file's records",
        )
    if status is not None:  # read before the file is opened, as the flags
        read_import_status(status)
    where = str(path)
    options: dict[str, Any] = {
        "dry_run": dry_run,
        "on_conflict": on_conflict,
        "partial": partial,
        "status": status,
        "progress": progress,
    }
    try:
        stream: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise UnreadableFile(where, error.strerror or str(error)) from None
    with stream:
        if fmt == "csv":
            found = read_csv(
                stream,
                where=where,
                kind=record_kind,
                mapping=mapping,
                key=key,
                max_line=max_line,
                status_given=status is not None,
                zone=cal.zone,
            )
            report = import_rows(
                cal, found.rows, kind=record_kind, default_key=default_key, **options
            )
            notes = (
                f"ignored columns ({why}): " + ", ".join(headers)
                for why, headers in (
                    ("no such field", found.ignored),
                    ("the same field as an earlier column", found.repeated),
                )
                if headers
            )
            note = _join(*notes, report.note)
            return attrs.evolve(report, note=note) if note else report
        if fmt == "ics":
            ical = _ical()
            data = ical.read_file(stream, where=where, max_line=max_line)
            outside: list[str] = []
            rows: Iterator[SourceRow] = ical.read_rows(
                data, where=where, window=bounds, outside=outside
            )
            del data  # the rows hold the text they need
            report = import_rows(cal, rows, kind="event", **options)
            if not outside:
                return report
            # A file of series that all fall outside the window does hold events.
            said = report.note if report.rows else ""
            return attrs.evolve(report, note=_join(said, _outside_note(cal, outside, bounds)))
        return _import_backup(cal, read_backup(stream, where=where), options)


def _join(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


def _import_window(cal: Calendar, window: WindowArg) -> tuple[datetime, datetime]:
    """The span an iCalendar file's recurring events are expanded over, in UTC: the
    calendar's default list window (yesterday to 24 months ahead, by its clock and zone),
    or ``window``'s days, read as list filters read ``start_date`` and ``end_date``."""
    start, end = default_window(cal.now(), cal.zone)
    if window is None:
        return start, end
    if isinstance(window, str | bytes) or not isinstance(window, tuple | list) or len(window) != 2:
        raise InvalidParameter.one(
            "window", "send (start, end): two dates, None for the default window's side"
        )
    now = cal.now()
    first, last = window
    if first is not None:
        start = query_bound(
            first, edge="start", strict=False, zone=cal.zone, now=now, field="window"
        )
    if last is not None:
        end = query_bound(last, edge="end", strict=False, zone=cal.zone, now=now, field="window")
    if end < start:
        raise InvalidParameter.one("window", "the window ends before it starts")
    return start, end


#: The series a note names before it counts the rest.
_NAMED_SERIES = 5


def _outside_note(cal: Calendar, uids: list[str], bounds: tuple[datetime, datetime]) -> str:
    """What became of series with no occurrence in the window: not imported, and how to."""
    days = " to ".join(format_wall(b.astimezone(cal.zone))[:10] for b in bounds)
    named = ", ".join(f"UID {one_line(uid)}" for uid in uids[:_NAMED_SERIES])
    more = f" and {len(uids) - _NAMED_SERIES} more" if len(uids) > _NAMED_SERIES else ""
    was, it = ("was", "it") if len(uids) == 1 else ("were", "them")
    return (
        f"{len(uids)} recurring series with no occurrence from {days} {was} not imported "
        f"({named}{more}); import {it} with window=(start, end) (--window START END)"
    )


def _import_backup(
    cal: Calendar, snapshot: BackupSnapshot, options: dict[str, Any]
) -> ImportReport:
    """A backup restored exactly into an empty calendar, merged into one with data (by id
    and slug when the backup is of this calendar, by slug when it is another's).

    A restore first checks the whole backup (``BackupSnapshot.check``): one bad record
    refuses the file, naming it, and nothing is written; so ``partial`` is refused for it,
    not ignored. A merge checks each record as it imports it, and refuses a bad one alone.
    (``status`` is refused for any backup, by ``import_file``: each record has its own.)"""
    _require_backup_rights(cal)
    backend = cal.backend
    if any(backend.last_id(family) for family in FAMILIES):
        own = snapshot.calendar_identity() == backend.calendar_identity()
        return import_rows(cal, backup_rows(snapshot, own=own), kind="event", **options)
    if options["partial"]:
        raise InvalidParameter.one(
            "partial",
            "a backup restores into an empty calendar whole or not at all; partial= "
            "(--partial) applies to merging one into a calendar with data",
        )
    snapshot.check()  # before anything is written, and for a dry run too
    rows = tuple(
        RowOutcome(f"{kind} {record.id}", "created", None if options["dry_run"] else record.id)
        for kind, records in snapshot.records.items()
        for record in records
    )
    if not options["dry_run"]:
        _restore_into_empty(snapshot, backend)
    restoring = "would restore" if options["dry_run"] else "restored"
    note = f"{restoring} the whole calendar (ids, users and secrets kept)"
    return ImportReport(kind="record", rows=rows, dry_run=options["dry_run"], note=note)


def _restore_into_empty(snapshot: BackupSnapshot, backend: Backend) -> None:
    """Restore ``snapshot`` into ``backend`` if it is still empty, checked in the write
    transaction that restores it.

    The check ``_import_backup`` makes first (merge or restore) and the one ``restore``
    makes run before its transaction: two restores into one empty SQLite or PostgreSQL
    calendar could both pass them, and the second then failed on the first's ids (``An id
    among [1] is taken``) or, for records without clashing ids, stored the backup twice.
    Both backends hold one write transaction at a time (SQLite's ``BEGIN IMMEDIATE``,
    PostgreSQL's advisory lock), so a check made inside it sees what the other committed:
    the second is refused as a restore into a calendar with data is (``Conflict``), and can
    be imported again to merge. The backup is checked before (``snapshot.check``), outside
    the write lock."""
    with backend.transaction():
        if any(backend.last_id(family) for family in FAMILIES):
            raise Conflict(
                "The target calendar is not empty: another restore or write filled it "
                "while this backup was read; import the backup again to merge it.",
                fields={"path": "import again to merge, or restore into an empty calendar"},
            )
        restore(snapshot, backend)


def export_file(
    cal: Calendar,
    path: str | Path,
    *,
    format: str | None = None,
    progress: ProgressArg = None,
    **filters: Any,
) -> int:
    """Write events (or, for JSON, the whole calendar) to a file; returns how many events
    were written. ``filters`` are those of ``cal.events.list``; see ``walk_events`` for how
    an export differs from a list."""
    fmt = format_of(path, format)
    if fmt == "json":
        if filters:
            raise InvalidParameter.one(
                "format", "a JSON backup holds the whole calendar; filters apply to csv and ics"
            )
        _require_backup_rights(cal)
        with open(path, "w", encoding="utf-8") as text:
            return write_backup(cal.backend, text)["event"]
    batches = walk_events(cal, filters, progress=progress)
    if fmt == "csv":
        with open(path, "w", encoding="utf-8", newline="") as text:
            return write_csv(cal, batches, text)
    # As the feed does (``http.feed``): a calendar application would show a protected
    # event's blanks as its content.
    shown = ([event for event in batch if not event.locked] for batch in batches)
    with open(path, "wb") as binary:
        written: int = _ical().write_calendar(cal, shown, binary)
    return written


def _require_backup_rights(cal: Calendar) -> None:
    """A backup holds every record whatever its status, the users and their hashed
    secrets: only those who manage users write or restore one."""
    cal._context.require(cal.actor.manages_users, "back up or restore a whole calendar")
