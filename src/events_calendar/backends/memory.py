"""In-memory storage: the executable reference the other backends are tested against.

It is as strict as a database (unique slugs, no dangling links, atomic transactions) and answers
lists from indexes rather than by scanning every record: events are kept sorted by UTC start for
range scans with ``bisect``, and every link (event to venue, organizer, category, tag) is indexed
in both directions, so a venue or category filter touches only the events it names.

Atomicity comes from an undo log: each low-level write records how to put back what it replaced,
and a failed transaction replays the log backwards. One re-entrant lock serialises writers and
readers, which is what makes the backend safe to share between threads.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right, insort
from collections import Counter, defaultdict
from collections.abc import (
    Callable,
    Collection,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from contextlib import contextmanager
from datetime import datetime
from itertools import islice
from typing import Any, Literal, TypeVar

import attrs

from ..changes import ANYTHING, KEPT, Change, Changes, Op
from ..errors import Conflict, StorageUnavailable
from ..queries import EventFilter, LinkedFilter, TermFilter
from ..records import (
    KINDS,
    Category,
    Credential,
    Event,
    Kind,
    Organizer,
    Record,
    Tag,
    User,
    Venue,
)
from ..statuses import COUNTED_STATUSES
from ..storage import Family, Filter, new_calendar_identity

__all__ = ["MemoryBackend"]

_LINKS: tuple[tuple[str, Kind], ...] = (
    ("venue", "venue"),
    ("organizer", "organizer"),
    ("categories", "category"),
    ("tags", "tag"),
)


R = TypeVar("R", bound=Record)


def _counted_terms(record: Record | None) -> set[tuple[Kind, int]]:
    """The terms whose stored count includes this event (none for other records)."""
    if not isinstance(record, Event) or record.status not in COUNTED_STATUSES:
        return set()
    return {("category", i) for i in record.categories} | {("tag", i) for i in record.tags}


class _Guard:
    """The backend's one re-entrant lock, which every read and write takes, refusing once the
    calendar is closed: any use after ``close()`` raises ``StorageUnavailable``, as it does
    on SQLite and PostgreSQL. Closing twice does nothing."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.closed = False

    def acquire(self, blocking: bool = True) -> bool:
        if not self._lock.acquire(blocking):
            return False
        if self.closed:
            self._lock.release()
            raise StorageUnavailable.of("memory://", "the calendar was closed")
        return True

    def release(self) -> None:
        self._lock.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


class MemoryBackend:
    """A ``Backend`` that keeps everything in process memory (``connect("memory://")``)."""

    @classmethod
    def from_url(cls, url: str) -> MemoryBackend:
        """``memory://``: a new, empty calendar in this process."""
        return cls()

    def __init__(self) -> None:
        self._lock = _Guard()
        self._generation = 0
        self._undo: list[list[Callable[[], None]]] = []
        #: The change journal (``changes``): committed entries after ``_horizon``, and the
        #: open transaction's entries, which its commit appends.
        self._journal: list[Change] = []
        self._horizon = 0
        self._pending: list[Change] = []
        self._seq: dict[Family, int] = {"post": 0, "term": 0, "user": 0, "credential": 0}
        self._records: dict[Kind, dict[int, Record]] = {kind: {} for kind in KINDS}
        self._post_kind: dict[int, Kind] = {}
        self._slugs: dict[Kind, dict[str, int]] = {kind: {} for kind in KINDS}
        self._aliases: dict[Kind, dict[str, int]] = {kind: {} for kind in KINDS}
        self._names: dict[Kind, dict[str, set[int]]] = {kind: defaultdict(set) for kind in KINDS}
        self._by_start: list[tuple[datetime, int]] = []
        # target kind -> target id -> ids of the events linking to it
        self._links: dict[Kind, dict[int, set[int]]] = {k: defaultdict(set) for _, k in _LINKS}
        self._children: dict[Kind, dict[int, set[int]]] = {
            "category": defaultdict(set),
            "tag": defaultdict(set),
        }
        self._counts: dict[Kind, Counter[int]] = {"category": Counter(), "tag": Counter()}
        #: event id -> ids of the events naming it as their ``post_parent`` (``remove``)
        self._event_children: dict[int, set[int]] = defaultdict(set)
        self._users: dict[int, User] = {}
        self._logins: dict[str, int] = {}  # login -> user id: a sign-in looks one up
        self._credentials: dict[str, Credential] = {}
        self._import_keys: dict[Kind, dict[str, int]] = {kind: {} for kind in KINDS}
        self._identity = new_calendar_identity()

    # -- transactions ----------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            self._undo.append([])
            try:
                yield
            except BaseException:
                for undo in reversed(self._undo.pop()):
                    undo()
                raise
            done = self._undo.pop()
            if self._undo:
                self._undo[-1].extend(done)
            elif done:
                self._generation += 1
                self._journal += self._pending
                self._pending.clear()
                if len(self._journal) > KEPT + 1024:
                    self._horizon += len(self._journal) - KEPT
                    del self._journal[:-KEPT]

    def generation(self) -> Hashable:
        """Changes whenever a write commits; inside an open transaction, equal to nothing."""
        with self._lock:
            return object() if self._undo else self._generation

    def generation_nowait(self) -> Hashable | None:
        """``generation()`` unless a writer holds the lock (``None`` then)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return object() if self._undo else self._generation
        finally:
            self._lock.release()

    def changes(self, since: int | None) -> Changes:
        with self._lock:
            cursor = self._horizon + len(self._journal)
            after = [] if since is None else self._journal[max(since - self._horizon, 0) :]
            return Changes.of(cursor, self._horizon, since, after)

    def _note(self, kind: Kind | Literal["*"], record_id: int, op: Op) -> None:
        """Journal one touched row, as part of the open transaction."""
        self._pending.append(Change(kind, record_id, op))
        self._on_rollback(lambda: self._forget_note())

    def _forget_note(self) -> None:
        self._pending.pop()

    def _on_rollback(self, undo: Callable[[], None]) -> None:
        if self._undo:
            self._undo[-1].append(undo)

    def close(self) -> None:
        """Refuse any use afterwards, as the SQL engines do (``_Guard``); refused inside the
        calling thread's own open transaction, and waiting for another thread's."""
        if self._lock.closed:
            return
        with self._lock:
            if self._undo:  # the lock is this thread's: the transaction is too
                raise RuntimeError(
                    "close() inside the calendar's open transaction: end the transaction first"
                )
            self._lock.closed = True

    # -- indexes ---------------------------------------------------------------------------
    def _index(self, record: Record) -> None:
        kind = record.kind
        self._records[kind][record.id] = record
        if record.slug:
            self._slugs[kind][record.slug] = record.id
        self._names[kind][record.name.casefold()].add(record.id)
        if kind in ("event", "venue", "organizer"):
            self._post_kind[record.id] = kind
        if isinstance(record, Event):
            insort(self._by_start, (record.utc_start_date, record.id))
            for attr, target in _LINKS:
                for target_id in getattr(record, attr):
                    self._links[target][target_id].add(record.id)
            if record.status in COUNTED_STATUSES:
                self._counts["category"].update(set(record.categories))
                self._counts["tag"].update(set(record.tags))
            if record.post_parent:
                self._event_children[record.post_parent].add(record.id)
        elif isinstance(record, Category):
            self._children["category"][record.parent].add(record.id)

    def _unindex(self, record: Record) -> None:
        kind = record.kind
        del self._records[kind][record.id]
        if record.slug and self._slugs[kind].get(record.slug) == record.id:
            del self._slugs[kind][record.slug]
        self._names[kind][record.name.casefold()].discard(record.id)
        if kind in ("event", "venue", "organizer"):
            self._post_kind.pop(record.id, None)
        if isinstance(record, Event):
            at = bisect_left(self._by_start, (record.utc_start_date, record.id))
            del self._by_start[at]
            for attr, target in _LINKS:
                for target_id in getattr(record, attr):
                    self._links[target][target_id].discard(record.id)
            if record.status in COUNTED_STATUSES:
                self._counts["category"].subtract(set(record.categories))
                self._counts["tag"].subtract(set(record.tags))
            if record.post_parent:
                self._event_children[record.post_parent].discard(record.id)
        elif isinstance(record, Category):
            self._children["category"][record.parent].discard(record.id)

    def _put(self, kind: Kind, record_id: int, record: Record | None) -> None:
        """The one low-level write: replace whatever is stored under the id, with undo."""
        old = self._records[kind].get(record_id)
        if old is not None:
            self._unindex(old)
        if record is not None:
            self._index(record)
        self._on_rollback(lambda: self._restore(kind, record_id, old))
        self._note(kind, record_id, "insert" if old is None else "update" if record else "delete")
        for term_kind, term_id in sorted(_counted_terms(old) ^ _counted_terms(record)):
            self._note(term_kind, term_id, "update")  # its stored count moved

    def _restore(self, kind: Kind, record_id: int, old: Record | None) -> None:
        current = self._records[kind].get(record_id)
        if current is not None:
            self._unindex(current)
        if old is not None:
            self._index(old)

    def _check(self, record: Record) -> None:
        """Refuse what a database's constraints would refuse."""
        owner = self._slugs[record.kind].get(record.slug)
        if record.slug and owner is not None and owner != record.id:
            raise Conflict(
                f"The {record.kind} slug {record.slug!r} is taken.",
                fields={"slug": "choose another slug"},
            )
        if isinstance(record, Event):
            for attr, target in _LINKS:
                missing = [i for i in getattr(record, attr) if i not in self._records[target]]
                if missing:
                    raise Conflict(
                        f"Event links to missing {target} ids {missing}.",
                        fields={attr: "link only existing records"},
                    )
            if record.post_parent and record.post_parent not in self._records["event"]:
                raise Conflict(
                    "post_parent names no event.", fields={"post_parent": "use an event id"}
                )
        if (
            isinstance(record, Category)
            and record.parent
            and record.parent not in self._records["category"]
        ):
            raise Conflict("parent names no category.", fields={"parent": "use a category id"})

    # -- records ---------------------------------------------------------------------------
    def reserve_ids(self, family: Family, count: int = 1) -> range:
        with self.transaction():
            first = self._seq[family] + 1
            self._seq[family] += count
            self._on_rollback(lambda: self._seq.__setitem__(family, first - 1))
            return range(first, first + count)

    def last_id(self, family: Family) -> int:
        with self._lock:  # as every read: an open transaction's ids are its own till it commits
            return self._seq[family]

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> dict[str, int]:
        with self._lock:
            current = self._slugs[kind]
            return {slug: current[slug] for slug in slugs if slug in current}

    def insert(self, records: Sequence[Record]) -> None:
        with self.transaction():
            for record in records:
                taken = (
                    self._post_kind
                    if record.kind in ("event", "venue", "organizer")
                    else self._records[record.kind]
                )
                if record.id in taken:
                    raise Conflict(f"Id {record.id} is taken.")
                self._check(record)
                self._put(record.kind, record.id, record)

    def replace(self, record: Record) -> None:
        with self.transaction():
            if record.id not in self._records[record.kind]:
                raise Conflict(f"No {record.kind} {record.id} to replace.")
            self._check(record)
            self._put(record.kind, record.id, record)

    def replace_many(self, records: Sequence[Record], *, links: bool = True) -> None:
        with self.transaction():
            for record in records:
                self.replace(record)

    def remove(self, kind: Kind, record_id: int) -> None:
        """Delete the record; events that link to it lose the link (a database's cascade),
        and events whose ``post_parent`` it is get its own parent (``Storage.remove``)."""
        with self.transaction():
            if kind == "event":
                removed = self._records["event"].get(record_id)
                grandparent = removed.post_parent if isinstance(removed, Event) else 0
                for child_id in sorted(self._event_children.get(record_id, ())):
                    child = self._records["event"][child_id]
                    if child_id == record_id or not isinstance(child, Event):
                        continue  # its own parent: a loop stored before loops were refused
                    parent = 0 if grandparent == child_id else grandparent
                    self._put("event", child_id, attrs.evolve(child, post_parent=parent))
            if kind in ("venue", "organizer", "category", "tag"):
                attr = next(a for a, k in _LINKS if k == kind)
                for event_id in sorted(self._links[kind].get(record_id, ())):
                    event = self._records["event"][event_id]
                    assert isinstance(event, Event)
                    kept = tuple(i for i in getattr(event, attr) if i != record_id)
                    changes: dict[str, Any] = {attr: kept}
                    self._put("event", event_id, attrs.evolve(event, **changes))
            self._put(kind, record_id, None)
            for slug, owner in list(self._aliases[kind].items()):
                if owner == record_id:
                    self._set_alias(kind, slug, None)

    def get_many(self, cls: type[R], ids: Iterable[int]) -> dict[int, R]:
        with self._lock:
            table = self._records[cls.kind]
            return {i: self._as_read(cls, table[i]) for i in ids if i in table}

    def _as_read(self, cls: type[R], record: Record) -> R:
        """A stored record as it is read: terms carry their current count."""
        if isinstance(record, Category | Tag):
            record = self._counted(record)
        assert isinstance(record, cls)
        return record

    def _counted(self, term: Record) -> Category | Tag:
        assert isinstance(term, Category | Tag)
        return attrs.evolve(term, count=self._counts[term.kind][term.id])

    def post_kind(self, record_id: int) -> Kind | None:
        with self._lock:
            return self._post_kind.get(record_id)

    def slugs_starting(self, kind: Kind, prefix: str) -> set[str]:
        with self._lock:
            return {slug for slug in self._slugs[kind] if slug.startswith(prefix)}

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        with self._lock:
            found = self._slugs[kind].get(slug)
            return found if found is not None else self._aliases[kind].get(slug)

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        with self.transaction():
            if slug not in self._aliases[kind]:  # the first record to leave it keeps it
                self._set_alias(kind, slug, record_id)

    def slug_aliases(self, kind: Kind) -> dict[str, int]:
        with self._lock:
            return dict(self._aliases[kind])

    def aliases_starting(self, kind: Kind, prefix: str) -> dict[str, int]:
        with self._lock:
            return {s: i for s, i in self._aliases[kind].items() if s.startswith(prefix)}

    def _set_alias(self, kind: Kind, slug: str, record_id: int | None) -> None:
        aliases = self._aliases[kind]
        old = aliases.get(slug)

        def put(value: int | None) -> None:
            if value is None:
                aliases.pop(slug, None)
            else:
                aliases[slug] = value

        put(record_id)
        self._on_rollback(lambda: put(old))
        self._note(ANYTHING, 0, "update")  # a by-slug lookup may answer otherwise now

    def find_names(self, kind: Kind, names: Collection[str]) -> dict[str, list[int]]:
        with self._lock:
            found = {name: sorted(self._names[kind].get(name.casefold(), ())) for name in names}
            return {name: ids for name, ids in found.items() if ids}

    def find_values(self, kind: Kind, field: str, values: Collection[str]) -> dict[str, list[int]]:
        wanted = set(values)
        found: dict[str, list[int]] = {}
        with self._lock:
            for record_id in sorted(self._records[kind]):
                value = getattr(self._records[kind][record_id], field)
                if value in wanted:
                    found.setdefault(value, []).append(record_id)
        return found

    # -- lists -----------------------------------------------------------------------------
    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        """Candidates from the narrowest index, kept when the filter's ``matches()`` says so."""
        with self._lock:
            end = None if flt.limit is None else flt.offset + flt.limit
            if isinstance(flt, EventFilter):
                matching: Iterator[Any] = (e for e in self._event_candidates(flt) if flt.matches(e))
                if not count:  # stop at the page's end: keyset pages cost their own size
                    return list(islice(matching, flt.offset, end)), None
                found: list[Any] = list(matching)
            elif isinstance(flt, LinkedFilter):
                found = flt.order(
                    r for r in self._linked_candidates(cls.kind, flt) if self._linked_match(r, flt)
                )
            else:
                found = flt.order(
                    t for t in self._term_candidates(cls.kind, flt) if self._term_match(t, flt)
                )
            return found[flt.offset : end], len(found) if count else None

    def _event_candidates(self, flt: EventFilter) -> Iterable[Event]:
        """Events that may match, from the narrowest index, in list order."""
        events: dict[int, Event] = self._records["event"]  # type: ignore[assignment]
        sets: list[set[int]] = []
        if flt.include is not None:
            sets.append({i for i in flt.include if i in events})
        for ids, target in (
            (flt.venue_ids, "venue"),
            (flt.organizer_ids, "organizer"),
            (flt.category_ids, "category"),
            (flt.tag_ids, "tag"),
        ):
            if ids is not None:
                linked = self._links[target]  # type: ignore[index]
                sets.append(set().union(*(linked.get(i, set()) for i in ids)))
        if sets or flt.order_by_date:
            chosen = set.intersection(*sets) if sets else set(events)
            return flt.order(events[i] for i in chosen)
        lo, hi = 0, len(self._by_start)
        if flt.start_min is not None:
            lo = max(lo, bisect_left(self._by_start, (flt.start_min, -1)))
        if flt.start_after is not None:
            lo = max(lo, bisect_right(self._by_start, (flt.start_after, 1 << 62)))
        if flt.after is not None:  # keyset paging: start right past the last event seen
            lo = max(lo, bisect_right(self._by_start, flt.after))
        # An event never ends before it starts, so end bounds also bound the start.
        for bound in (flt.start_before, flt.end_before):
            if bound is not None:
                hi = min(hi, bisect_left(self._by_start, (bound, -1)))
        if flt.end_max is not None:
            hi = min(hi, bisect_right(self._by_start, (flt.end_max, 1 << 62)))
        return (events[i] for _, i in self._by_start[lo:hi])

    def _linked_events(self, kind: Kind, record_id: int) -> list[Event]:
        events = self._records["event"]
        return [
            e for i in self._links[kind].get(record_id, ()) if isinstance(e := events[i], Event)
        ]

    def _linked_candidates(self, kind: Kind, flt: LinkedFilter) -> Iterable[Record]:
        table = self._records[kind]
        if flt.event_id is not None:
            event = self._records["event"].get(flt.event_id)
            linked: Iterable[int] = getattr(event, kind) if isinstance(event, Event) else ()
            return [table[i] for i in linked if i in table]
        if flt.ids is not None:
            return [table[i] for i in flt.ids if i in table]
        return list(table.values())

    def _linked_match(self, record: Record, flt: LinkedFilter) -> bool:
        assert isinstance(record, Venue | Organizer)
        return flt.matches(record, events=self._linked_events(record.kind, record.id))

    def _term_candidates(self, kind: Kind, flt: TermFilter) -> Iterable[Category | Tag]:
        table = self._records[kind]
        if flt.post is not None:
            event = self._records["event"].get(flt.post)
            field = "categories" if kind == "category" else "tags"
            ids: Iterable[int] = getattr(event, field) if isinstance(event, Event) else ()
        elif flt.parents is not None:
            ids = {c for p in flt.parents for c in self._children.get(kind, {}).get(p, ())}
        elif flt.include is not None:
            ids = flt.include
        else:
            ids = table.keys()
        return [self._counted(table[i]) for i in ids if i in table]

    def _term_match(self, term: Category | Tag, flt: TermFilter) -> bool:
        return flt.matches(term, events=self._links[term.kind].get(term.id, set()))

    # -- users -----------------------------------------------------------------------------
    def insert_user(self, user: User) -> None:
        with self.transaction():
            if user.login in self._logins:
                raise Conflict(
                    f"The login {user.login!r} is taken.", fields={"login": "choose another"}
                )
            self._users[user.id] = user
            self._logins[user.login] = user.id
            self._on_rollback(lambda: self._forget_user(user.id))
            self._note(ANYTHING, 0, "update")

    def _forget_user(self, user_id: int) -> None:
        user = self._users.pop(user_id, None)
        if user is not None:
            self._logins.pop(user.login, None)

    def get_user(self, user_id: int) -> User | None:
        with self._lock:
            return self._users.get(user_id)

    def find_user(self, login: str) -> User | None:
        with self._lock:
            user_id = self._logins.get(login)
            return None if user_id is None else self._users.get(user_id)

    def list_users(self) -> list[User]:
        with self._lock:
            return sorted(self._users.values(), key=lambda u: u.id)

    def remove_user(self, user_id: int) -> None:
        with self.transaction():
            user = self._users.pop(user_id, None)
            if user is not None:
                del self._logins[user.login]
            gone = {h: c for h, c in self._credentials.items() if c.user_id == user_id}
            for secret_hash in gone:
                del self._credentials[secret_hash]

            def undo() -> None:
                if user is not None:
                    self._users[user_id] = user
                    self._logins[user.login] = user_id
                self._credentials.update(gone)

            self._on_rollback(undo)
            self._note(ANYTHING, 0, "update")

    def insert_credential(self, credential: Credential) -> None:
        with self.transaction():
            if credential.user_id not in self._users:
                raise Conflict("Credential for a missing user.")
            self._credentials[credential.secret_hash] = credential
            self._on_rollback(lambda: self._forget_credential(credential.secret_hash))
            self._note(ANYTHING, 0, "update")

    def _forget_credential(self, secret_hash: str) -> None:
        self._credentials.pop(secret_hash, None)

    def find_credential(self, secret_hash: str) -> Credential | None:
        with self._lock:  # a credential issued in an open transaction signs nobody in yet
            return self._credentials.get(secret_hash)

    def credentials(self, user_id: int) -> list[Credential]:
        with self._lock:
            found = [c for c in self._credentials.values() if c.user_id == user_id]
        return sorted(found, key=lambda c: c.id)

    # -- import keys -----------------------------------------------------------------------
    def find_import_keys(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        with self._lock:
            known = self._import_keys[kind]
            return {key: known[key] for key in keys if key in known}

    def set_import_keys(self, kind: Kind, keys: Mapping[str, int]) -> None:
        with self.transaction():
            known = self._import_keys[kind]
            before = {key: known.get(key) for key in keys}
            known.update(keys)

            def undo() -> None:
                for key, record_id in before.items():
                    if record_id is None:
                        known.pop(key, None)
                    else:
                        known[key] = record_id

            self._on_rollback(undo)

    def import_keys(self, kind: Kind) -> dict[str, int]:
        with self._lock:
            return dict(self._import_keys[kind])

    # -- the calendar's identity -----------------------------------------------------------
    def calendar_identity(self) -> str:
        return self._identity

    def set_calendar_identity(self, identity: str) -> None:
        with self.transaction():
            before, self._identity = self._identity, identity
            self._on_rollback(lambda: setattr(self, "_identity", before))
