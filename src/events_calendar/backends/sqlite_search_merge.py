"""The search indexes' segments merged a few pages at a time by the background thread.

An FTS5 index is a set of segments: each batch of newly indexed text is written as a small one,
and segments are merged as they pile up, so a search reads few of them. By default FTS5 merges
inside the writer's own commit (``automerge``), a little work per commit, with one exception
that stalls every write: while a level is being merged, new segments wait on the level below,
and when that level reaches ``crisismerge`` (16) segments the commit that tips it merges the
whole level, and any level above it that has as many, to the end. After a bulk load, whose
index is one large segment, the first merges rewrite that segment over tens of thousands of
writes, the waiting segments pile up behind it, and one commit then merged them all: 0.5-0.7 s
at 100,000 events with the library alone, 1.8-3.0 s through the HTTP server
(``bench/http/README.md``).

So writers never merge (migration 0014 sets ``automerge`` to 0 on every search index), and the
checkpoint thread (``sqlite_checkpoint``) merges after commits instead: FTS5's ``merge`` command
with a bound of ``MERGE_PAGES`` pages, each step in a transaction of its own under the engine's
write lock, writers let in between steps. A step goes on with a merge already begun or starts
one on a level of ``LEVEL_SEGMENTS`` or more segments (FTS5's ``usermerge``), and does nothing
otherwise; a look that finds nothing is not repeated for ``REST`` (a commit in the meantime is
looked at once it has passed). Merging keeps up with the writes, so no level piles up to
``CRISIS_SEGMENTS`` (FTS5's ``crisismerge``), where a commit would merge it whole. A private
in-memory database has no such thread; its indexes merge at ``crisismerge``, which at its
sizes costs nothing noticeable.

Sixteen segments a merge, not FTS5's four (migration 0015). Every merge rewrites what it
merges, and the large segment a bulk load leaves is merged with whatever reaches its level:
with four a level, it was rewritten after a few hundred writes and again every time its level
filled, at four times the distance; each new event's text was rewritten once per level, and
there were twice as many levels. On a 100,000-event file after a load, 40,000 single creates
ran at 653-682 a second against 547-554, and ten searches took as long with the extra
segments (``bench/search_merges.py``; ``bench/http/README.md``).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

__all__ = [
    "BUDGET",
    "CRISIS_SEGMENTS",
    "LEVEL_SEGMENTS",
    "MERGE_PAGES",
    "REST",
    "SearchMerges",
    "merge_step",
]

#: Segments of one level that a merge takes together (FTS5's ``usermerge``; its default is 4).
LEVEL_SEGMENTS = 16
#: Segments at which a writer's own commit merges a level whole (FTS5's ``crisismerge``; its
#: default, 16, would now be reached before the background thread merges a level at all).
CRISIS_SEGMENTS = 4 * LEVEL_SEGMENTS

#: The pages one merge step may write (it stops at the first term boundary past them): a write
#: that arrives during a step waits for it. 100 rather than 200: the HTTP mix with 1% writes
#: had a p99 of 19 ms against 24, and writes alone ran as fast (``bench/http/README.md``).
MERGE_PAGES = 100
#: How long (seconds) one wake of the background thread merges before it checkpoints; work
#: left over is taken up at its next wake.
BUDGET = 0.25
#: After a wake that found nothing to merge, the next look waits this long (seconds): each look
#: takes the writers' lock, and commits wake the thread up to twenty times a second.
REST = 0.25
#: The pause between two steps (seconds), in which waiting writers take the lock.
_LET_IN = 0.001


def merge_step(db: sqlite3.Connection, table: str) -> bool:
    """One bounded merge of ``table``'s segments, committed on its own; whether it merged
    anything. A step with nothing to merge changes one row (the command's own), writes no
    page and moves no reader's ``data_version``."""
    before = db.total_changes
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"INSERT INTO [{table}]([{table}], rank) VALUES ('merge', ?)", [MERGE_PAGES])
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # the writers' connection must not be left inside a transaction
            db.execute("ROLLBACK")
        raise
    return db.total_changes - before > 1


class SearchMerges:
    """The checkpoint thread's merging of the search indexes (its ``tidy``)."""

    def __init__(
        self,
        tables: Sequence[str],
        writer: Callable[[], AbstractContextManager[sqlite3.Connection]],
    ) -> None:
        """``writer()`` holds off this process's writers and gives their connection."""
        self._tables = tables
        self._writer = writer
        #: Steps that merged something (tests and diagnostics).
        self.steps = 0
        self._rest_until = 0.0

    def __call__(self) -> bool:
        """Merge until no index has anything to merge or ``BUDGET`` is spent; whether to wake
        again without a commit: work is left, or a look was put off by ``REST``.

        A wake during the rest comes from a commit, whose segments the look before it did not
        see: it is looked at once the rest is over. Answering "nothing left" instead left a
        burst of writes shorter than the rest (forty venues in a test) unmerged until the next
        commit, however long that took.
        """
        began = time.monotonic()
        if began < self._rest_until:
            return True
        deadline = began + BUDGET
        for table in self._tables:
            while True:
                with self._writer() as db:
                    merged = merge_step(db, table)
                if not merged:
                    break
                self.steps += 1
                if time.monotonic() > deadline:
                    return True
                time.sleep(_LET_IN)
        self._rest_until = time.monotonic() + REST
        return False
