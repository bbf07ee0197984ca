"""Which stored record a row stands for: import keys, and the formats' default keys.

A key is text whose prefix says how it is found:

- ``uid:<UID>``: an iCalendar UID. The UIDs a calendar writes for its own events
  (``event-<id>@<calendar identity>.events-calendar``, see ``own_uid``) name the event
  directly when they carry this calendar's identity, so a calendar's own export imports back
  as unchanged; any other UID, another calendar's own included, is looked up among stored
  import keys, so an event of another calendar never lands on a local event of the same id.
- ``title+start:<title>|<YYYY-MM-DD HH:MM:SS>``: the event with that title (ignoring case)
  starting at that wall-clock time, as the reference's CSV importer matches a row to an
  existing event (``match_existing_post``); a start in the second pass of a repeated hour
  ends with its UTC offset (``dates.repeat_offset``), so the two passes are two starts.
  Found from the events themselves, never stored.
- ``name:<name>``: the venue or organizer of that name (ignoring case), oldest first, as the
  reference's importer finds venues and organizers. Never stored.
- ``slug:<slug>``: the record with that slug, current or former (a JSON backup of another
  calendar, whose ids mean nothing here).
- ``id+slug:<n>|<slug>``: the record with that id, else that slug (a JSON backup of this
  calendar, see ``backup_rows``); when the id names one live record and the slug another,
  the key matches neither: it is a ``KeyConflict``, and the row is refused.
- anything else (``csv:<column>:<value>`` from ``--key``, the column named as headers are
  matched, ``csv_columns.normalize``): a stored import key.

A key that names a record no longer there, or one in the trash, matches nothing: the row
creates a record again, and the key moves to it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

import attrs

from ..dates import format_wall, repeat_offset
from ..records import RECORD_CLASSES, Kind, Record
from ..statuses import Status
from ..storage import Backend

__all__ = [
    "MAX_KEY_LENGTH",
    "OWN_UID",
    "KeyConflict",
    "column_key",
    "find_records",
    "is_derived",
    "is_stored",
    "own_event",
    "own_uid",
    "title_start_key",
]

#: The UID a calendar gives its own events in iCalendar files: the event's id, and the
#: calendar's identity (``Storage.calendar_identity``), since every calendar numbers from 1.
OWN_UID = "event-{id}@{calendar}.events-calendar"
_OWN = re.compile(r"uid:event-([1-9][0-9]{0,17})@([0-9a-f]{16})\.events-calendar")
_DERIVED = ("title+start:", "name:", "id+slug:", "slug:")
#: The longest key (a UID or a key column's value) an import keeps: every backend indexes
#: it, and PostgreSQL's B-tree takes no entry past 2,704 bytes (four bytes a character at
#: most). Real UIDs are a few dozen characters.
MAX_KEY_LENGTH = 500


@attrs.frozen
class KeyConflict:
    """What ``find_records`` gives for a key whose parts name two different records: the
    row could be either, so it is refused with ``reason`` rather than guessed."""

    reason: str


def own_uid(record_id: int, calendar: str) -> str:
    """The UID of an event of the calendar whose identity is ``calendar``: stable for the
    event's life, whatever else changes."""
    return OWN_UID.format(id=record_id, calendar=calendar)


def own_event(key: str, calendar: str) -> int | None:
    """The id of the event a ``uid:`` key names when its UID is one ``calendar`` wrote."""
    own = _OWN.fullmatch(key)
    return int(own.group(1)) if own and own.group(2) == calendar else None


def column_key(column: str, value: str) -> str:
    """The stored key of a key column's ``value`` (``--key`` of a CSV import, a column of the
    caller's own in ``from_dataframe``): one form for both, with the column named as CSV
    headers are matched (``csv_columns.normalize``), so that a frame with the ``ID`` column
    of a CSV file imported with ``--key ID`` finds its records."""
    return f"csv:{column}:{value}"


def title_start_key(title: str, start: str) -> str:
    """The reference's match for an event row: its title and wall-clock start (with its UTC
    offset in the second pass of a repeated hour, as the CSV reader writes it)."""
    return f"title+start:{title.strip().casefold()}|{start}"


def is_stored(key: str, record_id: int, calendar: str) -> bool:
    """Whether the key must be kept in storage (a UID or key column) to find ``record_id``
    again: not when it is derived from the record's own fields, nor when it is the record's
    own UID in the calendar whose identity is ``calendar``. One of this calendar's UIDs whose
    event was deleted is kept for the event that replaced it."""
    return not is_derived(key) and own_event(key, calendar) != record_id


def is_derived(key: str) -> bool:
    """Whether the key is made from the record's own fields (never stored, so not bounded
    by ``MAX_KEY_LENGTH``)."""
    return key.startswith(_DERIVED)


def find_records(backend: Backend, kind: Kind, keys: Collection[str]) -> dict[str, Any]:
    """The live (not trashed) record each key names, or a ``KeyConflict``; unmatched keys
    are absent.

    A constant number of storage queries per prefix, whatever the number of keys (and one
    per slug).
    """
    candidates: dict[str, list[int]] = {}
    stored: list[str] = []
    titles: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    slugs: list[str] = []
    pairs: dict[str, tuple[int, int | None]] = {}  # id+slug key -> (its id, its slug's)
    calendar = backend.calendar_identity() if kind == "event" else ""
    for key in keys:
        prefix, _, rest = key.partition(":")
        own = own_event(key, calendar) if calendar else None
        if own is not None:
            candidates[key] = [own]
            stored.append(key)  # its event deleted, the key may name the one that replaced it
        elif prefix == "title+start":
            title = rest.rpartition("|")[0]
            titles.setdefault(title, []).append(key)
        elif prefix == "name":
            names.setdefault(rest.strip().casefold(), []).append(key)
        elif prefix == "id+slug":
            number, _, slug = rest.partition("|")
            pairs[key] = (int(number), backend.find_slug(kind, slug))
        elif prefix == "slug":
            slugs.append(key)
        else:
            stored.append(key)
    for key, record_id in backend.find_import_keys(kind, stored).items():
        candidates.setdefault(key, []).append(record_id)
    for key in slugs:
        by_slug = backend.find_slug(kind, key[5:])
        if by_slug is not None:
            candidates.setdefault(key, []).append(by_slug)
    for by_name in (titles, names):
        for name, ids in backend.find_names(kind, list(by_name)).items():
            for key in by_name[name]:
                candidates[key] = ids
    wanted = {i for ids in candidates.values() for i in ids}
    wanted |= {i for pair in pairs.values() for i in pair if i is not None}
    live = _live(backend, kind, wanted)
    found: dict[str, Any] = {}
    for key, (record_id, slug_id) in pairs.items():
        by_id = live.get(record_id)
        by_slug = live.get(slug_id) if slug_id is not None else None
        if by_id is not None and by_slug is not None and by_id.id != by_slug.id:
            found[key] = KeyConflict(
                f"its id names {kind} {by_id.id} ({by_id.slug!r}) but its slug "
                f"{key.partition('|')[2]!r} names {kind} {by_slug.id}; change one of the two "
                "slugs and import again"
            )
        elif by_id is not None or by_slug is not None:
            found[key] = by_id if by_id is not None else by_slug
    for key, ids in candidates.items():
        for record_id in ids:
            record = live.get(record_id)
            if record is not None and _fits(key, record):
                found[key] = record
                break
    return found


def _live(backend: Backend, kind: Kind, ids: Iterable[int]) -> dict[int, Any]:
    records: dict[int, Any] = backend.get_many(RECORD_CLASSES[kind], ids)
    return {i: r for i, r in records.items() if r.status != Status.TRASH}


def _fits(key: str, record: Record) -> bool:
    """A title+start key also needs the start to match; other keys found the record."""
    if not key.startswith("title+start:"):
        return True
    start = key.rpartition("|")[2]
    moment = record.start_date  # type: ignore[union-attr]
    return bool(format_wall(moment) + repeat_offset(moment) == start)
