"""Which stored record a row stands for: import keys, and the formats' default keys.

A key is text whose prefix says how it is found:

- ``uid:<UID>``: an iCalendar UID. The UIDs this library writes for its own events
  (``event-<id>@events-calendar``, see ``own_uid``) name the event directly, so a calendar's
  own export imports back as unchanged; any other UID is looked up among stored import keys.
- ``title+start:<title>|<YYYY-MM-DD HH:MM:SS>``: the event with that title (ignoring case)
  starting at that wall-clock time, as the reference's CSV importer matches a row to an
  existing event (``match_existing_post``). Found from the events themselves, never stored.
- ``name:<name>``: the venue or organizer of that name (ignoring case), oldest first, as the
  reference's importer finds venues and organizers. Never stored.
- ``id:<n>`` and ``slug:<slug>``: the record with that id, else that slug (JSON files).
- anything else (``csv:<column>:<value>`` from ``--key``): a stored import key.

A key that names a record no longer there, or one in the trash, matches nothing: the row
creates a record again, and the key moves to it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

from ..dates import format_wall
from ..records import RECORD_CLASSES, Kind, Record
from ..statuses import Status
from ..storage import Backend

__all__ = ["OWN_UID", "find_records", "is_stored", "own_uid", "title_start_key"]

#: The UID this library gives its own events in iCalendar files.
OWN_UID = "event-{id}@events-calendar"
_OWN = re.compile(r"event-([1-9][0-9]{0,17})@events-calendar")
_DERIVED = ("title+start:", "name:", "id:", "slug:")


def own_uid(record_id: int) -> str:
    """The UID of one of our events: stable for the event's life, whatever else changes."""
    return OWN_UID.format(id=record_id)


def title_start_key(title: str, start: str) -> str:
    """The reference's match for an event row: its title and wall-clock start."""
    return f"title+start:{title.strip().casefold()}|{start}"


def is_stored(key: str) -> bool:
    """Whether the key is kept in storage (a UID or key column) rather than derived from the
    record's own fields."""
    if key.startswith(_DERIVED):
        return False
    return not (key.startswith("uid:") and _OWN.fullmatch(key[4:]))


def find_records(backend: Backend, kind: Kind, keys: Collection[str]) -> dict[str, Any]:
    """The live (not trashed) record each key names; unmatched keys are absent.

    A constant number of storage queries per prefix, whatever the number of keys.
    """
    candidates: dict[str, list[int]] = {}
    stored: list[str] = []
    titles: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    slugs: list[str] = []
    for key in keys:
        prefix, _, rest = key.partition(":")
        own = _OWN.fullmatch(rest) if prefix == "uid" else None
        if own and kind == "event":
            candidates[key] = [int(own.group(1))]
        elif prefix == "title+start":
            title = rest.rpartition("|")[0]
            titles.setdefault(title, []).append(key)
        elif prefix == "name":
            names.setdefault(rest.strip().casefold(), []).append(key)
        elif prefix == "id" and rest.isdigit():
            candidates[key] = [int(rest)]
        elif prefix == "slug":
            slugs.append(key)
        else:
            stored.append(key)
    for key, record_id in backend.find_import_keys(kind, stored).items():
        candidates[key] = [record_id]
    for key in slugs:
        by_slug = backend.find_slug(kind, key[5:])
        if by_slug is not None:
            candidates.setdefault(key, []).append(by_slug)
    for by_name in (titles, names):
        for name, ids in backend.find_names(kind, list(by_name)).items():
            for key in by_name[name]:
                candidates[key] = ids
    live = _live(backend, kind, {i for ids in candidates.values() for i in ids})
    found: dict[str, Any] = {}
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
    return format_wall(record.start_date) == start  # type: ignore[union-attr]
