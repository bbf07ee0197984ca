"""How SQL text differs between databases, and nothing else.

The shared compiler and store build portable SQL and ask the dialect only for what databases
spell differently: boolean literals, case folding, ``IN`` lists, substring tests and the
full-text index that serves them, and which driver exceptions mean what.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from typing import Any, ClassVar

__all__ = ["SEARCH_SAMPLE", "Dialect", "Fragment"]

#: A piece of SQL and the parameters it binds, in order.
Fragment = tuple[str, list[Any]]
#: Rows a search sample reads at most (``Dialect.search_sample``).
SEARCH_SAMPLE = 64


class Dialect(ABC):
    """The differences of one SQL dialect. Subclasses are stateless singletons."""

    name: ClassVar[str]
    #: Literals for a boolean column's values.
    true: ClassVar[str]
    false: ClassVar[str]
    #: A LIMIT that limits nothing (for an OFFSET without a limit).
    unlimited: ClassVar[str] = "ALL"
    #: How many bound parameters one statement may carry (multi-row inserts stay below it).
    max_params: ClassVar[int] = 30_000
    #: Column types for the Python types records declare (``bool``, ``int``, ``str``) and for
    #: integer primary keys.
    types: ClassVar[dict[type, str]]
    primary_key: ClassVar[str]
    #: What follows ``CREATE TABLE (...)`` to store a small table in its primary key's order.
    clustered: ClassVar[str] = ""

    def quote(self, identifier: str) -> str:
        """A quoted identifier (identifiers are our own names, never input)."""
        return '"' + identifier.replace('"', '""') + '"'

    def by_code_point(self, expr: str) -> str:
        """``expr`` as an ORDER BY key comparing text by Unicode code point, as Python's
        ``sorted`` does, whatever the database's collation."""
        return expr

    def row_by_row(self, expr: str) -> str:
        """``expr`` as a term the planner checks on each row of the index walk it chose rather
        than seeks an index for: keyset pages (``iter``) must walk the index of their order
        from the cursor, not sort every remaining match. Most planners see that from the
        ``LIMIT`` alone."""
        return expr

    @abstractmethod
    def fold(self, expr: str) -> str:
        """SQL for ``expr`` folded (no case, no accents) exactly as ``queries.fold`` folds
        Python text: an index over it must hold the very text every backend compares."""

    @abstractmethod
    def in_(self, expr: str, values: Collection[Any]) -> Fragment:
        """``expr`` is one of ``values`` (any number of them; none matches nothing)."""

    @abstractmethod
    def contains(self, expr: str, word: str) -> Fragment:
        """The folded text of ``expr`` contains ``word`` (already folded)."""

    def scan(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str], *, together: bool
    ) -> Fragment:
        """``search``'s meaning checked on each row a walk reaches, without the text index:
        cheaper when a word is common enough that a page is found a few rows in. Dialects
        whose planner weighs that itself keep ``search``."""
        return self.search(table, alias, fields, words, together=together)

    def search_matches(self, table: str, words: Sequence[str]) -> Fragment | None:
        """A relation ``matched (id, indexed)`` of the rows of ``table`` whose text may hold
        every word (a superset: ``search_matched`` still decides), read from the text index,
        which a count can loop over first instead of walking its window; ``indexed`` is true
        for a row the index itself matched. ``None``: the dialect's planner picks that order
        itself."""
        return None

    def search_matched(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str]
    ) -> Fragment:
        """``search`` (``together``) for the rows a ``search_matches`` relation drove: what
        the index already matched is not looked up in it again."""
        return self.search(table, alias, fields, words, together=True)

    def search_sample(self, table: str, words: Sequence[str]) -> Fragment | None:
        """SQL answering (matches, last id) for the first ``SEARCH_SAMPLE`` rows of ``table``
        whose text holds every word, in id order, from the text index: how common the words
        are, read in a fraction of a millisecond. ``None``: the dialect does not sample."""
        return None

    @abstractmethod
    def search(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str], *, together: bool
    ) -> Fragment:
        """Rows of ``table`` (aliased ``alias``) whose text contains every word, served by
        the dialect's text index.

        ``together``: the words may be spread over ``fields`` (an event search: title,
        excerpt and description read as one text). Otherwise one field must contain them all
        (a venue or organizer search).
        """
