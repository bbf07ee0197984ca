"""``WalIndexHeader``: whether a WAL database moved, read from shared memory, not by a query.

Every cached answer of the HTTP adapter first asks the storage whether any commit landed since
(``SQLiteEngine.generation``). Asked as ``PRAGMA data_version``, that is a few microseconds of
SQLite, but Python's ``sqlite3`` lets go of the interpreter lock around every statement, and
on the event loop, with a worker thread busy building an uncached page or a write, getting
it back takes until that thread lets go in turn: up to the interpreter's switch interval
(5 ms). Measured beside a busy thread: 2.8 ms a question instead of 7 µs, on every cached
answer, which is how a few writes (and the uncached pages they cause) starved the cached
reads of the realistic mix.

The same fact lies in the database's wal-index (the ``-shm`` file every connection maps): its
header's first copy, 48 bytes, holds a counter "incremented with each transaction", the count
of committed frames and the log's salts (https://sqlite.org/walformat.html, "The WAL-Index
Header"). A commit rewrites it before the commit returns, so a read of it that starts after a
commit sees the change; reading it is a copy of 48 bytes of mapped memory, which keeps the
interpreter lock. The header is compared whole, as an opaque token: it also changes when the
log is reset or recovered, which only costs a reader a needless look at the change journal.

The file stays the database's while the engine is open: a connection to a WAL database holds
a shared lock on it continuously, and SQLite deletes the ``-shm`` file only when the last
connection closes (the same page, "File Lifecycles" and "Locking Matrix"). Where the file
cannot be mapped (no ``-shm``: exclusive locking mode, a database not in WAL mode; an OS that
refuses), ``open`` answers ``None`` and the engine asks SQLite as before.
"""

from __future__ import annotations

import mmap
from pathlib import Path

__all__ = ["WalIndexHeader"]

#: The first copy of the header (bytes 0..47): what a commit rewrites.
HEADER_BYTES = 48


class WalIndexHeader:
    """The live first copy of a WAL database's wal-index header."""

    def __init__(self, mapped: mmap.mmap) -> None:
        self._mapped = mapped

    @classmethod
    def open(cls, database: Path) -> WalIndexHeader | None:
        """The header of ``database``'s wal-index, or ``None`` when it has none to map."""
        try:
            with open(f"{database}-shm", "rb") as file:
                mapped = mmap.mmap(file.fileno(), HEADER_BYTES, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # no such file, or shorter than a header
            return None
        return cls(mapped)

    def read(self) -> bytes:
        """The header as it is now: different after every commit."""
        return self._mapped[:HEADER_BYTES]

    def close(self) -> None:
        self._mapped.close()
