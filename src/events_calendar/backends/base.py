"""The storage protocol every backend implements.

Backends store and find; they decide nothing. The calendar hands them validated records and
normalised filters (see ``queries``) and expects exactly the matching rows back. What a backend
must still enforce is what a database would: unique slugs per kind, no link to a missing record,
atomic transactions.

Ids: events, venues and organizers share one sequence (``"post"``), categories and tags another
(``"term"``), as WordPress posts and terms do, so an id alone tells a post from a term but not an
event from a venue: ``post_kind`` answers that.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Literal, Protocol, runtime_checkable

from ..queries import EventFilter, LinkedFilter, TermFilter
from ..records import Category, Credential, Event, Kind, Organizer, Record, Tag, User, Venue

__all__ = ["Backend", "Family", "family_of"]

Family = Literal["post", "term", "user", "credential"]


def family_of(kind: Kind) -> Family:
    """Which id sequence a kind draws from."""
    return "term" if kind in ("category", "tag") else "post"


@runtime_checkable
class Backend(Protocol):
    """Storage for one calendar. All methods are safe to call from several threads."""

    # -- lifecycle -------------------------------------------------------------------------
    def transaction(self) -> AbstractContextManager[None]:
        """Everything inside commits together or not at all; transactions nest."""
        ...

    def close(self) -> None: ...

    def generation(self) -> Hashable:
        """A value that changes whenever stored data may have changed (any committed write,
        from this process or another); caches compare it to know they are still current."""
        ...

    # -- records ---------------------------------------------------------------------------
    def next_id(self, family: Family) -> int:
        """Reserve the next id of a sequence, as part of the current transaction.

        An id handed out by a transaction that rolls back may be handed out again; an id that
        was committed never is, even after its record is deleted.
        """
        ...

    def reserve_ids(self, family: Family, count: int) -> range:
        """Reserve ``count`` consecutive ids at once (bulk loads), like ``next_id``."""
        ...

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> set[str]:
        """Which of ``slugs`` records of that kind currently have."""
        ...

    def insert(self, record: Record) -> None:
        """Store a new record whose id was reserved with ``next_id``.

        Raises ``Conflict`` on a taken slug or a link to a missing record.
        """
        ...

    def replace(self, record: Record) -> None:
        """Overwrite a stored record (same id, same kind)."""
        ...

    def remove(self, kind: Kind, record_id: int) -> None:
        """Delete a record for good, with its links and slug aliases."""
        ...

    def get_many(self, kind: Kind, ids: Iterable[int]) -> dict[int, Record]:
        """The records of that kind among ``ids``; missing ids are simply absent."""
        ...

    def post_kind(self, record_id: int) -> Kind | None:
        """The kind of the post (event, venue, organizer) with that id, if any."""
        ...

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        """The id whose current slug, or a former slug, is ``slug``."""
        ...

    def slug_taken(self, kind: Kind, slug: str) -> bool:
        """Whether a record of that kind currently has that slug."""
        ...

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        """Keep a former slug resolving to its record after a rename."""
        ...

    def find_by_name(self, kind: Kind, name: str) -> list[int]:
        """Ids whose display name equals ``name`` ignoring case, oldest first."""
        ...

    def find_terms(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        """Map each key to the term whose slug equals it, else whose name equals it
        (ignoring case). Keys that match nothing are absent."""
        ...

    def child_terms(self, kind: Kind, parent_ids: Collection[int]) -> list[int]:
        """Ids of the direct children of these terms."""
        ...

    def events_linked_to(self, kind: Kind, record_id: int) -> list[int]:
        """Ids of the events (any status) linked to this venue, organizer or term."""
        ...

    # -- lists -----------------------------------------------------------------------------
    def query_events(self, flt: EventFilter) -> tuple[list[Event], int]:
        """One page of matching events and the number of matches on all pages."""
        ...

    def query_event_page(self, flt: EventFilter) -> list[Event]:
        """One page of matching events, without counting them (the caller knows the total)."""
        ...

    def query_linked(
        self, kind: Literal["venue", "organizer"], flt: LinkedFilter
    ) -> tuple[Sequence[Venue | Organizer], int]: ...

    def query_terms(
        self, kind: Literal["category", "tag"], flt: TermFilter
    ) -> tuple[Sequence[Category | Tag], int]: ...

    def bulk_insert(self, records: Sequence[Record]) -> None:
        """Insert many new records in one transaction (same rules as ``insert``)."""
        ...

    # -- users -----------------------------------------------------------------------------
    def insert_user(self, user: User) -> None: ...

    def get_user(self, user_id: int) -> User | None: ...

    def find_user(self, login: str) -> User | None: ...

    def list_users(self) -> list[User]: ...

    def remove_user(self, user_id: int) -> None:
        """Delete a user and every credential of theirs."""
        ...

    def insert_credential(self, credential: Credential) -> None: ...

    def find_credential(self, secret_hash: str) -> Credential | None: ...

    def iter_credentials(self, user_id: int) -> Iterator[Credential]: ...
