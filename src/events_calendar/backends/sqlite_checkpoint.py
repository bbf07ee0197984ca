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

__all__ = ["PAUSE", "Checkpointer"]

#: The shortest time between two checkpoints (seconds): commits in between share one.
PAUSE = 0.05
#: Checkpointers whose thread may run, finished at exit.
_LIVE: weakref.WeakSet[Checkpointer] = weakref.WeakSet()


class Checkpointer:
    """Passive checkpoints after commits, from one thread started at the first commit."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._wanted = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        #: Checkpoints run so far (tests and diagnostics).
        self.runs = 0

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
        try:
            while not self._closing.is_set():
                self._wanted.wait()
                self._wanted.clear()
                self._checkpoint(db)
                self._closing.wait(PAUSE)
            self._checkpoint(db)  # what the last commits logged
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.runs += 1
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
