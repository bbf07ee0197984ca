"""The PostgreSQL schema: versioned migrations, each a list of SQL statements.

Every table's columns come from the shared schema (``sql.schema``), so a record field is
declared once. Beside the tables, PostgreSQL gets what makes every filter an index lookup:
B-tree indexes on instants, statuses and link targets, and ``pg_trgm`` GIN indexes on the
case-folded text a search reads (the same ``search_text`` expressions ``PostgresDialect``
writes, so the planner matches them; the events' text is a stored column, ``FOLDED_TEXT``,
and so is each search field of the venues and organizers, ``folded_column``).
Triggers keep each term's ``count`` and the one-row ``data_generation`` counter current, in
the writer's own transaction.

A migration is plain data (its statements), run by ``PostgresEngine.migrate`` in its own
transaction: PostgreSQL DDL is transactional, so a migration that fails writes nothing. A new
record field needs a new migration that adds its column; never edit an applied one.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ..changes import ANYTHING, KEPT
from ..queries import ACCENT_MARKS, EVENT_SEARCH_FIELDS, LINKED_SEARCH_FIELDS
from ..records import Kind
from ..statuses import COUNTED_STATUSES
from ..storage import new_calendar_identity
from .sql.category_tree import (
    TREE,
    changed_tree_links,
    counted_tree,
    insert_statement,
    move_statements,
    recount_branches,
    tree_tables,
    uncount_category,
)
from .sql.schema import LINKS, LISTING_KEY, TABLES, Column, Link, columns
from .sql.window_counts import KEY_COLUMNS, add_events, add_links, counted_links, create_tables

__all__ = [
    "BULK_LOAD_SETTING",
    "DATA_TABLES",
    "FOLDED_TEXT",
    "FOLDING",
    "FOLD_FUNCTION",
    "MIGRATIONS",
    "Migration",
    "fold",
    "folded_column",
    "search_text",
]

_TYPES: dict[type, str] = {bool: "BOOLEAN", int: "BIGINT", str: "TEXT"}


@attrs.frozen
class Migration:
    """One schema version: its number, a name, and the statements that build it."""

    version: int
    name: str
    statements: Callable[[], list[str]]


#: The collation whose ``lower()`` folds text exactly as ``str.lower`` does (ICU's full
#: lowercase mapping: the dotted capital I to two characters, a word-final sigma to ``ς``);
#: the database's own (libc's, one letter at a time) differs on both.
FOLDING = '"und-x-icu"'

#: ``queries.ACCENT_MARKS`` as a bracket expression of PostgreSQL's regular expressions
#: (``\uXXXX`` is the code point, whatever the client's encoding).
_ACCENTS = "[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in ACCENT_MARKS) + "]"


#: The SQL function folding text as ``queries.fold`` does (migration 11).
FOLD_FUNCTION = "search_fold"


def fold(expr: str) -> str:
    """SQL for ``expr`` folded as ``queries.fold`` folds Python text (``FOLD_FUNCTION``)."""
    return f"{FOLD_FUNCTION}({expr})"


def _fold_function() -> str:
    """``FOLD_FUNCTION``: ``queries.fold`` step for step. NFKD, the accent marks dropped,
    NFC, ICU's ``lower()``: PostgreSQL's ``normalize`` and ICU read the same Unicode tables
    as Python's ``unicodedata`` and ``str.lower`` (the tests check every code point against
    Python), so the trigram indexes hold the very text the other backends compare.

    A function rather than an expression written out, so that each step's result is kept:
    ``normalize`` costs ten times what the rest does, on every row a search reads without
    its index or rechecks after it, and text that is ASCII (as many bytes as characters),
    before or after its accents are dropped, needs no more of it (``queries.fold`` skips
    the same steps). Immutable, as ``lower()`` under an ICU collation is: an index may call
    it. ``OR REPLACE``, so that the migration applies again over a database whose migration
    record was taken back by hand with the function left in place."""
    ascii_ = "octet_length({0}) = char_length({0})"
    return f"""CREATE OR REPLACE FUNCTION {FOLD_FUNCTION}(text_ text) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
        DECLARE
          bare text;
        BEGIN
          IF {ascii_.format("text_")} THEN
            RETURN lower(text_ COLLATE {FOLDING});
          END IF;
          bare := regexp_replace(normalize(text_, NFKD), '{_ACCENTS}', '', 'g');
          IF {ascii_.format("bare")} THEN
            RETURN lower(bare COLLATE {FOLDING});
          END IF;
          RETURN lower(normalize(bare, NFC) COLLATE {FOLDING});
        END $$"""


#: The events' column holding their search text (``EVENT_SEARCH_FIELDS`` joined, folded),
#: kept by PostgreSQL on every write (a stored generated column, migration 12).
FOLDED_TEXT = "folded_text"


#: The venues' and organizers' search fields, each stored folded in a column of its own
#: (``folded_column``, migration 14).
_STORED_FIELDS: dict[str, tuple[str, ...]] = {
    TABLES[kind]: LINKED_SEARCH_FIELDS[kind] for kind in ("venue", "organizer")
}


def folded_column(field: str) -> str:
    """The venue's or organizer's column storing ``field`` folded (migration 14)."""
    return f"folded_{field}"


def search_text(table: str, fields: tuple[str, ...] | list[str], alias: str = "") -> str:
    """The text a search of ``table`` reads: ``fields`` joined by newlines, folded; for the
    events' search fields together, the column that stores it (``FOLDED_TEXT``), for one
    search field of a venue or organizer, its own (``folded_column``). The trigram indexes
    and the dialect's search clause both spell it with this function, so they match."""
    prefix = f"{alias}." if alias else ""
    if table == "events" and tuple(fields) == EVENT_SEARCH_FIELDS:
        return f'{prefix}"{FOLDED_TEXT}"'
    if len(fields) == 1 and fields[0] in _STORED_FIELDS.get(table, ()):
        return f'{prefix}"{folded_column(fields[0])}"'
    return _folded(fields, alias)


def _folded(fields: tuple[str, ...] | list[str], alias: str = "") -> str:
    """``fields`` joined by newlines, folded by ``FOLD_FUNCTION`` on each row that reads it:
    what the search indexes of migration 11 read."""
    prefix = f"{alias}." if alias else ""
    return fold(" || chr(10) || ".join(f'{prefix}"{f}"' for f in fields))


def _lowered_as_python(fields: tuple[str, ...] | list[str]) -> str:
    """The text the search indexes of migration 8 read: lowered by ICU, accents kept."""
    joined = " || chr(10) || ".join(f'"{f}"' for f in fields)
    return f"lower(({joined}) COLLATE {FOLDING})"


def _lowered(fields: tuple[str, ...] | list[str]) -> str:
    """The text the search indexes of migration 1 read (folded by the database's collation)."""
    return "lower(" + " || chr(10) || ".join(f'"{f}"' for f in fields) + ")"


def _column(column: Column) -> str:
    if column.name == "id":
        return '"id" BIGINT PRIMARY KEY'
    default = " DEFAULT 0" if column.name == "count" else ""
    null = "" if column.nullable else " NOT NULL"
    return f'"{column.name}" {_TYPES[column.type]}{null}{default}'


def _counted() -> str:
    return "ARRAY[" + ", ".join(f"'{s.value}'" for s in sorted(COUNTED_STATUSES)) + "]::text[]"


def _term_counts(links: str, terms: str) -> list[str]:
    """Triggers keeping ``terms.count`` (its events with a counted status) in step with the
    link table ``links`` and with event status changes and deletions.

    Deleting an event lowers its terms' counts before its links cascade away; by the time the
    cascade deletes a link, the event is gone and the link trigger counts nothing.

    Link writes are counted per statement, from its transition table: a bulk load that links
    thousands of events to one category updates that category's row once per statement, not
    once per link (under MVCC, each update of one row in one transaction adds a version that
    the next update must step over).
    """
    counted = _counted()
    return [
        f"""CREATE FUNCTION "{links}_count"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE "{terms}" t
            SET count = t.count + CASE WHEN TG_OP = 'INSERT' THEN d.n ELSE -d.n END
            FROM (SELECT c.term_id, count(*) AS n FROM changed c
                  JOIN events e ON e.id = c.event_id
                  WHERE e.status = ANY({counted}) GROUP BY c.term_id) d
            WHERE t.id = d.term_id;
          RETURN NULL;
        END $$""",
        f'CREATE TRIGGER "{links}_count_insert" AFTER INSERT ON "{links}"'
        f' REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "{links}_count"()',
        f'CREATE TRIGGER "{links}_count_delete" AFTER DELETE ON "{links}"'
        f' REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "{links}_count"()',
        f"""CREATE FUNCTION "{links}_count_event"() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          counted_before boolean := OLD.status = ANY({counted});
          counted_after boolean := TG_OP = 'UPDATE' AND NEW.status = ANY({counted});
        BEGIN
          IF counted_before <> counted_after THEN
            UPDATE "{terms}" SET count = count + CASE WHEN counted_after THEN 1 ELSE -1 END
              WHERE id IN (SELECT term_id FROM "{links}" WHERE event_id = OLD.id);
          END IF;
          RETURN OLD;  -- a BEFORE trigger returning NULL would cancel the delete
        END $$""",
        f'CREATE TRIGGER "{links}_count_status" AFTER UPDATE OF status ON events'
        " FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)"
        f' EXECUTE FUNCTION "{links}_count_event"()',
        f'CREATE TRIGGER "{links}_count_delete" BEFORE DELETE ON events'
        f' FOR EACH ROW EXECUTE FUNCTION "{links}_count_event"()',
    ]


#: Every table whose writes change what a reader sees (the generation counter watches them).
DATA_TABLES: tuple[str, ...] = (
    *TABLES.values(),
    *(link.table for link in LINKS.values()),
    "slug_aliases",
    "users",
    "credentials",
)


def _initial() -> list[str]:
    sql = ["CREATE EXTENSION IF NOT EXISTS pg_trgm"]
    for kind, table in TABLES.items():
        ddl = ", ".join(_column(c) for c in columns(kind))
        sql += [
            f'CREATE TABLE "{table}" ({ddl})',
            f'CREATE UNIQUE INDEX "{table}_slug" ON "{table}" (slug)',
            f'CREATE INDEX "{table}_name_key" ON "{table}" (name_key)',
        ]
    sql += [
        "CREATE INDEX events_start ON events (utc_start, id)",
        "CREATE INDEX events_end ON events (utc_end)",
        "CREATE INDEX events_status ON events (status, utc_start)",
        "CREATE INDEX events_published ON events (published, id)",
        "CREATE INDEX events_listing ON events"
        " (status, hide_from_listings, utc_start, utc_end, featured, author)",
        "CREATE INDEX events_parent ON events (post_parent) WHERE post_parent <> 0",
        "CREATE INDEX venues_published ON venues (published, id)",
        "CREATE INDEX organizers_published ON organizers (published, id)",
        "CREATE INDEX categories_parent ON categories (parent)",
        "CREATE INDEX events_search ON events"
        f" USING gin ({_lowered(EVENT_SEARCH_FIELDS)} gin_trgm_ops)",
    ]
    linked: tuple[Kind, ...] = ("venue", "organizer")
    for kind in linked:
        table, fields = TABLES[kind], LINKED_SEARCH_FIELDS[kind]
        sql += [
            f'CREATE INDEX "{table}_search_{field}" ON "{table}"'
            f" USING gin ({_lowered([field])} gin_trgm_ops)"
            for field in fields
        ]
    for link in LINKS.values():
        sql += [
            f'CREATE TABLE "{link.table}" ('
            " event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,"
            f' "{link.column}" BIGINT NOT NULL'
            f' REFERENCES "{TABLES[link.target]}" (id) ON DELETE CASCADE,'
            " position BIGINT NOT NULL,"
            f' PRIMARY KEY (event_id, "{link.column}"))',
            f'CREATE INDEX "{link.table}_target" ON "{link.table}" ("{link.column}", event_id)',
        ]
    sql += [
        "CREATE TABLE slug_aliases (kind TEXT NOT NULL, slug TEXT NOT NULL,"
        " record_id BIGINT NOT NULL, PRIMARY KEY (kind, slug))",
        "CREATE TABLE sequences (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
        "INSERT INTO sequences (name, value)"
        " VALUES ('post', 0), ('term', 0), ('user', 0), ('credential', 0)",
        "CREATE TABLE users (id BIGINT PRIMARY KEY, login TEXT NOT NULL UNIQUE,"
        " role TEXT NOT NULL, display_name TEXT NOT NULL, email TEXT NOT NULL)",
        "CREATE TABLE credentials (id BIGINT PRIMARY KEY,"
        " user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,"
        " kind TEXT NOT NULL, secret_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL,"
        " created TEXT NOT NULL)",
        "CREATE INDEX credentials_user ON credentials (user_id)",
    ]
    for field in ("categories", "tags"):
        sql += _term_counts(LINKS[field].table, TABLES[LINKS[field].target])
    # One row counting committed writes, so every process and machine sees the same
    # generation (the HTTP response cache keys on it). It moves once per writing transaction,
    # not once per statement: a bulk load of thousands of statements would otherwise pile up
    # that many versions of the row inside one transaction, each bump scanning them all.
    sql += [
        "CREATE TABLE data_generation (value BIGINT NOT NULL, xact BIGINT)",
        "INSERT INTO data_generation (value) VALUES (0)",
        "CREATE FUNCTION bump_generation() RETURNS trigger LANGUAGE plpgsql AS $$"
        " BEGIN UPDATE data_generation SET value = value + 1, xact = txid_current()"
        " WHERE xact IS DISTINCT FROM txid_current(); RETURN NULL; END $$",
    ]
    sql += [
        f'CREATE TRIGGER "{table}_generation"'
        f' AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}"'
        " FOR EACH STATEMENT EXECUTE FUNCTION bump_generation()"
        for table in DATA_TABLES
    ]
    return sql


#: Every schema version, oldest first; applied in order on connect.
def _import_keys() -> list[str]:
    """What an imported record was called in the file it came from (an iCalendar UID, a
    CSV key), so that importing the file again updates it rather than adding a copy."""
    return [
        "CREATE TABLE import_keys (kind TEXT NOT NULL, key TEXT NOT NULL,"
        " record_id BIGINT NOT NULL, PRIMARY KEY (kind, key))"
    ]


def _moved(side: str) -> str:
    """The ``side`` rows (``old_rows`` or ``new_rows``) of an update whose count key moved."""
    return (
        f"(SELECT {side[0]}.* FROM old_rows o JOIN new_rows n ON n.id = o.id"
        f" WHERE ({', '.join('o.' + c for c in KEY_COLUMNS)})"
        f" IS DISTINCT FROM ({', '.join('n.' + c for c in KEY_COLUMNS)}))"
    )


def _function(name: str, body: list[str], *, returns: str = "NULL") -> str:
    return (
        f'CREATE FUNCTION "{name}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN'
        f" {'; '.join(body)}; RETURN {returns}; END $$"
    )


def _linked(link: Link) -> str:
    key = ", ".join(f"e.{c}" for c in KEY_COLUMNS)
    return (
        f"(SELECT '{link.field}' AS link, c.\"{link.column}\" AS target, {key}"
        " FROM changed c JOIN events e ON e.id = c.event_id)"
    )


#: Set (``SET LOCAL``) to ``on`` for the rest of a transaction by a bulk load that counts its
#: events itself at its end (``PostgresBackend.bulk_load``); the insert count triggers skip.
BULK_LOAD_SETTING = "events_calendar.bulk_load"
_SKIP_IN_BULK_LOAD = (
    f"IF current_setting('{BULK_LOAD_SETTING}', true) = 'on' THEN RETURN NULL; END IF"
)


def _window_counts() -> list[str]:
    """Events counted per day (and per linked record per day), kept by triggers, so a
    windowed list's total is a sum over the window's days (``sql.window_counts``).

    Inserts, updates and link writes are counted per statement from their transition
    tables (a ``COPY`` of thousands of rows updates each count row once). A bulk load
    (``BULK_LOAD_SETTING`` on) counts its inserts once at its end instead: batch after batch
    updating the same count rows in one transaction piles up row versions that each update
    must step over (a load into a calendar with events ran 40% slower). Deleting an event
    uncounts it and its links row by row before the links cascade away.
    """
    from .postgres import PostgresDialect

    dialect = PostgresDialect()
    old = "(SELECT " + ", ".join(f"OLD.{c} AS {c}" for c in ("id", *KEY_COLUMNS)) + ")"
    sql = create_tables(dialect)
    sql += [
        _function(
            "event_day_counts_insert", [_SKIP_IN_BULK_LOAD, *add_events(dialect, "new_rows")]
        ),
        "CREATE TRIGGER event_day_counts_insert AFTER INSERT ON events REFERENCING NEW TABLE"
        " AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_day_counts_insert()",
        _function(
            "event_day_counts_update",
            [
                *add_events(dialect, _moved("old_rows"), sign=-1),
                *add_events(dialect, _moved("new_rows")),
                add_links(dialect, counted_links(_moved("old_rows")), sign=-1),
                add_links(dialect, counted_links(_moved("new_rows"))),
            ],
        ),
        "CREATE TRIGGER event_day_counts_update AFTER UPDATE ON events REFERENCING OLD TABLE"
        " AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT"
        " EXECUTE FUNCTION event_day_counts_update()",
        _function(
            "event_day_counts_delete",
            [*add_events(dialect, old, sign=-1), add_links(dialect, counted_links(old), sign=-1)],
            returns="OLD",  # a BEFORE trigger returning NULL would cancel the delete
        ),
        "CREATE TRIGGER event_day_counts_delete BEFORE DELETE ON events FOR EACH ROW"
        " EXECUTE FUNCTION event_day_counts_delete()",
    ]
    for link in LINKS.values():
        name = f"{link.table}_day_counts"
        sql += [
            _function(
                name,
                [
                    f"IF TG_OP = 'INSERT' THEN {_SKIP_IN_BULK_LOAD};"
                    f" {add_links(dialect, _linked(link))};"
                    f" ELSE {add_links(dialect, _linked(link), sign=-1)}; END IF"
                ],
            ),
            *(
                f'CREATE TRIGGER "{name}_{action.lower()}" AFTER {action} ON "{link.table}"'
                f" REFERENCING {side} TABLE AS changed FOR EACH STATEMENT"
                f' EXECUTE FUNCTION "{name}"()'
                for action, side in (("INSERT", "NEW"), ("DELETE", "OLD"))
            ),
        ]
    return [
        *sql,
        *add_events(dialect, "events"),
        add_links(dialect, counted_links("events")),
    ]


def _change_journal() -> list[str]:
    """The change journal (``changes``): each committed write's touched rows, kept by
    statement triggers from their transition tables, so writes from any process or tool are
    in it. An entry's ``seq`` is its transaction's generation: every writing transaction
    bumps ``data_generation`` first, holding that row's lock until it commits, so
    generations follow commit order and a reader that sees one has seen every lower one.
    A link row is journaled as its event; a term whose stored count moves is an updated
    term. Writes of users, credentials and former slugs, and truncations, are journaled as
    "anything"; so is a bulk load, once, at its end (its row inserts are skipped). Every
    1,024th generation prunes entries more than ``changes.KEPT`` generations old."""
    sql = [
        "CREATE TABLE changes (seq BIGINT NOT NULL, kind TEXT NOT NULL,"
        " record_id BIGINT NOT NULL, op TEXT NOT NULL)",
        "CREATE INDEX changes_seq ON changes (seq)",
        "CREATE TABLE changes_horizon (seq BIGINT NOT NULL)",
        "INSERT INTO changes_horizon VALUES (0)",
        "CREATE FUNCTION journal_generation() RETURNS BIGINT LANGUAGE plpgsql AS $$"
        " DECLARE g BIGINT; BEGIN"
        " UPDATE data_generation SET value = value + 1, xact = txid_current()"
        " WHERE xact IS DISTINCT FROM txid_current();"
        " SELECT value INTO g FROM data_generation;"
        f" IF g % 1024 = 0 THEN DELETE FROM changes WHERE seq <= g - {KEPT};"
        f" UPDATE changes_horizon SET seq = greatest(seq, g - {KEPT}); END IF;"
        " RETURN g; END $$",
        _function(
            "journal_anything",
            [f"INSERT INTO changes VALUES (journal_generation(), '{ANYTHING}', 0, 'update')"],
        ),
    ]
    journaled = [
        *((table, kind, "id") for kind, table in TABLES.items()),
        *((link.table, "event", "event_id") for link in LINKS.values()),
    ]
    for table, kind, column in journaled:
        name = f"{table}_journal"
        insert, delete = ("insert", "delete") if column == "id" else ("update", "update")
        rows = f"SELECT g, '{kind}', r.{column}"  # the generation read once per statement
        sql += [
            f'CREATE FUNCTION "{name}"() RETURNS trigger LANGUAGE plpgsql AS $$'
            f" DECLARE g BIGINT; BEGIN"
            f" IF TG_OP = 'INSERT' THEN {_SKIP_IN_BULK_LOAD}; END IF;"
            " g := journal_generation();"
            f" IF TG_OP = 'INSERT' THEN"
            f" INSERT INTO changes {rows}, '{insert}' FROM new_rows r;"
            f" ELSIF TG_OP = 'DELETE' THEN"
            f" INSERT INTO changes {rows}, '{delete}' FROM old_rows r;"
            f" ELSE INSERT INTO changes {rows}, 'update' FROM"
            f" (SELECT {column} FROM old_rows UNION SELECT {column} FROM new_rows) r;"
            " END IF; RETURN NULL; END $$",
            *(
                f'CREATE TRIGGER "{name}_{action.lower()}" AFTER {action} ON "{table}"'
                f' REFERENCING {sides} FOR EACH STATEMENT EXECUTE FUNCTION "{name}"()'
                for action, sides in (
                    ("INSERT", "NEW TABLE AS new_rows"),
                    ("DELETE", "OLD TABLE AS old_rows"),
                    ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
                )
            ),
        ]
    sql += [
        f'CREATE TRIGGER "{table}_journal" AFTER INSERT OR UPDATE OR DELETE ON "{table}"'
        " FOR EACH STATEMENT EXECUTE FUNCTION journal_anything()"
        for table in ("slug_aliases", "users", "credentials")
    ]
    sql += [
        f'CREATE TRIGGER "{table}_journal_truncate" AFTER TRUNCATE ON "{table}"'
        " FOR EACH STATEMENT EXECUTE FUNCTION journal_anything()"
        for table in DATA_TABLES
    ]
    return sql


def _link_listing_index() -> list[str]:
    """Each link row keeps its event's listing key (``schema.LISTING_KEY``), and each link
    table an index in list order (``Link.listing_index``), so a list of one venue, organizer,
    category or tag reads that index from the window's start and stops when the page is
    full. The library writes the key with every link; a link written without it (by another
    tool) gets it from its event before it is stored. An event whose key changes passes it on
    to its links, once per statement."""
    keys = ", ".join(LISTING_KEY)
    types = {"status": "TEXT", "hide_from_listings": "BOOLEAN"}
    sql: list[str] = []
    for link in LINKS.values():
        table, target = link.table, link.column
        added = ", ".join(f"ADD COLUMN {c} {types.get(c, 'BIGINT')}" for c in LISTING_KEY)
        sql += [
            f'ALTER TABLE "{table}" {added}',
            f'UPDATE "{table}" l SET ({keys}) = ({", ".join(f"e.{c}" for c in LISTING_KEY)})'
            " FROM events e WHERE e.id = l.event_id",
            f'CREATE INDEX "{link.listing_index}" ON "{table}"'
            f' ("{target}", status, hide_from_listings, utc_start, event_id, utc_end)',
            f'CREATE FUNCTION "{table}_listing_key"() RETURNS trigger LANGUAGE plpgsql AS $$'
            f" BEGIN SELECT {keys} INTO {', '.join(f'NEW.{c}' for c in LISTING_KEY)}"
            " FROM events WHERE id = NEW.event_id; RETURN NEW; END $$",
            f'CREATE TRIGGER "{table}_listing_key" BEFORE INSERT ON "{table}"'
            " FOR EACH ROW WHEN (NEW.utc_start IS NULL)"
            f' EXECUTE FUNCTION "{table}_listing_key"()',
        ]
    copies = [
        f'UPDATE "{link.table}" l SET ({keys}) = ({", ".join(f"n.{c}" for c in LISTING_KEY)})'
        f" FROM {_moved('new_rows')} n WHERE l.event_id = n.id"
        for link in LINKS.values()
    ]
    sql += [
        _function("events_listing_key", copies),
        "CREATE TRIGGER events_listing_key AFTER UPDATE ON events REFERENCING OLD TABLE"
        " AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT"
        " EXECUTE FUNCTION events_listing_key()",
    ]
    return sql


def _category_branch_counts() -> list[str]:
    """Day counts of each category's whole branch (itself and its sub-categories), each event
    once, and the closure table they are kept from (``sql.category_tree``). The category
    links' and the events' count functions of version 3 are replaced by ones that keep the
    branch counts beside the link counts; row triggers on ``categories`` keep the closure (and
    the branches a moved category leaves and joins) in step."""
    from .postgres import PostgresDialect

    dialect = PostgresDialect()
    link = LINKS["categories"]
    old = "(SELECT " + ", ".join(f"OLD.{c} AS {c}" for c in ("id", *KEY_COLUMNS)) + ")"
    clear, recount = recount_branches("OLD.parent", "NEW.parent")
    gone, forget = uncount_category("OLD.id")
    replace = "CREATE OR REPLACE FUNCTION"
    return [
        *tree_tables(dialect),
        add_links(dialect, counted_tree("events")),
        _function(f"{TREE}_insert", [insert_statement("NEW.id", "NEW.parent")]),
        f"CREATE TRIGGER {TREE}_insert AFTER INSERT ON categories FOR EACH ROW"
        f" EXECUTE FUNCTION {TREE}_insert()",
        _function(
            f"{TREE}_move",
            [
                *move_statements("NEW.id", "OLD.parent", "NEW.parent"),
                clear,
                add_links(dialect, recount),
            ],
        ),
        f"CREATE TRIGGER {TREE}_move AFTER UPDATE OF parent ON categories FOR EACH ROW"
        f" WHEN (OLD.parent IS DISTINCT FROM NEW.parent) EXECUTE FUNCTION {TREE}_move()",
        _function(f"{TREE}_delete", [add_links(dialect, gone, sign=-1), *forget], returns="OLD"),
        f"CREATE TRIGGER {TREE}_delete BEFORE DELETE ON categories FOR EACH ROW"
        f" EXECUTE FUNCTION {TREE}_delete()",
        _function(
            f"{link.table}_day_counts",
            [
                f"IF TG_OP = 'INSERT' THEN {_SKIP_IN_BULK_LOAD};"
                f" {add_links(dialect, _linked(link))};"
                f" {add_links(dialect, changed_tree_links())};"
                f" ELSE {add_links(dialect, _linked(link), sign=-1)};"
                f" {add_links(dialect, changed_tree_links(), sign=-1)}; END IF"
            ],
        ).replace("CREATE FUNCTION", replace, 1),
        _function(
            "event_day_counts_update",
            [
                *add_events(dialect, _moved("old_rows"), sign=-1),
                *add_events(dialect, _moved("new_rows")),
                add_links(dialect, counted_links(_moved("old_rows")), sign=-1),
                add_links(dialect, counted_links(_moved("new_rows"))),
                add_links(dialect, counted_tree(_moved("old_rows")), sign=-1),
                add_links(dialect, counted_tree(_moved("new_rows"))),
            ],
        ).replace("CREATE FUNCTION", replace, 1),
        _function(
            "event_day_counts_delete",
            [
                *add_events(dialect, old, sign=-1),
                add_links(dialect, counted_links(old), sign=-1),
                add_links(dialect, counted_tree(old), sign=-1),
            ],
            returns="OLD",
        ).replace("CREATE FUNCTION", replace, 1),
    ]


def _calendar_identity() -> list[str]:
    """The calendar's identity (``Storage.calendar_identity``): one row, made here, so a
    database has its own from its first connection (an older one gets one as it upgrades)."""
    return [
        "CREATE TABLE calendar_identity (identity TEXT NOT NULL)",
        f"INSERT INTO calendar_identity (identity) VALUES ('{new_calendar_identity()}')",
    ]


def _search_indexes() -> list[tuple[str, str, tuple[str, ...]]]:
    """Each trigram search index: its name, its table and the fields its text joins."""
    indexes = [("events_search", "events", EVENT_SEARCH_FIELDS)]
    for kind in ("venue", "organizer"):
        table = TABLES[kind]
        indexes += [(f"{table}_search_{f}", table, (f,)) for f in LINKED_SEARCH_FIELDS[kind]]
    return indexes


def _rebuilt_search_indexes(
    text: Callable[[tuple[str, ...]], str], *, of: str | None = None
) -> list[str]:
    """Every search index (or those of table ``of``) dropped and built again over ``text``
    of its fields."""
    return [
        statement
        for name, table, fields in _search_indexes()
        if of in (None, table)
        for statement in (
            f'DROP INDEX "{name}"',
            f'CREATE INDEX "{name}" ON "{table}" USING gin ({text(fields)} gin_trgm_ops)',
        )
    ]


def _search_indexes_fold_as_python() -> list[str]:
    """The search indexes read text folded by ICU (``FOLDING``), as the searches now compare
    it: the database's ``lower()`` left a search for ``İstanbul`` or a word-final ``Σ``
    finding other events than on memory or SQLite."""
    return _rebuilt_search_indexes(_lowered_as_python)


def _search_indexes_fold_accents() -> list[str]:
    """The search indexes read text folded without accents (``_folded``, as
    ``queries.fold`` folds it): searches now ignore accents as the reference's MySQL
    collation does, and an index over the text of migration 8 (accents kept) matches no
    search the dialect writes, so every search would read every row. The folding is
    ``FOLD_FUNCTION``, made here."""
    return [_fold_function(), *_rebuilt_search_indexes(_folded)]


def _name_keys_hashed() -> list[str]:
    """Lookups by name (``find_names``: name_key equal to one of several) go through hash
    indexes: a B-tree refuses an entry past 2,704 bytes, so a title or name of a few
    thousand characters, which memory and SQLite store, failed on PostgreSQL alone."""
    return [
        statement
        for table in TABLES.values()
        for statement in (
            f'DROP INDEX "{table}_name_key"',
            f'CREATE INDEX "{table}_name_key" ON "{table}" USING hash (name_key)',
        )
    ]


def _anything_only_when_rows_change() -> list[str]:
    """Former slugs, users and credentials journal "anything" only when a statement changed
    a row of theirs. Their statement triggers fired on every statement, and removing any
    record runs a ``DELETE`` of its former slugs, most often of none: each removal on
    PostgreSQL retired every cached answer, where SQLite's row triggers journal nothing.
    Each trigger now reads its transition table first."""
    sql = [
        _function(
            "journal_anything_if_rows",
            [
                "IF EXISTS (SELECT 1 FROM changed_rows) THEN"
                f" INSERT INTO changes VALUES (journal_generation(), '{ANYTHING}', 0, 'update');"
                " END IF"
            ],
        )
    ]
    for table in ("slug_aliases", "users", "credentials"):
        sql.append(f'DROP TRIGGER "{table}_journal" ON "{table}"')
        sql += [
            f'CREATE TRIGGER "{table}_journal_{action.lower()}" AFTER {action} ON "{table}"'
            f" REFERENCING {sides} FOR EACH STATEMENT"
            " EXECUTE FUNCTION journal_anything_if_rows()"
            for action, sides in (
                ("INSERT", "NEW TABLE AS changed_rows"),
                ("DELETE", "OLD TABLE AS changed_rows"),
                ("UPDATE", "OLD TABLE AS changed_rows NEW TABLE AS new_rows"),
            )
        ]
    return sql


def _event_search_text_stored() -> list[str]:
    """The events' folded search text is stored (``FOLDED_TEXT``), computed by PostgreSQL
    as a row is written (by the library, a ``COPY`` or any tool), and their trigram index
    is built over it. A trigram index answers a ``LIKE`` loosely: each row the index of
    migration 11 matched was folded again (``FOLD_FUNCTION``, a plpgsql call) to be checked,
    as was each row a list walked in date order instead. At 20,000 events, a list searching
    for a word one event in four holds took 30 to 40 ms under the plan the server kept for
    the statement (it took the index, see ``postgres._prepare``), 10 ms reading the stored
    text; the answers are the same, the text being the same.

    Adding the column rewrites the events table once, folding every event (3 s at 20,000
    events), under the write lock. It is then analysed: with no statistics of the new
    column, the planner took its index even for a word most events hold. ``IF NOT EXISTS``,
    as migration 11's ``OR REPLACE``: it applies again over a database whose migration
    record was taken back by hand with the column left in place."""
    return [
        f'ALTER TABLE events ADD COLUMN IF NOT EXISTS "{FOLDED_TEXT}" TEXT'
        f" GENERATED ALWAYS AS ({_folded(EVENT_SEARCH_FIELDS)}) STORED",
        *_rebuilt_search_indexes(lambda fields: search_text("events", fields), of="events"),
        "ANALYZE events",
    ]


def _links_read_from_an_index() -> list[str]:
    """Each link table gets an index holding everything a read of an event's links asks
    (``SQLStore._links``: the event, the position, the target), as SQLite's migration 0013
    did: the primary key's index finds an event's link rows but not their positions, so each
    read fetched every row from the table and sorted them by position. From this index the
    read is an index-only scan in the order asked, no sort. Links are read for every event a
    list, a single read or ``iter`` builds: at 30,000 events ``iter`` spent half its time
    there. A link insert writes one more index entry; a load into an empty calendar builds
    it once, after the rows (``PostgresBackend.bulk_load`` re-creates every index it drops).

    ``CREATE INDEX`` blocks writes to the link table (not reads) while it builds: a fraction
    of a second at 30,000 events, a few seconds at a million. ``IF NOT EXISTS``, as
    migration 12's column: it applies again over a database whose migration record was taken
    back by hand."""
    return [
        f'CREATE INDEX IF NOT EXISTS "{link.table}_of_event" ON "{link.table}"'
        f' (event_id, position, "{link.column}")'
        for link in LINKS.values()
    ]


def _linked_search_text_stored() -> list[str]:
    """Each search field of the venues and organizers is stored folded, in a column of its
    own (``folded_column``), as migration 12 stored the events' text, and its trigram index
    is built over it. A venue or organizer search (one field must hold every word) called
    ``FOLD_FUNCTION`` on every field of every row it read: at 20,000 venues each search
    read them all, 230 to 380 ms, a list and its total; the answers are the same, the text
    being the same.

    Adding the columns rewrites each table once (one ``ALTER TABLE`` per table), folding
    every field, under the write lock; each table is then analysed, as in migration 12.
    ``IF NOT EXISTS``, so that it applies again over a database whose migration record was
    taken back by hand."""
    return [statement for table in _STORED_FIELDS for statement in _stored_fields(table)]


def _stored_fields(table: str) -> list[str]:
    """``_linked_search_text_stored`` for one table."""
    added = ", ".join(
        f'ADD COLUMN IF NOT EXISTS "{folded_column(field)}" TEXT'
        f" GENERATED ALWAYS AS ({_folded([field])}) STORED"
        for field in _STORED_FIELDS[table]
    )
    return [
        f'ALTER TABLE "{table}" {added}',
        *_rebuilt_search_indexes(lambda fields: search_text(table, fields), of=table),
        f'ANALYZE "{table}"',
    ]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", _initial),
    Migration(2, "import_keys", _import_keys),
    Migration(3, "window_counts", _window_counts),
    Migration(4, "change_journal", _change_journal),
    Migration(5, "link_listing_index", _link_listing_index),
    Migration(6, "category_branch_counts", _category_branch_counts),
    Migration(7, "calendar_identity", _calendar_identity),
    Migration(8, "search_indexes_fold_as_python", _search_indexes_fold_as_python),
    Migration(9, "name_keys_hashed", _name_keys_hashed),
    Migration(10, "anything_only_when_rows_change", _anything_only_when_rows_change),
    Migration(11, "search_indexes_fold_accents", _search_indexes_fold_accents),
    Migration(12, "event_search_text_stored", _event_search_text_stored),
    Migration(13, "links_read_from_an_index", _links_read_from_an_index),
    Migration(14, "linked_search_text_stored", _linked_search_text_stored),
)
