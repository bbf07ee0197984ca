"""The SQLite schema: tables derived from the record declarations, applied as migrations.

Columns come from the record classes (``converters.stored_fields``) so that a field is declared
once. Links (an event's venues, organizers, categories, tags) live in link tables with a
``position`` so their order survives. Events also carry integer UTC epoch columns (``utc_start``,
``utc_end``, ``published``) that the indexes and range filters use; every kind carries
``name_key``, the case-folded display name, for de-duplication and lookups by name.

Migrations are listed here in order (``STEPS``) and applied with sqlite-utils' ``Migrations``
when a database is opened, so opening a file written by an older version upgrades it. A new
field on a record needs a new migration that adds its column; the initial one creates what
exists today.

sqlite-utils is imported only when a file has a migration to apply (``migrations()``):
importing it imports pandas and numpy whenever they are installed, which cost every process
that opened a calendar about 0.6 s and 56 MB, though a file already up to date needs nothing
of it.
"""

from __future__ import annotations

import functools
import sqlite3
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..changes import ANYTHING, KEPT
from ..queries import EVENT_SEARCH_FIELDS, LINKED_SEARCH_FIELDS
from ..records import RECORD_CLASSES, Kind
from ..storage import new_calendar_identity
from .sql.category_tree import (
    TREE,
    counted_tree,
    insert_statement,
    move_statements,
    recount_branches,
    tree_links,
    tree_tables,
    uncount_category,
)
from .sql.schema import LINKS, LISTING_KEY, TABLES, Link, column_names, columns
from .sql.window_counts import KEY_COLUMNS, add_events, add_links, counted_links, create_tables
from .sqlite_search_merge import CRISIS_SEGMENTS, LEVEL_SEGMENTS

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

__all__ = [
    "FOLDED_BY",
    "INDEX_EVENTS_BETWEEN",
    "JOURNAL_INSERT_TRIGGERS",
    "LINK_TABLES",
    "MIGRATIONS_TABLE",
    "MIGRATION_SET",
    "REWRITE_TRIGGERS",
    "SEARCH_INDEXES",
    "STEPS",
    "WINDOW_COUNT_TRIGGERS",
    "migrations",
    "refold_search_indexes",
]

#: Event link field -> (link table, column naming the linked record), as the migrations
#: below spell it (they are history: a migration never changes once released).
LINK_TABLES: dict[str, tuple[str, str]] = {
    f: (link.table, link.column) for f, link in LINKS.items()
}


def _columns(kind: Kind) -> dict[str, str]:
    """SQLite type and nullability of a record's own columns."""
    own = set(column_names(RECORD_CLASSES[kind]))
    return {
        c.name: ("INTEGER" if c.type in (bool, int) else "TEXT")
        + ("" if c.nullable else " NOT NULL")
        for c in columns(kind)
        if c.name in own
    }


Step = Callable[["Database"], None]
S = TypeVar("S", bound=Step)

#: The name sqlite-utils records this library's migrations under.
MIGRATION_SET = "events_calendar"
#: The table sqlite-utils records applied migrations in (``Migrations.migrations_table``):
#: read directly to learn, without importing sqlite-utils, whether a file is up to date.
MIGRATIONS_TABLE = "_sqlite_migrations"
#: Every migration, in the order they apply: its name and what it does.
STEPS: list[tuple[str, Step]] = []


def _migration(name: str) -> Callable[[S], S]:
    def register(step: S) -> S:
        STEPS.append((name, step))
        return step

    return register


@functools.cache
def migrations() -> Migrations:
    """sqlite-utils' ``Migrations`` of every step, which applies what a file lacks."""
    from sqlite_utils.migrations import Migrations

    built = Migrations(MIGRATION_SET)
    for name, step in STEPS:
        built(name=name)(step)
    return built


@_migration("0001_initial")
def _initial(db: Database) -> None:
    """Tables, link tables, slug aliases, id sequences, users, and the indexes every filter
    uses."""
    for kind, table in TABLES.items():
        ddl = ", ".join(
            f"[{name}] {'INTEGER PRIMARY KEY' if name == 'id' else sql_type}"
            for name, sql_type in _columns(kind).items()
        )
        extra = ", name_key TEXT NOT NULL"
        if kind == "event":
            extra += (
                ", utc_start INTEGER NOT NULL, utc_end INTEGER NOT NULL, published INTEGER NOT NULL"
            )
        elif kind in ("venue", "organizer"):
            extra += ", published INTEGER NOT NULL"
        db.execute(f"CREATE TABLE [{table}] ({ddl}{extra})")
        db.execute(f"CREATE UNIQUE INDEX [{table}_slug] ON [{table}] (slug)")
        db.execute(f"CREATE INDEX [{table}_name_key] ON [{table}] (name_key)")
    db.execute("CREATE INDEX events_start ON events (utc_start, id)")
    db.execute("CREATE INDEX events_end ON events (utc_end)")
    db.execute("CREATE INDEX events_status ON events (status, utc_start)")
    db.execute("CREATE INDEX events_published ON events (published, id)")
    db.execute("CREATE INDEX events_parent ON events (post_parent) WHERE post_parent != 0")
    db.execute("CREATE INDEX venues_published ON venues (published, id)")
    db.execute("CREATE INDEX organizers_published ON organizers (published, id)")
    db.execute("CREATE INDEX categories_parent ON categories (parent)")
    for table, column in LINK_TABLES.values():
        target = {
            "event_venues": "venues",
            "event_organizers": "organizers",
            "event_categories": "categories",
            "event_tags": "tags",
        }[table]
        db.execute(
            f"CREATE TABLE [{table}] ("
            " event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,"
            f" [{column}] INTEGER NOT NULL REFERENCES [{target}](id) ON DELETE CASCADE,"
            " position INTEGER NOT NULL,"
            f" PRIMARY KEY (event_id, [{column}]))"
        )
        db.execute(f"CREATE INDEX [{table}_target] ON [{table}] ([{column}], event_id)")
    db.execute(
        "CREATE TABLE slug_aliases (kind TEXT NOT NULL, slug TEXT NOT NULL,"
        " record_id INTEGER NOT NULL, PRIMARY KEY (kind, slug))"
    )
    db.execute("CREATE TABLE sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    for family in ("post", "term", "user", "credential"):
        db.execute("INSERT INTO sequences (name, value) VALUES (?, 0)", [family])
    db.execute(
        "CREATE TABLE users (id INTEGER PRIMARY KEY, login TEXT NOT NULL UNIQUE,"
        " role TEXT NOT NULL, display_name TEXT NOT NULL, email TEXT NOT NULL)"
    )
    db.execute(
        "CREATE TABLE credentials (id INTEGER PRIMARY KEY,"
        " user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
        " kind TEXT NOT NULL, secret_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL,"
        " created TEXT NOT NULL)"
    )
    db.execute("CREATE INDEX credentials_user ON credentials (user_id)")
    # Substring search served by an index: trigram FTS over the fields an event search reads.
    db.execute(
        "CREATE VIRTUAL TABLE events_fts USING fts5("
        "title, excerpt, description, content='events', content_rowid='id',"
        " tokenize='trigram')"
    )
    for action, body in (
        (
            "INSERT",
            "INSERT INTO events_fts(rowid, title, excerpt, description)"
            " VALUES (new.id, new.title, new.excerpt, new.description);",
        ),
        (
            "DELETE",
            "INSERT INTO events_fts(events_fts, rowid, title, excerpt, description)"
            " VALUES ('delete', old.id, old.title, old.excerpt, old.description);",
        ),
        (
            "UPDATE",
            "INSERT INTO events_fts(events_fts, rowid, title, excerpt, description)"
            " VALUES ('delete', old.id, old.title, old.excerpt, old.description);"
            " INSERT INTO events_fts(rowid, title, excerpt, description)"
            " VALUES (new.id, new.title, new.excerpt, new.description);",
        ),
    ):
        db.execute(
            f"CREATE TRIGGER events_fts_{action.lower()} AFTER {action} ON events BEGIN {body} END"
        )


#: Every full-text index: the events' (migration 0001) and the venues' and organizers'
#: (``_fts_table``, migration 0002).
SEARCH_INDEXES: tuple[str, ...] = (
    "events_fts",
    *(f"{table}_fts" for kind, table in TABLES.items() if kind in LINKED_SEARCH_FIELDS),
)


def _fts_table(db: Database, table: str, fields: tuple[str, ...]) -> None:
    """A trigram full-text index over ``fields`` of ``table``, kept in step by triggers."""
    columns = ", ".join(f"[{f}]" for f in fields)
    new = ", ".join(f"new.[{f}]" for f in fields)
    old = ", ".join(f"old.[{f}]" for f in fields)
    fts = f"{table}_fts"
    db.execute(
        f"CREATE VIRTUAL TABLE [{fts}] USING fts5({columns}, content='{table}',"
        " content_rowid='id', tokenize='trigram')"
    )
    insert = f"INSERT INTO [{fts}](rowid, {columns}) VALUES (new.id, {new});"
    delete = f"INSERT INTO [{fts}]([{fts}], rowid, {columns}) VALUES ('delete', old.id, {old});"
    for action, body in (("insert", insert), ("delete", delete), ("update", delete + insert)):
        db.execute(
            f"CREATE TRIGGER [{fts}_{action}] AFTER {action.upper()} ON [{table}] BEGIN {body} END"
        )
    db.execute(f"INSERT INTO [{fts}]([{fts}]) VALUES ('rebuild')")


@_migration("0002_linked_search_index")
def _linked_search_index(db: Database) -> None:
    """Venue and organizer searches served by trigram indexes, like event searches."""
    for kind in ("venue", "organizer"):
        _fts_table(db, TABLES[kind], LINKED_SEARCH_FIELDS[kind])


@_migration("0003_deferred_event_search_index")
def _deferred_event_search_index(db: Database) -> None:
    """Let bulk loads index a whole batch at once.

    FTS5 indexes rows an order of magnitude faster from one ``INSERT ... SELECT`` than from a
    trigger firing per row. A bulk load records the id range it is writing in
    ``fts_deferred`` (inside its own transaction, so no other writer can see or race it); the
    insert trigger skips those rows and the load indexes them in one statement before
    committing. Every other writer, including tools outside this library, still gets the
    trigger.
    """
    db.execute("CREATE TABLE fts_deferred (first_id INTEGER NOT NULL, last_id INTEGER NOT NULL)")
    db.execute("DROP TRIGGER events_fts_insert")
    db.execute(
        "CREATE TRIGGER events_fts_insert AFTER INSERT ON events"
        " WHEN NOT EXISTS (SELECT 1 FROM fts_deferred"
        " WHERE new.id BETWEEN first_id AND last_id)"
        " BEGIN INSERT INTO events_fts(rowid, title, excerpt, description)"
        " VALUES (new.id, new.title, new.excerpt, new.description); END"
    )


@_migration("0004_stored_term_counts_and_listing_index")
def _stored_term_counts(db: Database) -> None:
    """Term counts kept up to date by triggers, and an index that answers listings alone.

    A term's ``count`` (its published events) is shown with every embedded term, so counting
    on read cost a join over every link of the term on each request. Triggers keep a stored
    count in step with link and status writes instead, in the writer's transaction. Deleting
    an event adjusts the counts before its links cascade away (the cascade no longer sees the
    event's status).

    ``events_listing`` holds every column the common list filters read, in the order the
    default listing seeks them, so counting a window touches the index only.
    """
    for field in ("categories", "tags"):
        links, _ = LINK_TABLES[field]
        terms = TABLES["category" if field == "categories" else "tag"]
        db.execute(f"ALTER TABLE [{terms}] ADD COLUMN count INTEGER NOT NULL DEFAULT 0")
        db.execute(
            f"UPDATE [{terms}] SET count = (SELECT count(*) FROM [{links}] l"
            f" JOIN events e ON e.id = l.event_id"
            f" WHERE l.term_id = [{terms}].id AND e.status = 'publish')"
        )
        published = "(SELECT status FROM events WHERE id = {}.event_id) = 'publish'"
        db.execute(
            f"CREATE TRIGGER [{links}_count_insert] AFTER INSERT ON [{links}]"
            f" WHEN {published.format('new')}"
            f" BEGIN UPDATE [{terms}] SET count = count + 1 WHERE id = new.term_id; END"
        )
        db.execute(
            f"CREATE TRIGGER [{links}_count_delete] AFTER DELETE ON [{links}]"
            f" WHEN {published.format('old')}"
            f" BEGIN UPDATE [{terms}] SET count = count - 1 WHERE id = old.term_id; END"
        )
        db.execute(
            f"CREATE TRIGGER [{links}_count_event_delete] BEFORE DELETE ON events"
            " WHEN old.status = 'publish'"
            f" BEGIN UPDATE [{terms}] SET count = count - 1"
            f" WHERE id IN (SELECT term_id FROM [{links}] WHERE event_id = old.id); END"
        )
        db.execute(
            f"CREATE TRIGGER [{links}_count_status] AFTER UPDATE OF status ON events"
            " WHEN (old.status = 'publish') != (new.status = 'publish')"
            f" BEGIN UPDATE [{terms}] SET count = count"
            " + CASE WHEN new.status = 'publish' THEN 1 ELSE -1 END"
            f" WHERE id IN (SELECT term_id FROM [{links}] WHERE event_id = new.id); END"
        )
    db.execute(
        "CREATE INDEX events_listing ON events"
        " (status, hide_from_listings, utc_start, utc_end, featured, author)"
    )


@_migration("0005_text_indexes_follow_text_updates")
def _text_indexes_follow_text(db: Database) -> None:
    """Re-index a row's text only when its text changes.

    The update triggers of the trigram indexes fired on any update, so moving an event to
    new dates re-tokenised its whole description: most of what rescheduling thousands of
    events cost (``update_many``). They now fire on updates of the indexed columns only;
    the index of a row whose text is unchanged is still right.
    """
    fts = (
        ("events", EVENT_SEARCH_FIELDS),
        *((TABLES[kind], LINKED_SEARCH_FIELDS[kind]) for kind in ("venue", "organizer")),
    )
    for table, fields in fts:
        names = ", ".join(f"[{f}]" for f in fields)
        old = ", ".join(f"old.[{f}]" for f in fields)
        new = ", ".join(f"new.[{f}]" for f in fields)
        trigger = "events_fts_update" if table == "events" else f"{table}_fts_update"
        db.execute(f"DROP TRIGGER [{trigger}]")
        db.execute(
            f"CREATE TRIGGER [{trigger}] AFTER UPDATE OF {names} ON [{table}] BEGIN"
            f" INSERT INTO [{table}_fts]([{table}_fts], rowid, {names})"
            f" VALUES ('delete', old.id, {old});"
            f" INSERT INTO [{table}_fts](rowid, {names}) VALUES (new.id, {new}); END"
        )


@_migration("0006_import_keys")
def _import_keys(db: Database) -> None:
    """What an imported record was called in the file it came from (an iCalendar UID, a
    CSV key), so that importing the file again updates it rather than adding a copy."""
    db.execute(
        "CREATE TABLE import_keys (kind TEXT NOT NULL, key TEXT NOT NULL,"
        " record_id INTEGER NOT NULL, PRIMARY KEY (kind, key))"
    )


#: The triggers that count new events and links, which a bulk load sets aside.
WINDOW_COUNT_INSERT = "event_day_counts_insert"
WINDOW_COUNT_TRIGGERS: tuple[str, ...] = (
    WINDOW_COUNT_INSERT,
    *(f"{link.table}_day_counts_insert" for link in LINKS.values()),
)

#: The triggers that keep counts and the links' listing keys in step with an event's row and
#: links, row by row; a large ``replace_many`` chunk sets them aside and does their work
#: set-wise (``SQLiteBackend._rewrite``).
REWRITE_TRIGGERS: tuple[str, ...] = (
    "event_day_counts_update",
    "events_listing_key",
    *(
        f"{link.table}_day_counts_{action}"
        for link in LINKS.values()
        for action in ("insert", "delete")
    ),
)


def _row(ref: str) -> str:
    """A trigger's ``new`` or ``old`` event row as a one-row relation of its count key."""
    return "(SELECT " + ", ".join(f"{ref}.[{c}] AS [{c}]" for c in ("id", *KEY_COLUMNS)) + ")"


def _linked(ref: str, link: Link) -> str:
    """A trigger's ``new`` or ``old`` link row with the count key of its event."""
    key = ", ".join(f"e.[{c}]" for c in KEY_COLUMNS)
    return (
        f"(SELECT '{link.field}' AS link, {ref}.[{link.column}] AS target, {key}"
        f" FROM events e WHERE e.id = {ref}.event_id)"
    )


@_migration("0007_window_counts")
def _window_counts(db: Database) -> None:
    """Events counted per day (and per linked record per day), kept by triggers, so a
    windowed list's total is a sum over the window's days (``sql.window_counts``).

    Deleting an event uncounts its links before they cascade away (the cascade no longer
    sees the event). The insert triggers are set aside by a bulk load, which counts its
    events at its end (``SQLiteBackend.bulk_load``).
    """
    from .sqlite import SQLiteDialect

    dialect = SQLiteDialect()
    for sql in create_tables(dialect):
        db.execute(sql)
    new, old = _row("new"), _row("old")
    keys = ", ".join(f"[{c}]" for c in KEY_COLUMNS)
    moved = " OR ".join(f"old.[{c}] IS NOT new.[{c}]" for c in KEY_COLUMNS)
    for name, when, body in (
        (WINDOW_COUNT_INSERT, "AFTER INSERT ON events", add_events(dialect, new)),
        (
            "event_day_counts_delete",
            "BEFORE DELETE ON events",
            [
                *add_events(dialect, old, sign=-1),
                add_links(dialect, counted_links(old), sign=-1),
            ],
        ),
        (
            "event_day_counts_update",
            f"AFTER UPDATE OF {keys} ON events WHEN {moved}",
            [
                *add_events(dialect, old, sign=-1),
                *add_events(dialect, new),
                add_links(dialect, counted_links(old), sign=-1),
                add_links(dialect, counted_links(new)),
            ],
        ),
        *(
            (
                f"{link.table}_day_counts_{action}",
                f"AFTER {action.upper()} ON [{link.table}]",
                [add_links(dialect, _linked(ref, link), sign=sign)],
            )
            for link in LINKS.values()
            for action, ref, sign in (("insert", "new", 1), ("delete", "old", -1))
        ),
    ):
        db.execute(f"CREATE TRIGGER [{name}] {when} BEGIN {'; '.join(body)}; END")
    for sql in add_events(dialect, "events"):
        db.execute(sql)
    db.execute(add_links(dialect, counted_links("events")))


#: Record tables and the kind their rows are, then link tables (an event's), for the journal.
_JOURNALED: tuple[tuple[str, str, str], ...] = (
    *((table, kind, "id") for kind, table in TABLES.items()),
    *((link.table, "event", "event_id") for link in LINKS.values()),
)
#: The journal's insert triggers, which a bulk load sets aside (it journals "anything").
JOURNAL_INSERT_TRIGGERS: tuple[str, ...] = tuple(
    f"{table}_journal_insert" for table, _, _ in _JOURNALED
)


@_migration("0008_change_journal")
def _change_journal(db: Database) -> None:
    """The change journal (``changes``): each committed write's touched rows, in commit
    order (one writer at a time, and ``AUTOINCREMENT`` never reuses a number), kept by
    triggers so that writes from any process or tool are in it. A link row is journaled as
    its event; a term whose stored count moves is an updated term (the count triggers update
    its row). Writes of users, credentials and former slugs are journaled as "anything".
    Every 1,024th entry prunes those more than ``changes.KEPT`` behind it and moves the
    horizon, the number up to which entries are gone."""
    db.execute(
        "CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,"
        " record_id INTEGER NOT NULL, op TEXT NOT NULL)"
    )
    db.execute("CREATE TABLE changes_horizon (seq INTEGER NOT NULL)")
    db.execute("INSERT INTO changes_horizon VALUES (0)")
    db.execute(
        "CREATE TRIGGER changes_prune AFTER INSERT ON changes WHEN new.seq % 1024 = 0 BEGIN"
        f" DELETE FROM changes WHERE seq <= new.seq - {KEPT};"
        f" UPDATE changes_horizon SET seq = max(seq, new.seq - {KEPT}); END"
    )
    for table, kind, column in _JOURNALED:
        for action, ref, op in (("insert", "new", "insert"), ("delete", "old", "delete")):
            op = op if column == "id" else "update"  # a link row: its event changed
            db.execute(
                f"CREATE TRIGGER [{table}_journal_{action}] AFTER {action.upper()} ON [{table}]"
                f" BEGIN INSERT INTO changes (kind, record_id, op)"
                f" VALUES ('{kind}', {ref}.[{column}], '{op}'); END"
            )
        db.execute(
            f"CREATE TRIGGER [{table}_journal_update] AFTER UPDATE ON [{table}] BEGIN"
            f" INSERT INTO changes (kind, record_id, op) SELECT '{kind}', old.[{column}], 'update'"
            f" UNION SELECT '{kind}', new.[{column}], 'update'; END"
        )
    for table in ("slug_aliases", "users", "credentials"):
        for action in ("insert", "update", "delete"):
            db.execute(
                f"CREATE TRIGGER [{table}_journal_{action}] AFTER {action.upper()} ON [{table}]"
                f" BEGIN INSERT INTO changes (kind, record_id, op)"
                f" VALUES ('{ANYTHING}', 0, 'update'); END"
            )


@_migration("0009_link_listing_index")
def _link_listing_index(db: Database) -> None:
    """Each link row keeps its event's listing key (``schema.LISTING_KEY``), and each link
    table an index in list order (``Link.listing_index``), so a list of one venue, organizer,
    category or tag reads that index from the window's start and stops when the page is
    full, however many or few events the link has (walking every event and checking its links
    took 7-65 ms at a million events for a venue with 1,776 to 11,346 of them).

    The library writes the key with every link; a link written without it (by another tool)
    gets it from its event right after. An event whose key changes passes it on to its links.
    The links' journal triggers now fire on changes of the link itself only, so passing the
    key on journals nothing the event's own entry does not say.
    """
    keys = ", ".join(f"[{c}]" for c in LISTING_KEY)
    types = {"status": "TEXT", "hide_from_listings": "INTEGER"}
    for link in LINKS.values():
        table, target = link.table, link.column
        for column in LISTING_KEY:
            db.execute(
                f"ALTER TABLE [{table}] ADD COLUMN [{column}] {types.get(column, 'INTEGER')}"
            )
        from_event = f"(SELECT {', '.join(f'e.[{c}]' for c in LISTING_KEY)} FROM events e"
        db.execute(f"UPDATE [{table}] SET ({keys}) = {from_event} WHERE e.id = [{table}].event_id)")
        db.execute(
            f"CREATE INDEX [{link.listing_index}] ON [{table}]"
            f" ([{target}], status, hide_from_listings, utc_start, event_id, utc_end)"
        )
        db.execute(
            f"CREATE TRIGGER [{table}_listing_key] AFTER INSERT ON [{table}]"
            f" WHEN new.utc_start IS NULL BEGIN UPDATE [{table}] SET ({keys}) = {from_event}"
            f" WHERE e.id = new.event_id) WHERE event_id = new.event_id"
            f" AND [{target}] = new.[{target}]; END"
        )
        db.execute(f"DROP TRIGGER [{table}_journal_update]")
        db.execute(
            f"CREATE TRIGGER [{table}_journal_update] AFTER UPDATE OF event_id, [{target}],"
            f" position ON [{table}] BEGIN INSERT INTO changes (kind, record_id, op)"
            f" SELECT 'event', old.event_id, 'update' UNION SELECT 'event', new.event_id,"
            f" 'update'; END"
        )
    moved = " OR ".join(f"old.[{c}] IS NOT new.[{c}]" for c in LISTING_KEY)
    copies = "; ".join(
        f"UPDATE [{link.table}] SET ({keys}) = ({', '.join(f'new.[{c}]' for c in LISTING_KEY)})"
        " WHERE event_id = new.id"
        for link in LINKS.values()
    )
    db.execute(
        f"CREATE TRIGGER events_listing_key AFTER UPDATE OF {keys} ON events WHEN {moved}"
        f" BEGIN {copies}; END"
    )


@_migration("0010_category_branch_counts")
def _category_branch_counts(db: Database) -> None:
    """Day counts of each category's whole branch (itself and its sub-categories), each event
    once, and the closure table they are kept from (``sql.category_tree``): a category's list
    total is then a sum over days like a venue's, where it was counted row by row because an
    event may be filed under several categories of one branch.

    The category links' and the events' count triggers of 0007 are re-created with the branch
    counts beside the link counts; triggers on ``categories`` keep the closure (and the
    branches a moved category leaves and joins) in step.
    """
    from .sqlite import SQLiteDialect

    dialect = SQLiteDialect()
    for sql in tree_tables(dialect):
        db.execute(sql)
    db.execute(add_links(dialect, counted_tree("events")))
    clear, recount = recount_branches("old.parent", "new.parent")
    gone, forget = uncount_category("old.id")
    link = LINKS["categories"]
    new, old = _row("new"), _row("old")
    keys = ", ".join(f"[{c}]" for c in KEY_COLUMNS)
    moved = " OR ".join(f"old.[{c}] IS NOT new.[{c}]" for c in KEY_COLUMNS)
    triggers = (
        (
            TREE + "_insert",
            "AFTER INSERT ON categories",
            [insert_statement("new.id", "new.parent")],
        ),
        (
            TREE + "_move",
            "AFTER UPDATE OF parent ON categories WHEN old.parent IS NOT new.parent",
            [
                *move_statements("new.id", "old.parent", "new.parent"),
                clear,
                add_links(dialect, recount),
            ],
        ),
        (
            TREE + "_delete",
            "BEFORE DELETE ON categories",
            [add_links(dialect, gone, sign=-1), *forget],
        ),
        *(
            (
                f"{link.table}_day_counts_{action}",
                f"AFTER {action.upper()} ON [{link.table}]",
                [
                    add_links(dialect, _linked(ref, link), sign=sign),
                    add_links(dialect, tree_links(ref), sign=sign),
                ],
            )
            for action, ref, sign in (("insert", "new", 1), ("delete", "old", -1))
        ),
        (
            "event_day_counts_delete",
            "BEFORE DELETE ON events",
            [
                *add_events(dialect, old, sign=-1),
                add_links(dialect, counted_links(old), sign=-1),
                add_links(dialect, counted_tree(old), sign=-1),
            ],
        ),
        (
            "event_day_counts_update",
            f"AFTER UPDATE OF {keys} ON events WHEN {moved}",
            [
                *add_events(dialect, old, sign=-1),
                *add_events(dialect, new),
                add_links(dialect, counted_links(old), sign=-1),
                add_links(dialect, counted_links(new)),
                add_links(dialect, counted_tree(old), sign=-1),
                add_links(dialect, counted_tree(new)),
            ],
        ),
    )
    for name, when, body in triggers:
        db.execute(f"DROP TRIGGER IF EXISTS [{name}]")
        db.execute(f"CREATE TRIGGER [{name}] {when} BEGIN {'; '.join(body)}; END")


@_migration("0011_pending_search_index")
def _pending_search_index(db: Database) -> None:
    """New events join the trigram index a batch at a time (``SEARCH_BATCH``), not one by one.

    Indexing one event's text in its own transaction wrote a new index segment and, every few
    writes, merged segments: about half of what creating an event cost. Now the insert
    trigger notes the event in ``events_search_pending``; when that holds a batch, one
    statement indexes them all (in the writer's transaction that filled it) and empties it.
    Searches read the index and check the waiting events' text directly
    (``SQLiteDialect.search``). A waiting event's text changes reach the index with it; a
    waiting event deleted leaves the batch. Bulk loads still index their rows at their end.
    """
    from .sqlite import SEARCH_BATCH, SEARCH_PENDING

    pending = SEARCH_PENDING["events"]
    names = ", ".join(f"[{f}]" for f in EVENT_SEARCH_FIELDS)
    old = ", ".join(f"old.[{f}]" for f in EVENT_SEARCH_FIELDS)
    new = ", ".join(f"new.[{f}]" for f in EVENT_SEARCH_FIELDS)
    texts = ", ".join(f"e.[{f}]" for f in EVENT_SEARCH_FIELDS)
    indexed = f"NOT EXISTS (SELECT 1 FROM {pending} WHERE id = {{}}.id)"
    db.execute(f"CREATE TABLE {pending} (id INTEGER PRIMARY KEY)")
    for trigger in ("events_fts_insert", "events_fts_update", "events_fts_delete"):
        db.execute(f"DROP TRIGGER [{trigger}]")
    db.execute(
        "CREATE TRIGGER events_fts_insert AFTER INSERT ON events"
        " WHEN NOT EXISTS (SELECT 1 FROM fts_deferred WHERE new.id BETWEEN first_id AND last_id)"
        f" BEGIN INSERT INTO {pending} (id) VALUES (new.id); END"
    )
    db.execute(
        f"CREATE TRIGGER events_fts_update AFTER UPDATE OF {names} ON events"
        f" WHEN {indexed.format('new')} BEGIN"
        f" INSERT INTO events_fts(events_fts, rowid, {names}) VALUES ('delete', old.id, {old});"
        f" INSERT INTO events_fts(rowid, {names}) VALUES (new.id, {new}); END"
    )
    db.execute(
        "CREATE TRIGGER events_fts_delete AFTER DELETE ON events BEGIN"
        f" INSERT INTO events_fts(events_fts, rowid, {names}) SELECT 'delete', old.id, {old}"
        f" WHERE {indexed.format('old')}; DELETE FROM {pending} WHERE id = old.id; END"
    )
    db.execute(
        f"CREATE TRIGGER {pending}_batch AFTER INSERT ON {pending}"
        f" WHEN (SELECT count(*) FROM {pending}) >= {SEARCH_BATCH} BEGIN"
        f" INSERT INTO events_fts(rowid, {names}) SELECT e.id, {texts}"
        f" FROM events e WHERE e.id IN (SELECT id FROM {pending}); DELETE FROM {pending}; END"
    )


@_migration("0012_calendar_identity")
def _calendar_identity(db: Database) -> None:
    """The calendar's identity (``Storage.calendar_identity``): one row, made here, so a file
    has its own from its first opening (an older file gets one as it is upgraded)."""
    db.execute("CREATE TABLE calendar_identity (identity TEXT NOT NULL)")
    db.execute("INSERT INTO calendar_identity (identity) VALUES (?)", [new_calendar_identity()])


@_migration("0013_links_read_from_an_index")
def _links_read_from_an_index(db: Database) -> None:
    """Each link table gets an index holding everything a read of an event's links asks
    (``SQLStore._links``: the event, the position, the target), so the read never visits the
    table: the primary key's index finds a link row but not its position, and fetching each
    row from the table was most of the read (a batch of 500 events: 3.8 ms a table, 1.7 ms
    from this index; about a third of ``iter``'s time at 100,000 events). Reads of an event's
    links happen for every record a list, a single read or ``iter`` builds; the index costs a
    link insert one more entry and is built once, sorted, after a load into an empty table.
    """
    for link in LINKS.values():
        db.execute(
            f"CREATE INDEX [{link.table}_of_event] ON [{link.table}]"
            f" (event_id, position, [{link.column}])"
        )


@_migration("0014_search_indexes_merged_in_the_background")
def _search_indexes_merged_in_the_background(db: Database) -> None:
    """Writers no longer merge the search indexes' segments; the background thread does, a
    bounded step at a time (``sqlite_search_merge``): a writer's commit could meet a level
    full of segments and merge it whole, stalling every write for up to seconds."""
    for fts in SEARCH_INDEXES:
        db.execute(f"INSERT INTO [{fts}]([{fts}], rank) VALUES ('automerge', 0)")


#: Each search index's table and the fields it holds (the order of its columns).
_SEARCHED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("events", EVENT_SEARCH_FIELDS),
    *((TABLES[kind], LINKED_SEARCH_FIELDS[kind]) for kind in ("venue", "organizer")),
)
#: The table recording which Unicode version folded the indexed text (migration 0016; ``''``
#: when no text was folded by the current ``queries.fold``, migration 0017).
FOLDED_BY = "search_fold"


def _folded(fields: tuple[str, ...], ref: str) -> str:
    """The values a search index holds for the row ``ref``: each field folded by ``fold``,
    the SQL function every connection registers (``queries.fold``), so that the index reads
    the very letters the searches of every backend compare."""
    return ", ".join(f"fold({ref}.[{f}])" for f in fields)


def _fill(table: str, fields: tuple[str, ...]) -> str:
    """The statement indexing every row of ``table`` not waiting for its index."""
    names = ", ".join(f"[{f}]" for f in fields)
    pending = f" WHERE t.id NOT IN (SELECT id FROM {p})" if (p := _pending(table)) else ""
    return (
        f"INSERT INTO [{table}_fts](rowid, {names})"
        f" SELECT t.id, {_folded(fields, 't')} FROM [{table}] t{pending}"
    )


def _pending(table: str) -> str | None:
    from .sqlite import SEARCH_PENDING

    return SEARCH_PENDING.get(table)


#: Index the events with ids between two parameters (a bulk load's or a batch's).
INDEX_EVENTS_BETWEEN = (
    f"INSERT INTO events_fts(rowid, {', '.join(f'[{f}]' for f in EVENT_SEARCH_FIELDS)})"
    f" SELECT e.id, {_folded(EVENT_SEARCH_FIELDS, 'e')} FROM events e"
    " WHERE e.id BETWEEN ? AND ?"
)


@_migration("0015_search_merges_take_sixteen_segments")
def _search_merges_take_sixteen_segments(db: Database) -> None:
    """A merge of the search indexes takes sixteen segments of a level, not four, and a
    writer's commit merges a level whole only at sixty-four (``sqlite_search_merge``): each
    merge rewrites what it merges, the load's large segment included, so fewer, wider merges
    leave the writers more of the lock."""
    for fts in SEARCH_INDEXES:
        for setting, value in (("usermerge", LEVEL_SEGMENTS), ("crisismerge", CRISIS_SEGMENTS)):
            db.execute(f"INSERT INTO [{fts}]([{fts}], rank) VALUES (?, ?)", [setting, value])


@_migration("0016_search_indexes_hold_folded_text")
def _search_indexes_hold_folded_text(db: Database) -> None:
    """The search indexes hold each field folded as ``queries.fold`` folds it, and compare
    it letter for letter (``case_sensitive 1``).

    They held the text as written and folded it with FTS5's own tables (an older Unicode's
    simple case folding): a search the index answered then differed from the same search on
    memory or PostgreSQL, or on SQLite's own ``instr`` path, for about 140 letters, the
    Turkish dotted ``İ``, Cherokee and the Greek final sigma among them. A folded index can
    only be filled by this library (the text is not the table's), so the indexes become
    contentless and ``refold_search_indexes`` fills them; the Unicode version that folded
    them is kept, since a 'delete' must give FTS5 exactly what it indexed.
    """
    from .sqlite import SEARCH_BATCH

    for table, fields in _SEARCHED:
        fts = f"{table}_fts"
        names = ", ".join(f"[{f}]" for f in fields)
        for action in ("insert", "update", "delete"):
            if (table, action) != ("events", "insert"):  # that one only notes the event
                db.execute(f"DROP TRIGGER [{fts}_{action}]")
        db.execute(f"DROP TABLE [{fts}]")
        db.execute(
            f"CREATE VIRTUAL TABLE [{fts}] USING fts5({names}, content='',"
            " tokenize='trigram case_sensitive 1')"
        )
        db.execute(f"INSERT INTO [{fts}]([{fts}], rank) VALUES ('automerge', 0)")
        for setting, value in (("usermerge", LEVEL_SEGMENTS), ("crisismerge", CRISIS_SEGMENTS)):
            db.execute(f"INSERT INTO [{fts}]([{fts}], rank) VALUES (?, ?)", [setting, value])
        delete = (
            f"INSERT INTO [{fts}]([{fts}], rowid, {names})"
            f" SELECT 'delete', old.id, {_folded(fields, 'old')}"
        )
        insert = f"INSERT INTO [{fts}](rowid, {names}) VALUES (new.id, {_folded(fields, 'new')})"
        pending = _pending(table)
        if pending is None:
            db.execute(
                f"CREATE TRIGGER [{fts}_insert] AFTER INSERT ON [{table}] BEGIN {insert}; END"
            )
            db.execute(
                f"CREATE TRIGGER [{fts}_delete] AFTER DELETE ON [{table}] BEGIN {delete}; END"
            )
            db.execute(
                f"CREATE TRIGGER [{fts}_update] AFTER UPDATE OF {names} ON [{table}]"
                f" BEGIN {delete}; {insert}; END"
            )
            continue
        indexed = f"NOT EXISTS (SELECT 1 FROM {pending} WHERE id = {{}}.id)"
        db.execute(f"DROP TRIGGER [{pending}_batch]")
        db.execute(
            f"CREATE TRIGGER [{fts}_update] AFTER UPDATE OF {names} ON [{table}]"
            f" WHEN {indexed.format('new')} BEGIN {delete}; {insert}; END"
        )
        db.execute(
            f"CREATE TRIGGER [{fts}_delete] AFTER DELETE ON [{table}] BEGIN"
            f" {delete} WHERE {indexed.format('old')}; DELETE FROM {pending} WHERE id = old.id;"
            " END"
        )
        db.execute(
            f"CREATE TRIGGER {pending}_batch AFTER INSERT ON {pending}"
            f" WHEN (SELECT count(*) FROM {pending}) >= {SEARCH_BATCH} BEGIN"
            f" INSERT INTO [{fts}](rowid, {names}) SELECT t.id, {_folded(fields, 't')}"
            f" FROM [{table}] t WHERE t.id IN (SELECT id FROM {pending}); DELETE FROM {pending};"
            " END"
        )
    db.execute(f"CREATE TABLE {FOLDED_BY} (unicode TEXT NOT NULL)")
    db.execute(f"INSERT INTO {FOLDED_BY} (unicode) VALUES ('')")
    refold_search_indexes(db.execute)


@_migration("0017_search_indexes_fold_accents")
def _search_indexes_fold_accents(db: Database) -> None:
    """The search indexes hold text folded without accents, as ``queries.fold`` now folds
    it (the reference's MySQL collation ignores them): the text folded before keeps them, so
    an indexed ``Café`` was not found by ``cafe`` while one waiting for the index was. Marked
    as folded by no Unicode version, the indexes are filled afresh: FTS5 must be given the
    very text it indexed to delete a row, and ``delete-all`` needs none of it."""
    db.execute(f"UPDATE {FOLDED_BY} SET unicode = ''")
    refold_search_indexes(db.execute)


def refold_search_indexes(execute: Callable[..., sqlite3.Cursor]) -> bool:
    """Fill the search indexes afresh if the text in them was folded by another Unicode
    version than this Python's (``queries.fold`` decomposes and lowers the letters a newer
    Unicode added), or by an older ``fold`` (migration 0017 marks it so); whether they were.
    ``execute(sql, params)`` runs a statement in the caller's transaction."""
    version = unicodedata.unidata_version
    folded_by = execute(f"SELECT unicode FROM {FOLDED_BY}").fetchone()[0]
    if folded_by == version:
        return False
    for table, fields in _SEARCHED:
        execute(f"INSERT INTO [{table}_fts]([{table}_fts]) VALUES ('delete-all')")
        execute(_fill(table, fields))
    execute(f"UPDATE {FOLDED_BY} SET unicode = ?", [version])
    return True
