"""The storage protocol: what the core needs from a database, and nothing more.

Backends store and find; they decide nothing. The calendar hands them validated records and
normalised filters (``queries``), whose ``matches()`` is the one statement of what each filter
means; a backend answers exactly the records ``matches()`` accepts, in the filter's order,
using its own indexes. What a backend must still enforce is what a database would: unique
slugs per kind, no link to a missing record (links to a removed record go with it), atomic
transactions.

Ids: events, venues and organizers share one sequence (``"post"``), categories and tags another
(``"term"``), as WordPress posts and terms do, so an id alone tells a post from a term but not an
event from a venue: ``post_kind`` answers that.

Backends are found by URL scheme (``backends.open_backend``); users and credentials are a
separate, smaller protocol (``UserStore``) that every backend also implements.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Literal, Protocol, TypeVar, runtime_checkable

from .changes import Changes
from .queries import EventFilter, LinkedFilter, TermFilter
from .records import Credential, Kind, Record, User

__all__ = [
    "CALENDAR_IDENTITY",
    "Backend",
    "Family",
    "Filter",
    "Migrated",
    "Storage",
    "UserStore",
    "family_of",
    "new_calendar_identity",
]

Family = Literal["post", "term", "user", "credential"]
"""An id sequence: events, venues and organizers share ``post`` ids, as WordPress posts do, so
``/events/<venue id>`` can say "not an event"; categories and tags share ``term`` ids."""
Filter = EventFilter | LinkedFilter | TermFilter
"""A normalised list query, as ``query`` receives it: its ``matches()`` is what it means."""
R = TypeVar("R", bound=Record)

CALENDAR_IDENTITY = re.compile(r"[0-9a-f]{16}")
"""What a calendar identity (``Storage.calendar_identity``) looks like: 16 lowercase hex
digits."""


def new_calendar_identity() -> str:
    """A new calendar's identity: 64 random bits, so two calendars never share one by chance
    (a copy or a restored backup shares it on purpose)."""
    return secrets.token_hex(8)


def family_of(kind: Kind) -> Family:
    """Which id sequence a kind draws from."""
    return "term" if kind in ("category", "tag") else "post"


@runtime_checkable
class Storage(Protocol):
    """Records of one calendar. Every method is safe to call from several threads."""

    def transaction(self) -> AbstractContextManager[None]:
        """Everything inside commits together or not at all; transactions nest. A writer's
        read-modify-write inside one never loses another writer's update."""
        ...

    def generation(self) -> Hashable:
        """A value that changes whenever stored data may have changed (any committed write,
        from this process or another); caches compare it to know they are still current.
        Inside an open transaction it equals nothing."""
        ...

    def generation_nowait(self) -> Hashable | None:
        """``generation()`` if it can be read without waiting (on a lock, a disk, a
        server), else ``None``: what an event loop may call inline."""
        ...

    def changes(self, since: int | None) -> Changes:
        """The journal's entries committed after cursor ``since`` (``changes``), and the
        cursor to ask from next; ``None`` asks only for the current cursor (its ``records``
        are ``None``). Read after ``generation``, it holds at least the writes that moved it."""
        ...

    def close(self) -> None:
        """Release connections and pools; a backend holding a pool must not be left to the GC."""
        ...

    def reserve_ids(self, family: Family, count: int = 1) -> range:
        """Reserve ``count`` consecutive ids of a sequence, as part of the current transaction.

        An id handed out by a transaction that rolls back may be handed out again; an id that
        was committed never is, even after its record is deleted.
        """
        ...

    def last_id(self, family: Family) -> int:
        """The last id the sequence handed out (0 for none): copies and backups carry it."""
        ...

    def insert(self, records: Sequence[Record]) -> None:
        """Store new records whose ids were reserved, in one transaction.

        Raises ``Conflict`` on a taken id or slug, or a link to a missing record.
        """
        ...

    def replace(self, record: Record) -> None:
        """Overwrite a stored record (same id, same kind)."""
        ...

    def replace_many(self, records: Sequence[Record], *, links: bool = True) -> None:
        """``replace`` for many records, in one transaction: what bulk changes write with
        (``update_many``), a few statements per batch rather than per record.

        ``links=False`` promises that the records link to what they link to in storage
        already (a change that touched no link field), so links need not be compared."""
        ...

    def remove(self, kind: Kind, record_id: int) -> None:
        """Delete a record for good, with its links and former slugs.

        Removing an event also gives the events whose ``post_parent`` it is its own parent
        (0 when it has none), in the same transaction, as WordPress's ``wp_delete_post``
        does: every backend refuses a ``post_parent`` naming no event on write, so a child
        left pointing at the removed event could never be edited, trashed or removed again.
        This is referential integrity, kept where the links' cascade is kept; the moved
        children are journaled as updated (``changes``)."""
        ...

    def get_many(self, cls: type[R], ids: Iterable[int]) -> dict[int, R]:
        """The records of that class among ``ids``; missing ids are simply absent."""
        ...

    def post_kind(self, record_id: int) -> Kind | None:
        """The kind of the post (event, venue, organizer) with that id, if any."""
        ...

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> dict[str, int]:
        """Which of ``slugs`` records of that kind currently have, and their ids (one query
        for them all; former slugs do not count)."""
        ...

    def slugs_starting(self, kind: Kind, prefix: str) -> set[str]:
        """Every current slug of that kind that starts with ``prefix`` (one indexed range):
        what a new slug's numbered candidates (``gala``, ``gala-2``, ...) collide with."""
        ...

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        """The id whose current slug, else a former slug, is ``slug``."""
        ...

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        """Keep a former slug resolving to its record after a rename.

        A former slug already kept for a record stays with it: the first record to leave a
        slug keeps it, as WordPress's ``wp_old_slug_redirect`` finds the oldest
        ``_wp_old_slug`` of a slug. A record that took the slug afterwards and left it in
        turn must not take an old link away from the first (``get_by_slug`` found it no
        more)."""
        ...

    def slug_aliases(self, kind: Kind) -> dict[str, int]:
        """Every former slug of that kind and the record it resolves to."""
        ...

    def aliases_starting(self, kind: Kind, prefix: str) -> dict[str, int]:
        """Every former slug of that kind that starts with ``prefix`` (one indexed range) and
        the record it resolves to: what a slug cut in the trash may have stood for."""
        ...

    def find_names(self, kind: Kind, names: Collection[str]) -> dict[str, list[int]]:
        """For each name, the ids of that kind whose display name equals it ignoring case
        (``str.casefold``), oldest first; names that match nothing are absent."""
        ...

    def find_values(self, kind: Kind, field: str, values: Collection[str]) -> dict[str, list[int]]:
        """For each value, the ids of that kind whose text ``field`` holds exactly it, oldest
        first; values that match nothing are absent (``from_dataframe``'s key columns)."""
        ...

    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        """The records of ``cls`` that ``flt.matches()`` accepts, in ``flt``'s order, from
        ``flt.offset`` up to ``flt.limit`` of them (all when ``limit`` is ``None``), and the
        number of matches on all pages (``None`` when ``count`` is false)."""
        ...

    # -- import keys (an imported record's identity in the file it came from) --------------
    def find_import_keys(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        """For each of ``keys`` recorded for that kind (an iCalendar UID, a CSV key value),
        the id of the record it was imported as; unknown keys are absent. A key may outlive
        its record (records are deleted without asking about keys): callers check the id."""
        ...

    def set_import_keys(self, kind: Kind, keys: Mapping[str, int]) -> None:
        """Record (or move) each key to its record id, in the current transaction."""
        ...

    def import_keys(self, kind: Kind) -> dict[str, int]:
        """Every import key of that kind and its record id (backups carry them)."""
        ...

    # -- the calendar's identity -----------------------------------------------------------
    def calendar_identity(self) -> str:
        """This calendar's name among calendars (``CALENDAR_IDENTITY``), made with its
        storage and the same for its whole life. Its exported iCalendar UIDs carry it, so an
        import can tell this calendar's events from another calendar's with the same ids."""
        ...

    def set_calendar_identity(self, identity: str) -> None:
        """Take another calendar's identity, in the current transaction: a copy or a restored
        backup is the same calendar, and its events keep their UIDs."""
        ...


@runtime_checkable
class UserStore(Protocol):
    """Users and their credentials (secrets are stored as digests only)."""

    def insert_user(self, user: User) -> None:
        """Raises ``Conflict`` when the login is taken."""
        ...

    def get_user(self, user_id: int) -> User | None:
        """The user with this id, or ``None``: authors of records may have been removed."""
        ...

    def find_user(self, login: str) -> User | None:
        """The user with this login, or ``None``; the core decides what a miss means."""
        ...

    def list_users(self) -> list[User]:
        """Every user, in id order."""
        ...

    def remove_user(self, user_id: int) -> None:
        """Delete a user and every credential of theirs."""
        ...

    def insert_credential(self, credential: Credential) -> None:
        """Store a new credential; only its digest is ever stored, never the secret."""
        ...

    def find_credential(self, secret_hash: str) -> Credential | None:
        """The credential with this digest: sign-ins look a secret up by its hash alone."""
        ...

    def credentials(self, user_id: int) -> list[Credential]:
        """A user's credentials, oldest first."""
        ...


@runtime_checkable
class Migrated(Protocol):
    """A backend whose schema is versioned (SQLite, PostgreSQL): it says which migrations
    opening it applied, so ``events-calendar migrate`` can tell a schema it just brought up
    to date from one that already was."""

    migrated: tuple[str, ...]


@runtime_checkable
class Backend(Storage, UserStore, Protocol):
    """What ``connect()`` opens: records, users and credentials of one calendar."""
