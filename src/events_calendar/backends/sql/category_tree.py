"""Day counts of a category with all its sub-categories, kept by triggers, written once for
every SQL database.

A list filtered by a category also lists the events of its sub-categories (the core expands
the filter to the whole branch), and an event may be filed under several categories of one
branch (a concert under both Music and Jazz). The per-term day counts (``window_counts``)
would count such an event once per term, so a branch's total was counted row by row: 240 ms
for a top-level category's default window at a million events. Here the branch is a record of
its own:

- ``category_tree`` is the closure of the category hierarchy: a row per category and each of
  its ancestors, itself included. Triggers on ``categories`` keep it in step with new
  categories, moves (a changed ``parent``) and deletions.
- ``link_day_counts`` rows with ``link = 'category_tree'`` count, per ancestor category, the
  events filed under it or under any of its sub-categories, each event once, by the same
  (status, hidden, start day, end day) key as every other link count.

A link's triggers count its event under each ancestor of its term that no other link of the
event already counts it under; deleting a link uncounts it from those no other link still
covers. An event's own changes (its key, its deletion) move its branch counts with its other
link counts (``counted_tree`` joins ``window_counts.counted_links``). Moving a category
recounts the branches of its old and new ancestors from their links: a rare edit, which
costs what those branches hold. The SQL text is built here; each dialect's migration wraps it
in its own trigger syntax.
"""

from __future__ import annotations

from collections.abc import Collection

from .dialect import Dialect, Fragment
from .schema import LINKS, LISTING_KEY

__all__ = [
    "ENDING",
    "TREE",
    "branch_root",
    "changed_tree_links",
    "counted_tree",
    "insert_statement",
    "move_statements",
    "recount_branches",
    "tree_links",
    "tree_tables",
    "uncount_category",
]

#: The closure table, and the ``link`` its counts carry in ``link_day_counts``.
TREE = "category_tree"
#: The category links by end: a branch window's partial last day (its events ending before
#: the window's end) is a range of it per category, where probing the links of every event
#: ending that day cost 7-20 ms at a million events.
ENDING = "event_categories_ending"
_LINKS = LINKS["categories"].table
_KEY = ", ".join(f"e.{c}" for c in LISTING_KEY)
_PICKED = ", ".join(f"p.{c}" for c in LISTING_KEY)


def tree_tables(dialect: Dialect) -> list[str]:
    """The closure table, clustered by term (a term's ancestors) and indexed by ancestor (a
    branch's categories), filled from the categories there are; and the category links'
    index by end (``ENDING``)."""
    number = dialect.types[int]
    return [
        f"CREATE TABLE {TREE} (term_id {number} NOT NULL, ancestor_id {number} NOT NULL,"
        f" PRIMARY KEY (term_id, ancestor_id)){dialect.clustered}",
        f"CREATE INDEX {TREE}_ancestor ON {TREE} (ancestor_id, term_id)",
        f"CREATE INDEX {ENDING} ON {_LINKS}"
        " (term_id, status, hide_from_listings, utc_end, event_id, utc_start)",
        f"WITH RECURSIVE t (term_id, ancestor_id) AS (SELECT id, id FROM categories UNION"
        f" SELECT c.id, t.ancestor_id FROM categories c JOIN t ON c.parent = t.term_id)"
        f" INSERT INTO {TREE} (term_id, ancestor_id) SELECT term_id, ancestor_id FROM t",
    ]


def _not_counted_elsewhere(event: str, ancestor: str, *, besides: str) -> str:
    """No link of ``event`` other than those ``besides`` excludes files it under the branch
    of ``ancestor``."""
    return (
        f"NOT EXISTS (SELECT 1 FROM {_LINKS} o JOIN {TREE} b ON b.term_id = o.term_id"
        f" WHERE o.event_id = {event} AND b.ancestor_id = {ancestor} AND {besides})"
    )


def tree_links(ref: str) -> str:
    """The branch counts a link row ``ref`` (a row trigger's ``new`` or ``old`` row of the
    category links) adds or takes away: one per ancestor of its term under which no other
    link of its event files it. A source for ``window_counts.add_links``."""
    alone = _not_counted_elsewhere(
        f"{ref}.event_id", "a.ancestor_id", besides=f"o.term_id <> {ref}.term_id"
    )
    return (
        f"(SELECT '{TREE}' AS link, a.ancestor_id AS target, {_KEY}"
        f" FROM {TREE} a JOIN events e ON e.id = {ref}.event_id WHERE a.term_id = {ref}.term_id"
        f" AND {alone})"
    )


def changed_tree_links(changed: str = "changed") -> str:
    """``tree_links`` for every row of a statement's transition table ``changed`` at once
    (links inserted or deleted together: each event counted once per branch)."""
    besides = (
        f"NOT EXISTS (SELECT 1 FROM {changed} x"
        " WHERE x.event_id = o.event_id AND x.term_id = o.term_id)"
    )
    return (
        f"(SELECT '{TREE}' AS link, p.target, {_PICKED} FROM (SELECT DISTINCT c.event_id,"
        f" a.ancestor_id AS target, {_KEY} FROM {changed} c"
        f" JOIN {TREE} a ON a.term_id = c.term_id JOIN events e ON e.id = c.event_id"
        f" WHERE {_not_counted_elsewhere('c.event_id', 'a.ancestor_id', besides=besides)}) p)"
    )


def counted_tree(events: str, *, where: str = "") -> str:
    """Every branch count of the events of the relation ``events`` (with ``id`` and the
    listing key): each event once per ancestor of any of its categories. ``where`` may bound
    the link rows ``l``."""
    return (
        f"(SELECT '{TREE}' AS link, p.target, {_PICKED} FROM (SELECT DISTINCT l.event_id,"
        f" a.ancestor_id AS target, {_KEY} FROM {_LINKS} l"
        f" JOIN {TREE} a ON a.term_id = l.term_id JOIN {events} e ON e.id = l.event_id{where}) p)"
    )


def recount_branches(old: str, new: str) -> tuple[str, str]:
    """After a category moved from parent ``old`` to parent ``new`` (SQL expressions), the
    branches whose events changed: the statement deleting their counts, and the source
    recounting them (for ``window_counts.add_links``)."""
    ancestors = f"SELECT ancestor_id FROM {TREE} WHERE term_id IN ({old}, {new})"
    source = (
        f"(SELECT '{TREE}' AS link, p.target, {_PICKED} FROM (SELECT DISTINCT l.event_id,"
        f" a.ancestor_id AS target, {_KEY} FROM {TREE} a"
        f" JOIN {TREE} s ON s.ancestor_id = a.ancestor_id JOIN {_LINKS} l ON l.term_id = s.term_id"
        f" JOIN events e ON e.id = l.event_id WHERE a.term_id IN ({old}, {new})) p)"
    )
    return f"DELETE FROM link_day_counts WHERE link = '{TREE}' AND target IN ({ancestors})", source


def move_statements(node: str, old: str, new: str) -> list[str]:
    """The closure rows of a category ``node`` that moved from parent ``old`` to ``new``:
    its whole branch leaves the old ancestors and joins the new ones."""
    return [
        f"DELETE FROM {TREE} WHERE term_id IN (SELECT term_id FROM {TREE} WHERE ancestor_id ="
        f" {node}) AND ancestor_id IN (SELECT ancestor_id FROM {TREE} WHERE term_id = {old})",
        f"INSERT INTO {TREE} (term_id, ancestor_id) SELECT s.term_id, a.ancestor_id"
        f" FROM {TREE} s, {TREE} a WHERE s.ancestor_id = {node} AND a.term_id = {new}",
    ]


def insert_statement(node: str, parent: str) -> str:
    """The closure rows of a new category: itself, and its parent's ancestors."""
    return (
        f"INSERT INTO {TREE} (term_id, ancestor_id) SELECT {node}, {node} UNION"
        f" SELECT {node}, ancestor_id FROM {TREE} WHERE term_id = {parent}"
    )


def uncount_category(node: str) -> tuple[str, list[str]]:
    """Before category ``node`` is deleted: the source of the branch counts its links take
    away (for ``window_counts.add_links``, negated), then the statements dropping its own
    counts and closure rows (so the links' cascade finds no branch to uncount again)."""
    alone = _not_counted_elsewhere("l.event_id", "a.ancestor_id", besides=f"o.term_id <> {node}")
    source = (
        f"(SELECT '{TREE}' AS link, a.ancestor_id AS target, {_KEY} FROM {_LINKS} l"
        f" JOIN {TREE} a ON a.term_id = l.term_id JOIN events e ON e.id = l.event_id"
        f" WHERE l.term_id = {node} AND {alone})"
    )
    return source, [
        f"DELETE FROM link_day_counts WHERE link = '{TREE}' AND target = {node}",
        f"DELETE FROM {TREE} WHERE term_id = {node} OR ancestor_id = {node}",
    ]


def branch_root(dialect: Dialect, ids: Collection[int]) -> Fragment:
    """The category among ``ids`` whose branch (itself and every sub-category) is exactly
    ``ids``, if any: a category filter as the core expands it, whose total the branch counts
    answer."""
    inner, params = dialect.in_("ancestor_id", sorted(ids))
    members, more = dialect.in_("term_id", sorted(ids))
    return (
        f"SELECT ancestor_id FROM {TREE} WHERE {inner} GROUP BY ancestor_id"
        f" HAVING count(*) = ? AND sum(CASE WHEN {members} THEN 1 ELSE 0 END) = ?",
        [*params, len(ids), *more, len(ids)],
    )
