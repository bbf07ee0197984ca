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
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal

import attrs

from ..errors import Conflict
from ..queries import (
    EVENT_SEARCH_FIELDS,
    LINKED_SEARCH_FIELDS,
    EventFilter,
    LinkedFilter,
    TermFilter,
    fold,
)
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
from ..statuses import Status
from .base import Family

__all__ = ["MemoryBackend"]

_LINKS: tuple[tuple[str, Kind], ...] = (
    ("venue", "venue"),
    ("organizer", "organizer"),
    ("categories", "category"),
    ("tags", "tag"),
)


def _key(kind: Kind, record_id: int) -> tuple[Kind, int]:
    return (kind, record_id)


class MemoryBackend:
    """A ``Backend`` that keeps everything in process memory (``connect("memory://")``)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._generation = 0
        self._undo: list[list[Callable[[], None]]] = []
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
        self._published_counts: dict[Kind, Counter[int]] = {"category": Counter(), "tag": Counter()}
        self._users: dict[int, User] = {}
        self._credentials: dict[str, Credential] = {}

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

    def generation(self) -> Hashable:
        """Changes whenever a write commits; inside an open transaction, equal to nothing."""
        with self._lock:
            return object() if self._undo else self._generation

    def _on_rollback(self, undo: Callable[[], None]) -> None:
        if self._undo:
            self._undo[-1].append(undo)

    def close(self) -> None:
        """Nothing to release; present for the protocol."""

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
            if record.status == Status.PUBLISH:
                self._published_counts["category"].update(set(record.categories))
                self._published_counts["tag"].update(set(record.tags))
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
            if record.status == Status.PUBLISH:
                self._published_counts["category"].subtract(set(record.categories))
                self._published_counts["tag"].subtract(set(record.tags))
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
    def next_id(self, family: Family) -> int:
        return self.reserve_ids(family, 1)[0]

    def reserve_ids(self, family: Family, count: int) -> range:
        with self.transaction():
            first = self._seq[family] + 1
            self._seq[family] += count
            self._on_rollback(lambda: self._seq.__setitem__(family, first - 1))
            return range(first, first + count)

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> set[str]:
        with self._lock:
            return {slug for slug in slugs if slug in self._slugs[kind]}

    def insert(self, record: Record) -> None:
        with self.transaction():
            taken = (
                self._post_kind
                if record.kind in ("event", "venue", "organizer")
                else self._records[record.kind]
            )
            if record.id in taken:
                raise Conflict(f"Id {record.id} is taken.")
            self._check(record)
            self._put(record.kind, record.id, record)

    def bulk_insert(self, records: Sequence[Record]) -> None:
        with self.transaction():
            for record in records:
                self.insert(record)

    def replace(self, record: Record) -> None:
        with self.transaction():
            if record.id not in self._records[record.kind]:
                raise Conflict(f"No {record.kind} {record.id} to replace.")
            self._check(record)
            self._put(record.kind, record.id, record)

    def remove(self, kind: Kind, record_id: int) -> None:
        with self.transaction():
            if kind in ("venue", "organizer", "category", "tag"):
                attr = next(a for a, k in _LINKS if k == kind)
                for event_id in sorted(self._links[kind].get(record_id, ())):
                    event = self._records["event"][event_id]
                    assert isinstance(event, Event)
                    kept = tuple(i for i in getattr(event, attr) if i != record_id)
                    changes: dict[str, Any] = {attr: kept}
                    self._put("event", event_id, attrs.evolve(event, **changes))
            if kind == "category":
                for child in sorted(self._children["category"].get(record_id, ())):
                    term = self._records["category"][child]
                    assert isinstance(term, Category)
                    self._put("category", child, attrs.evolve(term, parent=0))
            self._put(kind, record_id, None)
            for slug, owner in list(self._aliases[kind].items()):
                if owner == record_id:
                    self._set_alias(kind, slug, None)

    def get_many(self, kind: Kind, ids: Iterable[int]) -> dict[int, Record]:
        with self._lock:
            table = self._records[kind]
            found = {i: table[i] for i in ids if i in table}
            if kind in ("category", "tag"):
                counts = self._published_counts[kind]
                found = {i: _with_count(t, counts[i]) for i, t in found.items()}
            return found

    def post_kind(self, record_id: int) -> Kind | None:
        return self._post_kind.get(record_id)

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        with self._lock:
            found = self._slugs[kind].get(slug)
            return found if found is not None else self._aliases[kind].get(slug)

    def slug_taken(self, kind: Kind, slug: str) -> bool:
        return slug in self._slugs[kind]

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        with self.transaction():
            self._set_alias(kind, slug, record_id)

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

    def find_by_name(self, kind: Kind, name: str) -> list[int]:
        with self._lock:
            return sorted(self._names[kind].get(name.casefold(), ()))

    def find_terms(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        with self._lock:
            found: dict[str, int] = {}
            for key in keys:
                by_slug = self._slugs[kind].get(key)
                by_name = sorted(self._names[kind].get(key.casefold(), ()))
                if by_slug is not None:
                    found[key] = by_slug
                elif by_name:
                    found[key] = by_name[0]
            return found

    def child_terms(self, kind: Kind, parent_ids: Collection[int]) -> list[int]:
        with self._lock:
            children = self._children.get(kind, {})
            return sorted({c for p in parent_ids for c in children.get(p, ())})

    def events_linked_to(self, kind: Kind, record_id: int) -> list[int]:
        with self._lock:
            return sorted(self._links[kind].get(record_id, ()))

    # -- lists -----------------------------------------------------------------------------
    def _events(self) -> dict[int, Event]:
        return self._records["event"]  # type: ignore[return-value]  # only events stored there

    def _event_candidates(self, flt: EventFilter) -> Iterable[Event]:
        """Events that may match, from the narrowest index, in list order."""
        events = self._events()
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
            found = [events[i] for i in chosen]
            key: Callable[[Event], tuple[datetime, int]] = (
                (lambda e: (e.date_utc, e.id))
                if flt.order_by_date
                else (lambda e: (e.utc_start_date, e.id))
            )
            found.sort(key=key)
            return found
        lo, hi = 0, len(self._by_start)
        if flt.start_min is not None:
            lo = max(lo, bisect_left(self._by_start, (flt.start_min, -1)))
        if flt.start_after is not None:
            lo = max(lo, bisect_right(self._by_start, (flt.start_after, 1 << 62)))
        # An event never ends before it starts, so end bounds also bound the start.
        for bound in (flt.start_before, flt.end_before):
            if bound is not None:
                hi = min(hi, bisect_left(self._by_start, (bound, -1)))
        if flt.end_max is not None:
            hi = min(hi, bisect_right(self._by_start, (flt.end_max, 1 << 62)))
        return (events[i] for _, i in self._by_start[lo:hi])

    def query_events(self, flt: EventFilter) -> tuple[list[Event], int]:
        with self._lock:
            matches = [e for e in self._event_candidates(flt) if _event_matches(e, flt)]
            return matches[flt.offset : flt.offset + flt.limit], len(matches)

    def query_event_page(self, flt: EventFilter) -> list[Event]:
        return self.query_events(flt)[0]

    def query_linked(
        self, kind: Literal["venue", "organizer"], flt: LinkedFilter
    ) -> tuple[Sequence[Venue | Organizer], int]:
        with self._lock:
            table = self._records[kind]
            if flt.event_id is not None:
                event = self._records["event"].get(flt.event_id)
                ids: Iterable[int] = getattr(event, kind) if isinstance(event, Event) else ()
            else:
                ids = table
            found = [r for i in ids if (r := table.get(i)) and self._linked_matches(kind, r, flt)]
            posts = [r for r in found if isinstance(r, Venue | Organizer)]
            posts.sort(key=lambda r: (r.date_utc, r.id), reverse=True)
            return posts[flt.offset : flt.offset + flt.limit], len(posts)

    def _linked_matches(self, kind: Kind, record: Record, flt: LinkedFilter) -> bool:
        assert isinstance(record, Venue | Organizer)
        if record.status not in flt.statuses or not _own_private(record, flt.private_author):
            return False
        if flt.search and not _any_field_has_all(record, flt.search):
            return False
        events = self._events()
        linked = [events[i] for i in self._links[kind].get(record.id, ())]
        if flt.has_events is not None:
            has = any(e.status in flt.has_events_statuses for e in linked)
            if has != flt.has_events:
                return False
        return flt.ids is None or record.id in flt.ids

    def query_terms(
        self, kind: Literal["category", "tag"], flt: TermFilter
    ) -> tuple[Sequence[Category | Tag], int]:
        with self._lock:
            table = self._records[kind]
            counts = self._published_counts[kind]
            if flt.post is not None:
                event = self._records["event"].get(flt.post)
                ids: Collection[int] = (
                    getattr(event, "categories" if kind == "category" else "tags")
                    if isinstance(event, Event)
                    else ()
                )
            elif flt.parent is not None:
                ids = self._children.get(kind, {}).get(flt.parent, set())
            else:
                ids = table.keys()
            if flt.include is not None:
                ids = [i for i in ids if i in flt.include]
            search = fold(flt.search) if flt.search else None
            found: list[Category | Tag] = []
            for term_id in ids:
                term = table.get(term_id)
                if not isinstance(term, Category | Tag) or term_id in flt.exclude:
                    continue
                if flt.parent is not None and term.parent != flt.parent:
                    continue
                if flt.hide_empty and counts[term_id] <= 0:
                    continue
                if flt.slug is not None and term.slug != flt.slug:
                    continue
                if search and search not in fold(term.name) and search not in fold(term.slug):
                    continue
                found.append(attrs.evolve(term, count=counts[term_id]))
            # Ties keep ascending ids in both directions: sort by id, then stably by the key.
            found.sort(key=lambda t: t.id)
            found.sort(key=_term_sort_key(flt), reverse=flt.descending)
            return found[flt.offset : flt.offset + flt.limit], len(found)

    # -- users -----------------------------------------------------------------------------
    def insert_user(self, user: User) -> None:
        with self.transaction():
            if any(u.login == user.login for u in self._users.values()):
                raise Conflict(
                    f"The login {user.login!r} is taken.", fields={"login": "choose another"}
                )
            self._users[user.id] = user
            self._on_rollback(lambda: self._forget_user(user.id))

    def _forget_user(self, user_id: int) -> None:
        self._users.pop(user_id, None)

    def get_user(self, user_id: int) -> User | None:
        return self._users.get(user_id)

    def find_user(self, login: str) -> User | None:
        with self._lock:
            return next((u for u in self._users.values() if u.login == login), None)

    def list_users(self) -> list[User]:
        with self._lock:
            return sorted(self._users.values(), key=lambda u: u.id)

    def remove_user(self, user_id: int) -> None:
        with self.transaction():
            user = self._users.pop(user_id, None)
            gone = {h: c for h, c in self._credentials.items() if c.user_id == user_id}
            for secret_hash in gone:
                del self._credentials[secret_hash]

            def undo() -> None:
                if user is not None:
                    self._users[user_id] = user
                self._credentials.update(gone)

            self._on_rollback(undo)

    def insert_credential(self, credential: Credential) -> None:
        with self.transaction():
            if credential.user_id not in self._users:
                raise Conflict("Credential for a missing user.")
            self._credentials[credential.secret_hash] = credential
            self._on_rollback(lambda: self._forget_credential(credential.secret_hash))

    def _forget_credential(self, secret_hash: str) -> None:
        self._credentials.pop(secret_hash, None)

    def find_credential(self, secret_hash: str) -> Credential | None:
        return self._credentials.get(secret_hash)

    def iter_credentials(self, user_id: int) -> Iterator[Credential]:
        with self._lock:
            found = [c for c in self._credentials.values() if c.user_id == user_id]
        return iter(sorted(found, key=lambda c: c.id))


def _with_count(term: Record, count: int) -> Record:
    assert isinstance(term, Category | Tag)
    return attrs.evolve(term, count=count)


def _own_private(record: Event | Venue | Organizer, private_author: int | None) -> bool:
    """Private records are visible only to their author when ``private_author`` is set."""
    return (
        private_author is None or record.status != Status.PRIVATE or record.author == private_author
    )


def _event_matches(event: Event, flt: EventFilter) -> bool:
    if event.status not in flt.statuses or not _own_private(event, flt.private_author):
        return False
    if flt.exclude_hidden and event.hide_from_listings:
        return False
    start, end = event.utc_start_date, event.utc_end_date
    if (
        (flt.start_min is not None and start < flt.start_min)
        or (flt.start_after is not None and start <= flt.start_after)
        or (flt.start_before is not None and start >= flt.start_before)
        or (flt.end_max is not None and end > flt.end_max)
        or (flt.end_after is not None and end <= flt.end_after)
        or (flt.end_before is not None and end >= flt.end_before)
    ):
        return False
    if flt.featured is not None and event.featured != flt.featured:
        return False
    if flt.post_parent is not None and event.post_parent != flt.post_parent:
        return False
    for ids, linked in (
        (flt.include, (event.id,)),
        (flt.venue_ids, event.venue),
        (flt.organizer_ids, event.organizer),
        (flt.category_ids, event.categories),
        (flt.tag_ids, event.tags),
    ):
        if ids is not None and not ids.intersection(linked):
            return False
    if flt.search:
        text = fold("\n".join(str(getattr(event, f)) for f in EVENT_SEARCH_FIELDS))
        return all(word in text for word in flt.search)
    return True


def _any_field_has_all(record: Venue | Organizer, words: tuple[str, ...]) -> bool:
    for name in LINKED_SEARCH_FIELDS[record.kind]:
        value = fold(str(getattr(record, name) or ""))
        if all(word in value for word in words):
            return True
    return False


def _term_sort_key(flt: TermFilter) -> Callable[[Category | Tag], tuple[object, ...]]:
    if flt.orderby == "include" and flt.include_order:
        position = {term_id: n for n, term_id in enumerate(flt.include_order)}
        return lambda t: (position.get(t.id, len(position)),)
    field = {
        "name": "name",
        "id": "id",
        "slug": "slug",
        "count": "count",
        "description": "description",
        "term_group": "id",
        "include": "id",
    }[flt.orderby]
    if field in ("name", "description"):
        return lambda t: (fold(str(getattr(t, field))),)
    return lambda t: (getattr(t, field),)
