"""The write-ahead log copied back into an SQLite file by a thread of its own.

By default SQLite checkpoints inside a commit: the commit that takes the log past 1,000 pages
copies them into the database file and syncs it, 5-90 ms on a virtual disk, while the writer
(and every write queued behind it) waits. On a 100,000-event file that was one write in sixty,
and the whole p99 of writes: 4.9 ms with it, 0.6 ms without (``bench/http/profile_write.py``).

So the writer's connection never checkpoints (``PRAGMA wal_autocheckpoint = 0``), and each
commit wakes a ``Checkpointer`` instead: at most every ``PAUSE`` seconds it runs a passive
checkpoint on a connection of its own, which copies what no reader still needs and waits for
nobody. Readers and writers go on meanwhile (WAL allows one checkpoint beside them). A log
that cannot be copied yet (a long read holds it) is tried again at the next wake, as SQLite's
own checkpoints would be. Other processes on the file checkpoint in their own way; any
connection may.

A passive checkpoint alone never lets the log start again under a steady stream of writes:
SQLite rewinds the log only when a writer finds every frame copied, and new frames keep
arriving while the copy runs. Writes alone at ~1,000 a second grew a 100,000-event file's log
past 1 GB in 20 s and 2 GB in 40 (``bench/http/README.md``). So once the log holds more than
``LOG_PAGES`` pages, the checkpointer takes the engine's write lock (its writes wait, none is
cut short) and runs a ``RESTART`` checkpoint, which copies the few frames left and lets the
next commit write from the log's start: the file stays near ``LOG_PAGES`` and its blocks are
reused. It waits at most ``RESTART_WAIT`` for readers still inside the log, then gives up until
its next wake, having copied what it could. A log that grew past ``KEPT_LOG_BYTES`` meanwhile
(a long read, a checkpoint slowed by the disk) is cut back to that size once it starts again.

The same thread does the work commits leave for later (``tidy``: the search indexes' merges,
``sqlite_search_merge``) before each checkpoint, and wakes again at once while some is left.

Closing checkpoints one last time, and so does leaving the interpreter for a calendar nobody
closed (a script that loads and exits): its log reaches the file as it did when commits
copied it.
"""

from __future__ import annotations

import atexit
import sqlite3
import threading
import weakref
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

__all__ = ["KEPT_LOG_BYTES", "LOG_PAGES", "PAUSE", "RESTART_WAIT", "Checkpointer"]

#: The shortest time between two checkpoints (seconds): commits in between share one.
PAUSE = 0.05
#: A log longer than this (pages; 32 MiB of 4 KiB pages) is made to start again.
LOG_PAGES = 8192
#: A log file larger than this is cut back to it by the first commit after a restart (the
#: writer's ``journal_size_limit``): what a slow checkpoint let it grow to is not kept.
KEPT_LOG_BYTES = 64 * 1024 * 1024
#: How long a restarting checkpoint waits for readers still inside the log (seconds).
RESTART_WAIT = 0.02
#: Checkpointers whose thread may run, finished at exit.
_LIVE: weakref.WeakSet[Checkpointer] = weakref.WeakSet()


class Checkpointer:
    """Passive checkpoints after commits, from one thread started at the first commit."""

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        writes: Callable[[], AbstractContextManager[object]] = nullcontext,
        tidy: Callable[[], bool] = lambda: False,
    ) -> None:
        """``connect`` opens the checkpointer's own connection; ``writes()`` holds off this
        process's writers while the log is restarted; ``tidy()`` does a wake's share of the
        work commits leave for later and says whether some is left."""
        self._connect = connect
        self._writes = writes
        self._tidy = tidy
        self._wanted = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        #: Checkpoints run so far, and those that let the log start again (tests and
        #: diagnostics).
        self.runs = 0
        self.restarts = 0

    def committed(self) -> None:
        """A commit added to the log: checkpoint soon."""
        if self._thread is None:
            with self._start:
                if self._thread is None and not self._closing.is_set():
                    self._thread = threading.Thread(
                        target=self._run, name="sqlite-checkpoint", daemon=True
                    )
                    self._thread.start()
                    _LIVE.add(self)
        self._wanted.set()

    def _run(self) -> None:
        db = self._connect()
        db.execute(f"PRAGMA busy_timeout = {int(RESTART_WAIT * 1000)}")
        try:
            while not self._closing.is_set():
                self._wanted.wait()
                self._wanted.clear()
                if not self._closing.is_set() and self._tidied():
                    self._wanted.set()
                self._checkpoint(db)
                self._closing.wait(PAUSE)
            self._checkpoint(db)  # what the last commits logged
        finally:
            db.close()

    def _tidied(self) -> bool:
        """``tidy()``, whether work is left; a busy or closing file leaves it for the next
        commit."""
        try:
            return self._tidy()
        except sqlite3.Error:
            return False

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        try:
            _, logged, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.runs += 1
            if logged > LOG_PAGES:
                with self._writes():
                    busy, _, _ = db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                self.restarts += not busy
        except sqlite3.Error:
            pass  # the file is busy or going away: the next commit asks again

    def close(self) -> None:
        """Stop the thread, after a last checkpoint."""
        self._closing.set()
        self._wanted.set()
        with self._start:
            thread = self._thread
        if thread is not None:
            thread.join()


@atexit.register
def _finish() -> None:
    """At exit (before daemon threads stop), every checkpointer still running finishes."""
    for checkpointer in list(_LIVE):
        checkpointer.close()
