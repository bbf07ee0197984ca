"""The storage protocol over any SQL database, written once.

``SQLStore`` implements ``storage.Storage`` and ``storage.UserStore`` with portable SQL (``?``
placeholders, double-quoted identifiers) run through an ``Engine``; a backend is this class
plus an engine (SQLite, PostgreSQL). Lists are compiled by ``compiler`` and served by indexes;
totals are counted in SQL; a page's links load with one query per link table, never one per
row.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Collection,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar, cast

import attrs

from ...changes import Change, Changes
from ...converters import make_storage_converter
from ...errors import Conflict
from ...queries import EventFilter
from ...records import (
    POST_KINDS,
    RECORD_CLASSES,
    Category,
    Credential,
    Event,
    Kind,
    Organizer,
    Record,
    User,
    Venue,
)
from ...storage import Family, Filter
from .category_tree import branch_root
from .compiler import LINK_FILTERS, compile_filter, select_list
from .engine import Engine, Result
from .kept_totals import KeptTotals
from .link_plans import RARE_LINKS, Plan, choose, choose_search, choose_search_count
from .rows import Links, RecordFromRow, record_reader
from .schema import LINKS, LISTING_KEY, TABLES, column_names, link_fields, listing_key, read_columns
from .window_counts import window_count

__all__ = ["SQLStore"]

R = TypeVar("R", bound=Record)
P = TypeVar("P", bound=Record | User | Credential)

#: Journal entries read at most in one catch-up (``changes``).
_JOURNAL_READ = 4096
#: Ids per statement when a list of ids is sent to the database.
CHUNK = 900
#: An event row's columns that its links keep a copy of and its counts are keyed by.
_LISTING = frozenset(LISTING_KEY)


def _chunks(ids: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for at in range(0, len(ids), CHUNK):
        yield ids[at : at + CHUNK]


def _marks(values: Collection[Any]) -> str:
    return ", ".join("?" * len(values))


class SQLStore:
    """Records, users and credentials in the tables of ``schema``, through one engine."""

    #: Links counted at most to choose a list's plan (``link_plans``); tests set it to 0 so
    #: that every link filter is probed along the walk.
    rare_links: int = RARE_LINKS
    #: From this many events on, links are read with one statement per link table rather
    #: than one union of all four (``_links``); tests set it to 0 or past any read.
    links_apart: int = 50

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self._converter = make_storage_converter()
        self._readers: dict[tuple[type, tuple[str, ...]], RecordFromRow[Any]] = {}
        self._unstructure: dict[type, Callable[[Any], Any]] = {}  # the converter's, per class
        self._tables = {kind: self.dialect.quote(table) for kind, table in TABLES.items()}
        self._kept_totals = KeptTotals(self.changes, self._count_few)

    # -- lifecycle -------------------------------------------------------------------------
    def transaction(self) -> AbstractContextManager[None]:
        return self.engine.transaction()

    @property
    def migrated(self) -> tuple[str, ...]:
        """The migrations opening the database applied (``storage.Migrated``)."""
        return self.engine.migrated

    def generation(self) -> Hashable:
        return self.engine.generation()

    def generation_nowait(self) -> Hashable | None:
        return self.engine.generation_nowait()

    def changes(self, since: int | None) -> Changes:
        """The journal (SQLite migration 0008, PostgreSQL 4) after ``since``: its rows, then
        its horizon, in that order, so that a prune in between shows as one. More entries
        than ``_JOURNAL_READ`` are answered as "anything", which costs less than reading
        them all for a cache that would retire nearly everything anyway."""
        newest: int | None = None
        if since is not None:
            found = self._run(
                "SELECT seq, kind, record_id, op FROM changes WHERE seq > ? ORDER BY seq"
                f" LIMIT {_JOURNAL_READ + 1}",
                [since],
            ).rows
            if not found:
                newest = self._newest_change()
            # A journal whose newest entry is behind ``since`` went back: the database was
            # restored from an older copy under a reader (its data moved back, and its next
            # entries reuse numbers the reader has passed): "anything", from its real end.
            if len(found) <= _JOURNAL_READ and (newest is None or newest >= since):
                rows = [Change(kind, record_id, op) for _, kind, record_id, op in found]
                cursor = max([since, *(seq for seq, *_ in found)])
                horizon = int(self._run("SELECT seq FROM changes_horizon").scalar())
                return Changes.of(cursor, horizon, since, rows)
        return Changes(self._newest_change() if newest is None else newest, None)

    def _newest_change(self) -> int:
        """The journal's last entry, or the horizon it was pruned up to when it is empty."""
        return int(
            self._run(
                "SELECT coalesce(max(seq), (SELECT seq FROM changes_horizon)) FROM changes"
            ).scalar()
        )

    def close(self) -> None:
        self.engine.close()

    def _run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.engine.execute(sql, params)

    # -- rows <-> records ------------------------------------------------------------------
    def _row(self, record: Record) -> dict[str, Any]:
        """A record as its table's columns (derived ones included, a term's count not: the
        database keeps it)."""
        return dict(zip(self._columns(type(record)), self._values(record), strict=True))

    def _columns(self, cls: type[Record]) -> list[str]:
        """The columns ``_values`` fills, in its order."""
        derived = ["name_key"]
        if cls is Event:
            derived += ["utc_start", "utc_end"]
        if cls in (Event, Venue, Organizer):
            derived.append("published")
        return [*column_names(cls), *derived]

    def _values(self, record: Record) -> list[Any]:
        """``_row``'s values, in the order of ``_columns``: what an insert sends (a bulk
        load sends a million of them, so no dict is built per record)."""
        cls = type(record)
        unstructure = self._unstructure.get(cls)
        if unstructure is None:
            unstructure = self._unstructure[cls] = self._converter.get_unstructure_hook(cls)
        data = unstructure(record)
        values = [data[name] for name in column_names(cls)]
        values.append(record.name.casefold())
        if isinstance(record, Event):
            values.append(int(record.utc_start_date.timestamp()))
            values.append(int(record.utc_end_date.timestamp()))
        if isinstance(record, Event | Venue | Organizer):
            values.append(int(record.date_utc.timestamp()))
        return values

    def _records(self, cls: type[R], result: Result) -> list[R]:
        """Records from rows of ``read_columns``, their links loaded in bulk (one statement
        for every link table), each built by the class's generated reader (``rows``)."""
        links: Links = None
        if cls is Event and result.rows:
            at = result.columns.index("id")
            found = self._links([row[at] for row in result.rows])
            links = [found[field] for field in link_fields(Event)]
        return self._plain(cls, result, links)

    def _plain(self, cls: type[P], result: Result, links: Links = None) -> list[P]:
        """Records (or users, credentials) from rows of their own table, by the class's
        generated reader: a sign-in reads two of them, so cattrs' checking would be most of
        its cost; and a row is read where it lies, not copied into a dict first."""
        key = (cls, result.columns)
        reader: RecordFromRow[P] | None = self._readers.get(key)
        if reader is None:
            reader = self._readers[key] = record_reader(cls, result.columns)
        return [reader(row, links) for row in result.rows]

    def _links(self, event_ids: Sequence[int]) -> dict[str, dict[int, list[int]]]:
        """Every link of these events: all link tables in one statement for a few events (a
        get, a page), one statement per link table for many (``links_apart``): from a few
        dozen events on those are cheaper (30% on SQLite at 900 events), as each returns two
        columns in its index's order, where the union is sorted as a whole."""
        fields = link_fields(Event)
        found: dict[str, dict[int, list[int]]] = {field: {} for field in fields}
        for chunk in _chunks(event_ids):
            inner, params = self.dialect.in_("event_id", chunk)
            if len(chunk) < self.links_apart:
                self._links_together(found, inner, params)
                continue
            for field in fields:
                link, by_event = LINKS[field], found[field]
                sql = (
                    f"SELECT event_id, {self.dialect.quote(link.column)}"
                    f" FROM {self.dialect.quote(link.table)} WHERE {inner}"
                    " ORDER BY event_id, position"
                )
                for event_id, target in self._run(sql, params).rows:
                    if event_id in by_event:
                        by_event[event_id].append(target)
                    else:
                        by_event[event_id] = [target]
        return found

    def _links_together(
        self, found: dict[str, dict[int, list[int]]], inner: str, params: list[Any]
    ) -> None:
        """The links of a few events, all link tables in one ``UNION ALL`` statement."""
        q = self.dialect.quote
        fields = link_fields(Event)
        parts = [
            f"SELECT {n} AS field, event_id, {q(LINKS[field].column)} AS target, position"
            f" FROM {q(LINKS[field].table)} WHERE {inner}"
            for n, field in enumerate(fields)
        ]
        sql = " UNION ALL ".join(parts) + " ORDER BY field, event_id, position"
        for field_number, event_id, target, _ in self._run(sql, params * len(parts)).rows:
            found[fields[field_number]].setdefault(event_id, []).append(target)

    def _select(self, kind: Kind, ids: Sequence[int]) -> Result:
        """The rows of ``read_columns`` of these records (any number of them)."""
        columns, rows = tuple(read_columns(kind)), []
        for chunk in _chunks(ids):
            inner, params = self.dialect.in_("id", chunk)
            sql = (
                f"SELECT {select_list(self.dialect, kind)} FROM {self._tables[kind]} WHERE {inner}"
            )
            rows.extend(self._run(sql, params).rows)
        return Result(columns, rows)

    # -- ids and slugs ---------------------------------------------------------------------
    def reserve_ids(self, family: Family, count: int = 1) -> range:
        with self.engine.transaction():
            last = self._run(
                "UPDATE sequences SET value = value + ? WHERE name = ? RETURNING value",
                [count, family],
            ).scalar()
            return range(int(last) - count + 1, int(last) + 1)

    def last_id(self, family: Family) -> int:
        return int(self._run("SELECT value FROM sequences WHERE name = ?", [family]).scalar())

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> dict[str, int]:
        wanted = sorted(slugs)
        found: dict[str, int] = {}
        for chunk in _chunks(wanted):
            inner, params = self.dialect.in_("slug", chunk)
            sql = f"SELECT slug, id FROM {self._tables[kind]} WHERE {inner}"
            found.update(self._run(sql, params).rows)
        return found

    def slugs_starting(self, kind: Kind, prefix: str) -> set[str]:
        if not prefix:
            raise ValueError("slugs_starting needs a prefix")
        # A range on the unique slug index: prefix <= slug < the prefix's successor.
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        sql = f"SELECT slug FROM {self._tables[kind]} WHERE slug >= ? AND slug < ?"
        return set(self._run(sql, [prefix, after]).first_column())

    def aliases_starting(self, kind: Kind, prefix: str) -> dict[str, int]:
        if not prefix:
            raise ValueError("aliases_starting needs a prefix")
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # a range on the primary key
        rows = self._run(
            "SELECT slug, record_id FROM slug_aliases WHERE kind = ? AND slug >= ? AND slug < ?",
            [kind, prefix, after],
        ).rows
        return {slug: int(record_id) for slug, record_id in rows}

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        found = self._run(  # the current slug first, then a former one
            f"SELECT id, 0 AS former FROM {self._tables[kind]} WHERE slug = ? UNION ALL"
            " SELECT record_id, 1 FROM slug_aliases WHERE kind = ? AND slug = ?"
            " ORDER BY former LIMIT 1",
            [slug, kind, slug],
        ).scalar()
        return None if found is None else int(found)

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        with self.engine.transaction():
            self._run(
                "INSERT INTO slug_aliases (kind, slug, record_id) VALUES (?, ?, ?)"
                " ON CONFLICT (kind, slug) DO NOTHING",  # the first record to leave it keeps it
                [kind, slug, record_id],
            )

    def slug_aliases(self, kind: Kind) -> dict[str, int]:
        rows = self._run("SELECT slug, record_id FROM slug_aliases WHERE kind = ?", [kind]).rows
        return {slug: int(record_id) for slug, record_id in rows}

    def find_names(self, kind: Kind, names: Collection[str]) -> dict[str, list[int]]:
        keys = sorted({name.casefold() for name in names})
        by_key: dict[str, list[int]] = {}
        for chunk in _chunks(keys):
            inner, params = self.dialect.in_("name_key", chunk)
            for key, record_id in self._run(
                f"SELECT name_key, id FROM {self._tables[kind]} WHERE {inner} ORDER BY id", params
            ).rows:
                by_key.setdefault(key, []).append(record_id)
        return {name: by_key[name.casefold()] for name in names if name.casefold() in by_key}

    def find_values(self, kind: Kind, field: str, values: Collection[str]) -> dict[str, list[int]]:
        column = self.dialect.quote(field)
        found: dict[str, list[int]] = {}
        for chunk in _chunks(sorted(set(values))):
            inner, params = self.dialect.in_(column, chunk)
            sql = f"SELECT {column}, id FROM {self._tables[kind]} WHERE {inner} ORDER BY id"
            for value, record_id in self._run(sql, params).rows:
                found.setdefault(value, []).append(record_id)
        return found

    def post_kind(self, record_id: int) -> Kind | None:
        found = self._run(
            " UNION ALL ".join(
                f"SELECT '{kind}' FROM {self._tables[kind]} WHERE id = ?" for kind in POST_KINDS
            ),
            [record_id] * len(POST_KINDS),
        ).scalar()
        return next((kind for kind in POST_KINDS if kind == found), None)

    # -- writes ----------------------------------------------------------------------------
    def insert(self, records: Sequence[Record]) -> None:
        """One multi-row statement per table (and per link table), not one per record."""
        by_kind: dict[Kind, list[Record]] = {}
        for record in records:
            by_kind.setdefault(record.kind, []).append(record)
        with self.engine.transaction():
            for kind, group in by_kind.items():
                ids = [r.id for r in group]
                if len(set(ids)) != len(ids) or self._any_taken(kind, ids):
                    raise Conflict(f"An id among {ids[:3]} is taken.")
                for record in group:
                    self._check(record)
                columns = self._columns(type(group[0]))
                with self._batch(kind, ids):
                    self._insert_rows(self._tables[kind], columns, [self._values(r) for r in group])
                for field in link_fields(RECORD_CLASSES[kind]):
                    self._insert_links(field, group)

    def _insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Multi-row ``INSERT`` statements, as few as the dialect's parameter limit allows:
        one statement per few thousand rows rather than one per row (per-statement work,
        a round trip on a server database, a statement trigger, is paid once a chunk)."""
        names = ", ".join(self.dialect.quote(c) for c in columns)
        row_marks = f"({_marks(columns)})"
        per = max(1, self.dialect.max_params // len(columns))
        for at in range(0, len(rows), per):
            chunk = rows[at : at + per]
            self._run(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([row_marks] * len(chunk))}",
                [value for row in chunk for value in row],
            )

    def _batch(self, kind: Kind, ids: Sequence[int]) -> AbstractContextManager[None]:
        """Around a multi-row insert: an engine may index the batch at once (SQLite's FTS)."""
        return nullcontext()

    def _insert_links(self, field: str, events: Sequence[Record]) -> None:
        """The events' links of ``field``, each with its event's listing key."""
        link = LINKS[field]
        rows = [
            (r.id, target, n, *key)
            for r in events
            for key in (listing_key(cast("Event", r)),)
            for n, target in enumerate(getattr(r, field))
        ]
        if rows:
            self._insert_rows(
                self.dialect.quote(link.table),
                ["event_id", link.column, "position", *LISTING_KEY],
                rows,
            )

    def _any_taken(self, kind: Kind, ids: Sequence[int]) -> bool:
        """Whether any of ``ids`` is used by a record of that id sequence: the tables of the
        sequence in one statement (per chunk), since on a server database each statement is
        a round trip, and every create asks (one statement per table was 3 of a create's 13
        on PostgreSQL)."""
        kinds = POST_KINDS if kind in POST_KINDS else (kind,)
        for chunk in _chunks(ids):
            inner, params = self.dialect.in_("id", chunk)
            sql = " UNION ALL ".join(
                f"SELECT 1 FROM {self._tables[k]} WHERE {inner}" for k in kinds
            )
            if self._run(f"{sql} LIMIT 1", params * len(kinds)).rows:
                return True
        return False

    def _check(self, record: Record) -> None:
        """What the schema cannot say: a parent event or category must exist."""
        if isinstance(record, Event) and record.post_parent:
            if self.post_kind(record.post_parent) != "event":
                raise Conflict(
                    "post_parent names no event.", fields={"post_parent": "use an event id"}
                )
        elif (
            isinstance(record, Category)
            and record.parent
            and not self._select("category", [record.parent]).rows
        ):
            raise Conflict("parent names no category.", fields={"parent": "use a category id"})

    def replace(self, record: Record) -> None:
        with self.engine.transaction():
            self._check(record)
            row = self._row(record)
            assignments = ", ".join(f"{self.dialect.quote(c)} = ?" for c in row)
            result = self._run(
                f"UPDATE {self._tables[record.kind]} SET {assignments} WHERE id = ?",
                [*row.values(), record.id],
            )
            if result.rowcount != 1:
                raise Conflict(f"No {record.kind} {record.id} to replace.")
            for field in link_fields(type(record)):
                link = LINKS[field]
                self._run(
                    f"DELETE FROM {self.dialect.quote(link.table)} WHERE event_id = ?", [record.id]
                )
                self._insert_links(field, [record])

    def remove(self, kind: Kind, record_id: int) -> None:
        with self.engine.transaction():
            if kind == "event":
                self._reparent_children(record_id)
            self._run(f"DELETE FROM {self._tables[kind]} WHERE id = ?", [record_id])
            self._run(
                "DELETE FROM slug_aliases WHERE kind = ? AND record_id = ?", [kind, record_id]
            )

    def _reparent_children(self, event_id: int) -> None:
        """Give the events whose ``post_parent`` is ``event_id`` that event's own parent (0
        when it has none), as WordPress's ``wp_delete_post`` does, before it is removed:
        a child left pointing at a removed event could never be written again (``_check``).
        One statement over the ``events_parent`` index (its ``<> 0`` term lets SQLite use
        the partial index with a bound id); the journal triggers report each child as
        updated. A child that would become its own parent (a loop stored before
        ``post_parent`` loops were refused) gets 0."""
        table = self._tables["event"]
        parent = self._run(f"SELECT post_parent FROM {table} WHERE id = ?", [event_id]).scalar()
        if parent is None:
            return
        self._run(
            f"UPDATE {table} SET post_parent = CASE WHEN id = ? THEN 0 ELSE ? END"
            " WHERE post_parent = ? AND post_parent <> 0 AND id <> ?",
            [int(parent), int(parent), event_id, event_id],
        )

    # -- reads -----------------------------------------------------------------------------
    def get_many(self, cls: type[R], ids: Iterable[int]) -> dict[int, R]:
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        # One statement (a kind without links, the ids in one chunk) sees one snapshot on its
        # own; an event's row and its links, or several chunks, are read in one transaction.
        alone = cls is not Event and len(wanted) <= CHUNK
        with nullcontext() if alone else self.engine.reading():
            found = self._records(cls, self._select(cls.kind, wanted))
        return {record.id: record for record in found}

    def _link_weights(self, flt: Filter) -> tuple[dict[str, int], int, set[str]]:
        """What ``link_plans.choose`` weighs for ``flt``: each link filter's links (a
        venue's or organizer's counted up to just past ``rare_links``, a term's from its
        stored count), about how many events there are (the highest id), and the filters
        of one id, which can walk their listing index. With one such filter there is
        nothing to weigh, and nothing is counted."""
        if not isinstance(flt, EventFilter):
            return {}, 0, set()
        present = {f: ids for f in LINK_FILTERS if (ids := getattr(flt, f)) is not None}
        single = set() if flt.order_by_date else {f for f, ids in present.items() if len(ids) == 1}
        if not present or len(single) == 1:
            return dict.fromkeys(present, 0), 0, single
        counts: dict[str, int] = {}
        for field, ids in present.items():
            link = LINKS[LINK_FILTERS[field]]
            if link.target in ("category", "tag"):  # the terms' stored counts, summed
                inner, params = self.dialect.in_("id", sorted(ids))
                sql = (
                    f"SELECT coalesce(sum(count), 0) FROM {self._tables[link.target]} WHERE {inner}"
                )
            else:
                inner, params = self.dialect.in_(self.dialect.quote(link.column), sorted(ids))
                sql = (
                    f"SELECT count(*) FROM (SELECT 1 FROM {self.dialect.quote(link.table)}"
                    f" WHERE {inner} LIMIT {self.rare_links + 1}) found"
                )
            counts[field] = min(int(self._run(sql, params).scalar()), self.rare_links + 1)
        events = self._run("SELECT coalesce(max(id), 0) FROM events").scalar()
        return counts, events, single

    def _search_sample(self, flt: Filter) -> tuple[int, int, int] | None:
        """(matches, last id, ids) for an event search: the text index's first matches of its
        words (``Dialect.search_sample``) and about how many ids there are, which the
        search plans weigh (``link_plans``); ``None`` if the dialect does not sample."""
        if not isinstance(flt, EventFilter) or not flt.search:
            return None
        sample = self.dialect.search_sample("events", flt.search)
        if sample is None:
            return None
        found, last_id = self._run(*sample).rows[0]
        return int(found), int(last_id), self.last_id("post")

    def _search_count_plan(
        self, flt: Filter, branch: int | None, sampled: tuple[int, int, int] | None
    ) -> Plan | None:
        """How an event search's total is counted (``link_plans.choose_search_count``): the
        window its other conditions select is counted first, exactly when the day counts
        answer that (a millisecond), else taken to be every event."""
        if sampled is None or not isinstance(flt, EventFilter):
            return None
        unsearched = window_count(
            self.dialect,
            "event",
            attrs.evolve(flt, search=(), search_excluded=(), locked_search_in_title=False),
            branch=branch,
        )
        window = sampled[2] if unsearched is None else int(self._run(*unsearched).scalar())
        return choose_search_count(*sampled, window)

    def _branch(self, flt: Filter) -> int | None:
        """The category whose whole branch ``flt``'s several category ids are, if any (the
        core expands a category filter to its branch): its branch counts answer the total."""
        if not isinstance(flt, EventFilter) or len(flt.category_ids or ()) < 2:
            return None
        found = self._run(*branch_root(self.dialect, flt.category_ids or ())).scalar()
        return None if found is None else int(found)

    def _count(
        self,
        kind: Kind,
        flt: Filter,
        links: dict[str, int],
        events: int,
        single: Collection[str],
        sampled: tuple[int, int, int] | None,
    ) -> int:
        """``flt``'s total, counted: from the count tables when they can say, else by the
        cheapest plan (``link_plans``)."""
        branch = self._branch(flt)
        counted = window_count(self.dialect, kind, flt, branch=branch)
        if counted is None:
            plans = choose(links, events, None, rare=self.rare_links, single=single)
            if self._search_count_plan(flt, branch, sampled) == "drive":
                plans["search"] = "drive"
            counted = compile_filter(self.dialect, kind, flt, plans=plans).count_sql()
        return int(self._run(*counted).scalar())

    def _count_few(self, flt: EventFilter) -> int:
        """The events among the few of ``flt.include`` that ``flt`` lists: each looked up by
        id, its words checked on its row (``kept_totals``)."""
        plans: dict[str, Plan] = {"include": "drive"}
        if flt.search:
            plans["search"] = "probe"
        counted = compile_filter(self.dialect, "event", flt, plans=plans).count_sql()
        return int(self._run(*counted).scalar())

    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        with self.engine.reading():
            links, events, single = self._link_weights(flt)
            # Both search plans weigh the sample: a count's, and a walk's that stops early.
            wanted = None if flt.limit is None else flt.offset + flt.limit
            sampled = self._search_sample(flt) if count or wanted is not None else None
            total: int | None = None
            if count:

                def fresh() -> int:
                    return self._count(cls.kind, flt, links, events, single, sampled)

                if isinstance(flt, EventFilter) and not self.engine.writing():
                    total = self._kept_totals.total(flt, fresh)
                else:
                    total = fresh()
                if total <= flt.offset:
                    return [], total
            plans = choose(links, events, wanted, rare=self.rare_links, single=single)
            # A common word is checked on the walked rows (``link_plans.choose_search``).
            if sampled is not None and choose_search(*sampled, wanted) == "probe":
                plans["search"] = "probe"
            q = compile_filter(self.dialect, cls.kind, flt, plans=plans)
            return self._records(cls, self._run(*q.rows_sql())), total

    # -- users -----------------------------------------------------------------------------
    def insert_user(self, user: User) -> None:
        self._insert_plain("users", self._converter.unstructure(user))

    def _insert_plain(self, table: str, data: dict[str, Any]) -> None:
        names = ", ".join(self.dialect.quote(c) for c in data)
        with self.engine.transaction():
            self._run(f"INSERT INTO {table} ({names}) VALUES ({_marks(data)})", list(data.values()))

    def _users(self, where: str, params: Sequence[Any]) -> list[User]:
        return self._plain(
            User, self._run(f"SELECT * FROM users WHERE {where} ORDER BY id", params)
        )

    def get_user(self, user_id: int) -> User | None:
        return next(iter(self._users("id = ?", [user_id])), None)

    def find_user(self, login: str) -> User | None:
        return next(iter(self._users("login = ?", [login])), None)

    def list_users(self) -> list[User]:
        return self._users(self.dialect.true, [])

    def remove_user(self, user_id: int) -> None:
        with self.engine.transaction():
            self._run("DELETE FROM users WHERE id = ?", [user_id])

    def insert_credential(self, credential: Credential) -> None:
        self._insert_plain("credentials", self._converter.unstructure(credential))

    def _credentials(self, where: str, params: Sequence[Any]) -> list[Credential]:
        sql = f"SELECT * FROM credentials WHERE {where} ORDER BY id"
        return self._plain(Credential, self._run(sql, params))

    def find_credential(self, secret_hash: str) -> Credential | None:
        return next(iter(self._credentials("secret_hash = ?", [secret_hash])), None)

    def credentials(self, user_id: int) -> list[Credential]:
        return self._credentials("user_id = ?", [user_id])

    # -- batch replace ---------------------------------------------------------------------
    def replace_many(self, records: Sequence[Record], *, links: bool = True) -> None:
        """``replace`` for many records, a chunk at a time: each chunk's stored rows and links
        are read in one statement each, and only what differs is written (a rescheduled
        event rewrites its dates, not its text: no text index work, no link rows)."""
        by_kind: dict[Kind, list[Record]] = {}
        for record in records:
            by_kind.setdefault(record.kind, []).append(record)
        with self.engine.transaction():
            for kind, group in by_kind.items():
                for chunk in _chunks(group):
                    self._replace_chunk(kind, chunk, links=links)

    def _replace_chunk(self, kind: Kind, group: Sequence[Record], *, links: bool) -> None:
        q, table = self.dialect.quote, self._tables[kind]
        rows = {record.id: self._row(record) for record in group}
        columns = list(rows[group[0].id])
        inner, params = self.dialect.in_("id", list(rows))
        sql = f"SELECT {', '.join(q(c) for c in columns)} FROM {table} WHERE {inner}"
        stored = {row["id"]: row for row in self._run(sql, params).dicts()}
        changes: dict[tuple[str, ...], list[list[Any]]] = {}  # by the columns that differ
        moved: set[int] = set()  # events whose listing key or links change
        for record in group:
            if record.id not in stored:
                raise Conflict(f"No {kind} {record.id} to replace.")
            self._check(record)
            new, old = rows[record.id], stored[record.id]
            changed = tuple(c for c in columns if new[c] != old[c])
            if changed:
                changes.setdefault(changed, []).append([record.id, *(new[c] for c in changed)])
                if not _LISTING.isdisjoint(changed):
                    moved.add(record.id)
        relinked: dict[str, list[Record]] = {}
        fields = link_fields(RECORD_CLASSES[kind])
        if fields and links:
            before = self._links(list(rows))
            for field in fields:
                if again := [
                    r for r in group if list(getattr(r, field)) != before[field].get(r.id, [])
                ]:
                    relinked[field] = again
                    moved.update(r.id for r in again)
        with self._rewrite(kind, sorted(moved)):
            for changed, values in changes.items():
                self._update_many_rows(table, changed, values)
            for field, again in relinked.items():
                inner, params = self.dialect.in_("event_id", [r.id for r in again])
                self._run(f"DELETE FROM {q(LINKS[field].table)} WHERE {inner}", params)
                self._insert_links(field, again)

    def _rewrite(self, kind: Kind, ids: Sequence[int]) -> AbstractContextManager[None]:
        """Around the writes of one chunk of ``replace_many``: ``ids`` are the events whose
        listing key or links change. An engine whose triggers fire row by row may set them
        aside and keep the counts and the links' listing keys set-wise (SQLite)."""
        return nullcontext()

    def _update_many_rows(
        self, table: str, columns: Sequence[str], values: Sequence[Sequence[Any]]
    ) -> None:
        """Rows ``(id, *columns)`` written with one ``UPDATE ... FROM`` a ``VALUES`` list per
        few thousand rows, rather than one statement (and one round trip) per row."""
        q = self.dialect.quote
        names = ", ".join(q(c) for c in ("id", *columns))
        assignments = ", ".join(f"{q(c)} = v.{q(c)}" for c in columns)
        row_marks = f"({_marks(['id', *columns])})"
        per = max(1, self.dialect.max_params // (len(columns) + 1))
        for at in range(0, len(values), per):
            chunk = values[at : at + per]
            self._run(
                f"WITH v ({names}) AS (VALUES {', '.join([row_marks] * len(chunk))})"
                f" UPDATE {table} SET {assignments} FROM v WHERE {table}.id = v.id",
                [value for row in chunk for value in row],
            )

    # -- import keys -----------------------------------------------------------------------
    def find_import_keys(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        wanted = sorted(set(keys))
        found: dict[str, int] = {}
        for chunk in _chunks(wanted):
            inner, params = self.dialect.in_("key", chunk)
            sql = f"SELECT key, record_id FROM import_keys WHERE kind = ? AND {inner}"
            found.update((key, int(i)) for key, i in self._run(sql, [kind, *params]).rows)
        return found

    def set_import_keys(self, kind: Kind, keys: Mapping[str, int]) -> None:
        rows = [(kind, key, record_id) for key, record_id in keys.items()]
        if not rows:
            return
        per = max(1, self.dialect.max_params // 3)
        with self.engine.transaction():
            for at in range(0, len(rows), per):
                chunk = rows[at : at + per]
                self._run(
                    "INSERT INTO import_keys (kind, key, record_id) VALUES "
                    + ", ".join(["(?, ?, ?)"] * len(chunk))
                    + " ON CONFLICT (kind, key) DO UPDATE SET record_id = excluded.record_id",
                    [value for row in chunk for value in row],
                )

    def import_keys(self, kind: Kind) -> dict[str, int]:
        rows = self._run("SELECT key, record_id FROM import_keys WHERE kind = ?", [kind]).rows
        return {key: int(record_id) for key, record_id in rows}

    # -- the calendar's identity -----------------------------------------------------------
    def calendar_identity(self) -> str:
        return str(self._run("SELECT identity FROM calendar_identity").rows[0][0])

    def set_calendar_identity(self, identity: str) -> None:
        with self.engine.transaction():
            self._run("UPDATE calendar_identity SET identity = ?", [identity])
