"""Copying a whole calendar from one backend to another (``events-calendar copy``), and
restoring one from a backup (``io.backup``).

Everything moves as it is stored: every kind in every status (the trash too), ids, slugs and
former slugs, links in their order, users and hashed credentials, import keys, the id
sequences, so the copy hands out the next ids the source would have, and the calendar's
identity, so its events keep their iCalendar UIDs. The target must be
empty, and the copy is one transaction on it: a failure leaves it empty.

What is copied is read through ``Snapshot``: a backend (``BackendSnapshot``) or a backup file
(``io.backup``) is one, so a restore is a copy from a file. Records of a backend are read in
id ranges of ``BATCH`` (an index lookup each), so memory stays bounded by a batch, whatever
the size of the calendar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

import attrs

from .errors import Conflict
from .queries import EventFilter, LinkedFilter, TermFilter
from .records import KINDS, Category, Credential, Event, Kind, Organizer, Record, Tag, User, Venue
from .statuses import Status
from .storage import Backend, Family

__all__ = ["BATCH", "FAMILIES", "ORDER", "BackendSnapshot", "Snapshot", "copy_calendar", "restore"]

#: Ids per read and per write.
BATCH = 2000

FAMILIES: tuple[Family, ...] = ("post", "term", "user", "credential")
#: Copy order: what events link to first.
ORDER: tuple[type[Record], ...] = (Venue, Organizer, Category, Tag, Event)
_EVERY = frozenset(Status)


class Snapshot(Protocol):
    """A whole calendar as a copy reads it."""

    def check(self) -> None:
        """Raise, before ``restore`` writes anything, when what the snapshot holds is no
        calendar a backend could store (a backup file's ``UnreadableFile``)."""
        ...

    def last_id(self, family: Family) -> int: ...

    def batches(self, cls: type[Record]) -> Iterator[list[Record]]:
        """Every record of ``cls`` in every status, by id, a bounded batch at a time."""
        ...

    def slug_aliases(self, kind: Kind) -> dict[str, int]: ...

    def import_keys(self, kind: Kind) -> dict[str, int]: ...

    def calendar_identity(self) -> str | None:
        """The calendar's identity, or ``None`` when the source does not say (a backup written
        before identities were kept): the target then keeps its own."""
        ...

    def list_users(self) -> list[User]: ...

    def credentials(self, user_id: int) -> list[Credential]: ...


class BackendSnapshot:
    """A backend read as a ``Snapshot``."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def check(self) -> None:
        """Nothing to check: every record of a backend passed the checks of its write."""

    def last_id(self, family: Family) -> int:
        return self.backend.last_id(family)

    def batches(self, cls: type[Record]) -> Iterator[list[Record]]:
        return _batches(self.backend, cls)

    def slug_aliases(self, kind: Kind) -> dict[str, int]:
        return self.backend.slug_aliases(kind)

    def import_keys(self, kind: Kind) -> dict[str, int]:
        return self.backend.import_keys(kind)

    def calendar_identity(self) -> str | None:
        return self.backend.calendar_identity()

    def list_users(self) -> list[User]:
        return self.backend.list_users()

    def credentials(self, user_id: int) -> list[Credential]:
        return self.backend.credentials(user_id)


def copy_calendar(
    source: Backend,
    target: Backend,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """Copy every record, former slug, user and credential of ``source`` into the empty
    ``target``; returns how many of each kind were copied. ``progress(kind, done)`` is called
    after each batch."""
    return restore(BackendSnapshot(source), target, progress=progress)


def _require_empty(target: Backend) -> None:
    if any(target.last_id(family) for family in FAMILIES):
        raise Conflict(
            "The target calendar is not empty; copy into a new database.",
            fields={"to": "name an empty database"},
        )


def restore(
    source: Snapshot,
    target: Backend,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """``copy_calendar`` from any ``Snapshot`` (a backend, a backup file), which is checked
    (``Snapshot.check``) before anything is written: the records are stored as they are,
    past the checks of the calendar's own writes, so a bad one would otherwise be stored,
    or refused by each backend in its own way.

    The target is found empty twice: before the source is checked, to refuse at once, and
    in the write transaction, the check that counts. Both backends run one write
    transaction at a time, so of two copies into one empty database the second sees the
    first's records there and is refused, where it failed half-way on the first's ids."""
    _require_empty(target)
    source.check()
    counts: dict[str, int] = {}
    identity = source.calendar_identity()
    with target.transaction():
        _require_empty(target)
        if identity is not None:
            target.set_calendar_identity(identity)
        for cls in ORDER:
            counts[cls.kind] = _copy_kind(source, target, cls, progress)
        for kind in KINDS:
            for slug, record_id in sorted(source.slug_aliases(kind).items()):
                target.add_slug_alias(kind, record_id, slug)
            target.set_import_keys(kind, source.import_keys(kind))
        users = source.list_users()
        for user in users:
            target.insert_user(user)
        credentials = [c for user in users for c in source.credentials(user.id)]
        for credential in credentials:
            target.insert_credential(credential)
        counts["user"], counts["credential"] = len(users), len(credentials)
        for family in FAMILIES:  # the copy continues the source's sequences
            behind = source.last_id(family) - target.last_id(family)
            if behind > 0:
                target.reserve_ids(family, behind)
    return counts


def _copy_kind(
    source: Snapshot,
    target: Backend,
    cls: type[Record],
    progress: Callable[[str, int], None] | None,
) -> int:
    """Insert a kind's records without their parent links, then restore the parents: a
    parent may have a higher id than its child (it was set by a later update)."""
    done = 0
    parented: list[Record] = []
    for batch in source.batches(cls):
        plain = []
        for record in batch:
            parent = getattr(record, "post_parent", 0) or getattr(record, "parent", 0)
            if parent:
                parented.append(record)
                record = attrs.evolve(record, **_no_parent(record))
            plain.append(record)
        target.insert(plain)
        done += len(plain)
        if progress is not None:
            progress(cls.kind, done)
    for record in parented:
        target.replace(record)
    return done


def _no_parent(record: Record) -> dict[str, Any]:
    return {"post_parent": 0} if isinstance(record, Event) else {"parent": 0}


def _batches(source: Backend, cls: type[Record]) -> Iterator[list[Record]]:
    """Every record of ``cls``, in id ranges of ``BATCH``."""
    family: Family = "term" if cls in (Category, Tag) else "post"
    last = source.last_id(family)
    for first in range(1, last + 1, BATCH):
        ids = frozenset(range(first, min(first + BATCH, last + 1)))
        found: list[Record]
        if cls is Event:
            flt: EventFilter | LinkedFilter | TermFilter = EventFilter(
                include=ids, statuses=_EVERY, exclude_hidden=False, limit=None
            )
        elif cls in (Venue, Organizer):
            flt = LinkedFilter(ids=ids, statuses=_EVERY, limit=None)
        else:
            flt = TermFilter(include=ids, hide_empty=False, limit=None)
        found, _ = source.query(cls, flt, count=False)
        if found:
            yield sorted(found, key=lambda r: r.id)
