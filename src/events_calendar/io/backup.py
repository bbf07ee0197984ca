"""JSON backups of a whole calendar, and restoring them.

A backup holds everything ``transfer.copy_calendar`` copies: every record of every kind in
every status (ids, slugs, links in order, statuses, passwords), former slugs, users and the
digests of their secrets (never a secret itself: the calendar stores none), import keys, the
id sequences and the calendar's identity (which its iCalendar UIDs carry). Records are
written with the storage converter, so a field is spelled in a backup as the database stores
it. The file is one JSON object::

    {"format": "events-calendar-backup", "version": 1,
     "sequences": {"post": 12, "term": 3, "user": 1, "credential": 1},
     "records": {"venue": [...], "organizer": [...], "category": [...], "tag": [...],
                 "event": [...]},
     "slug_aliases": {"event": {"gala": 7}, ...}, "import_keys": {"event": {...}, ...},
     "users": [...], "credentials": [...], "calendar_identity": "5f0c2a9e4b7d1386"}

It is written a record at a time, so memory stays bounded by a batch of records. Restoring
into an empty calendar is a copy from the file (one transaction, ids kept). Importing into a
calendar that has data merges instead, through the import engine: each venue, organizer and
event is matched by its id and then its slug (current or former) when the backup is of the
same calendar, by its slug alone when it is another calendar's, and its links travel by name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import cattrs

from ..coerce import MAX_INT
from ..converters import make_storage_converter
from ..records import (
    KINDS,
    RECORD_CLASSES,
    Credential,
    Event,
    Kind,
    Record,
    User,
    input_fields,
)
from ..statuses import Status
from ..storage import CALENDAR_IDENTITY, Backend, Family
from ..transfer import FAMILIES, ORDER, BackendSnapshot
from .backup_checks import FAMILY_KINDS, backup_problems
from .rows import SourceRow, UnreadableFile, refuse_utf16, too_large

__all__ = ["FORMAT", "BackupSnapshot", "backup_rows", "read_backup", "write_backup"]

FORMAT = "events-calendar-backup"
VERSION = 1
#: The problems of a backup its refusal names (``BackupSnapshot.check``).
_SHOWN = 10


def write_backup(backend: Backend, stream: IO[str]) -> dict[str, int]:
    """Write the whole calendar of ``backend`` as a backup; returns the records per kind."""
    source = BackendSnapshot(backend)
    converter = make_storage_converter()
    sequences = {family: source.last_id(family) for family in FAMILIES}
    stream.write(f'{{"format": "{FORMAT}", "version": {VERSION},\n')
    stream.write(f' "sequences": {json.dumps(sequences)},\n "records": {{')
    counts: dict[str, int] = {}
    for n, cls in enumerate(ORDER):
        stream.write(f'{"," if n else ""}\n  "{cls.kind}": [')
        counts[cls.kind] = 0
        for batch in source.batches(cls):
            for record in batch:
                stream.write("," if counts[cls.kind] else "")
                stream.write("\n   " + json.dumps(converter.unstructure(record)))
                counts[cls.kind] += 1
        stream.write("]")
    users = source.list_users()
    rest = {
        "slug_aliases": {kind: source.slug_aliases(kind) for kind in KINDS},
        "import_keys": {kind: source.import_keys(kind) for kind in KINDS},
        "users": converter.unstructure(users),
        "credentials": [
            converter.unstructure(c) for user in users for c in source.credentials(user.id)
        ],
        "calendar_identity": backend.calendar_identity(),
    }
    stream.write("},\n")
    stream.write(",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in rest.items()))
    stream.write("}\n")
    return counts


class BackupSnapshot:
    """A backup file read as a ``transfer.Snapshot``: what ``restore`` copies from.

    Its contents are checked (``check``, see ``backup_checks``) when it is restored, not
    when it is read: a merge into a calendar with data reads each record through the
    calendar's own checks, and refuses a bad one alone.

    Each id sequence is the one the file states, raised to the highest id the file holds of
    its family when it states less: a calendar whose sequence lagged its ids would hand out
    a taken id at its next create, and fail so for good. It is raised, not refused, because
    the records themselves are sound and the file says what they are: the sequence only
    decides which ids come next, which the calendar it was written from could not have
    handed out either (a sequence above the ids, from removed records, is kept).
    """

    def __init__(self, data: dict[str, Any], where: str) -> None:
        converter = make_storage_converter(strict_text=True)  # "None" was a restored name
        self._where = where
        self._checked = False
        self.records: dict[Kind, list[Record]] = {}
        for kind in KINDS:
            items = _objects(data["records"].get(kind, []), f"records.{kind}", where)
            self.records[kind] = [
                _record(converter, kind, item, n, where) for n, item in enumerate(items)
            ]
        self._aliases = _id_maps(data.get("slug_aliases", {}), "slug_aliases", where)
        self._keys = _id_maps(data.get("import_keys", {}), "import_keys", where)
        self._identity = data.get("calendar_identity")
        if self._identity is not None and not (
            isinstance(self._identity, str) and CALENDAR_IDENTITY.fullmatch(self._identity)
        ):
            raise UnreadableFile(where, "its calendar_identity is not 16 lowercase hex digits")
        users = _objects(data.get("users", []), "users", where)
        secrets = _objects(data.get("credentials", []), "credentials", where)
        try:
            self._users = [converter.structure(u, User) for u in users]
            credentials = [converter.structure(c, Credential) for c in secrets]
        except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as error:
            raise UnreadableFile(where, f"its users are not valid: {error}") from None
        self._all_credentials = credentials
        self._credentials: dict[int, list[Credential]] = {}
        for credential in credentials:
            self._credentials.setdefault(credential.user_id, []).append(credential)
        highest: dict[str, list[int]] = {
            "post": [r.id for kind in FAMILY_KINDS["post"] for r in self.records[kind]],
            "term": [r.id for kind in FAMILY_KINDS["term"] for r in self.records[kind]],
            "user": [u.id for u in self._users],
            "credential": [c.id for c in credentials],
        }
        self._sequences: dict[str, int] = {
            family: max(_count(data["sequences"], family, where), *highest[family], 0)
            for family in FAMILIES
        }

    def check(self) -> None:
        """Raise ``UnreadableFile`` naming every problem (up to ``_SHOWN`` of them) of a
        backup no calendar could hold (``backup_checks``); ``restore`` calls it before it
        writes anything."""
        if self._checked:
            return
        problems = backup_problems(
            self.records, self._aliases, self._keys, self._users, self._all_credentials
        )
        if problems:
            more = len(problems) - _SHOWN
            shown = "; ".join(problems[:_SHOWN]) + (f"; and {more:,} more" if more > 0 else "")
            raise UnreadableFile(self._where, f"it holds what no calendar can: {shown}")
        self._checked = True

    def last_id(self, family: Family) -> int:
        return self._sequences[family]

    def batches(self, cls: type[Record]) -> Iterator[list[Record]]:
        found = sorted(self.records[cls.kind], key=lambda r: r.id)
        if found:
            yield found

    def slug_aliases(self, kind: Kind) -> dict[str, int]:
        return dict(self._aliases.get(kind, {}))

    def import_keys(self, kind: Kind) -> dict[str, int]:
        return dict(self._keys.get(kind, {}))

    def calendar_identity(self) -> str | None:
        return self._identity

    def list_users(self) -> list[User]:
        return list(self._users)

    def credentials(self, user_id: int) -> list[Credential]:
        return sorted(self._credentials.get(user_id, []), key=lambda c: c.id)


def _count(found: Any, name: str, where: str) -> int:
    value = found.get(name, 0) if isinstance(found, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_INT:
        raise UnreadableFile(where, f"its sequence {name!r} is not a count")
    return value


def _objects(found: Any, name: str, where: str) -> list[dict[str, Any]]:
    """``found`` when it is a list of JSON objects (what a backup holds its records, users
    and credentials in), else ``UnreadableFile`` naming ``name``: a hand-edited ``5`` or
    ``null`` there is a refused file, not a ``TypeError``."""
    if not isinstance(found, list) or not all(isinstance(item, dict) for item in found):
        raise UnreadableFile(where, f"its {name!r} is not a list of objects")
    return found


def _record(converter: cattrs.Converter, kind: Kind, item: Any, n: int, where: str) -> Record:
    try:
        record: Record = converter.structure(item, RECORD_CLASSES[kind])
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as error:
        raise UnreadableFile(where, f"{kind} number {n + 1} is not valid: {error}") from None
    return record


def _id_maps(found: Any, name: str, where: str) -> dict[Kind, dict[str, int]]:
    if not isinstance(found, dict) or not all(
        kind in KINDS
        and isinstance(pairs, dict)
        and all(
            isinstance(i, int) and not isinstance(i, bool) and 0 < i <= MAX_INT
            for i in pairs.values()
        )
        for kind, pairs in found.items()
    ):
        raise UnreadableFile(where, f"its {name!r} is not a map of kinds to slugs and ids")
    return found


def read_backup(stream: IO[bytes], *, where: str) -> BackupSnapshot:
    """A backup file's contents; ``UnreadableFile`` when it is not one, or when it is too
    large for memory.

    A backup is one JSON object, legitimately one long line, and is read whole: a line or
    size limit would refuse the backups of large calendars, so the bound is the machine's
    memory, and running out of it is reported as one sentence like any unreadable file.
    """
    try:
        return _read_backup(stream, where)
    except MemoryError:
        raise too_large(stream, where, "a backup is read whole") from None


def _read_backup(stream: IO[bytes], where: str) -> BackupSnapshot:
    text = stream.read()
    refuse_utf16(text, where)
    try:
        data = json.loads(text.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UnreadableFile(where, "it is not UTF-8 text; a backup is a JSON file") from None
    except RecursionError:  # Python's parser recurses once per level of nesting
        raise UnreadableFile(
            where, "it nests arrays or objects deeper than a backup does; it is no backup"
        ) from None
    except json.JSONDecodeError as error:
        raise UnreadableFile(
            where, f"it is not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UnreadableFile(where, f"it is JSON but no calendar backup (no format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise UnreadableFile(
            where, f"its version {data.get('version')!r} is not one this library reads ({VERSION})"
        )
    if not isinstance(data.get("records"), dict) or not isinstance(data.get("sequences"), dict):
        raise UnreadableFile(where, "it has no 'records' and 'sequences'")
    return BackupSnapshot(data, where)


def backup_rows(snapshot: BackupSnapshot, *, own: bool) -> Iterator[SourceRow]:
    """A backup's venues, organizers and events as import rows, for merging into a calendar
    with data, an event's links given by name (and a venue's or organizer's own fields, so
    the same record is found or made).

    Each row is keyed by its id, then its slug, when the backup is the calendar's ``own``
    (the same identity: ids name the same records), else by its slug alone: another
    calendar's ids name unrelated records here, which a match would skip or overwrite.
    """
    linked: dict[int, dict[str, Any]] = {}
    converter = make_storage_converter()

    def key(record: Record) -> str:
        return f"id+slug:{record.id}|{record.slug}" if own else f"slug:{record.slug}"

    for kind in ("venue", "organizer"):
        for record in _live(snapshot.records[kind]):
            fields = _fields(converter, record)
            linked[record.id] = fields
            yield SourceRow(f"{kind} {record.id}", kind, fields, key=key(record))
    terms = {r.id: r.name for kind in ("category", "tag") for r in snapshot.records[kind]}
    for event in _live(snapshot.records["event"]):
        assert isinstance(event, Event)
        fields = _fields(converter, event)
        fields.pop("post_parent", None)  # ids of another calendar
        for name in ("venue", "organizer"):
            fields[name] = [linked[i] for i in getattr(event, name) if i in linked]
        for name in ("categories", "tags"):
            fields[name] = [terms[i] for i in getattr(event, name) if i in terms]
        yield SourceRow(f"event {event.id}", "event", fields, key=key(event))


def _live(records: list[Record]) -> list[Record]:
    """Records out of the trash: a merge brings the backup's trash no further."""
    return [r for r in records if getattr(r, "status", None) != Status.TRASH]


def _fields(converter: cattrs.Converter, record: Record) -> dict[str, Any]:
    """A record's writable fields as ``create`` takes them (no id, no author: both are the
    other calendar's). A field that is ``None`` was never set (an event's ``website``, shown
    as its permalink): it is left out, as it was when the record was made, since given as
    ``None`` an update would clear it to ``""``."""
    data: dict[str, Any] = converter.unstructure(record)
    inputs = input_fields(RECORD_CLASSES[record.kind])
    return {k: v for k, v in data.items() if k in inputs and k != "author" and v is not None}
