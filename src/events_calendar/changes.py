"""What committed since a point in time: the change journal every backend keeps.

A cache of answers (the HTTP adapter's, for one) must retire an answer when a write changes
what it shows, whichever process, worker or tool made the write. A generation (``Storage.
generation``) says only *that* something changed; the journal says *what*: each committed
write appends, in commit order, one entry per record row it inserted, updated or deleted (a
term whose stored count moved is an updated term; an event whose links changed is an updated
event). A reader keeps a cursor and asks for the entries after it.

The journal is bounded: old entries are pruned, and a cursor older than what is kept gets
``records=None``, "anything may have changed", as does a write the journal cannot itemise (a
bulk load, a change of users or former slugs).
"""

from __future__ import annotations

from typing import Literal

import attrs

from .records import Kind

__all__ = ["ANYTHING", "Change", "Changes", "Op"]

Op = Literal["insert", "update", "delete"]
#: The kind of a journal entry meaning "anything may have changed".
ANYTHING: Literal["*"] = "*"
#: How many entries a backend keeps at least (older ones are pruned).
KEPT = 8192


@attrs.frozen
class Change:
    """One row a committed write touched: a record (``kind``, ``record_id``) and how."""

    kind: Kind | Literal["*"]
    record_id: int
    op: Op


@attrs.frozen
class Changes:
    """The entries after a cursor and the cursor to ask from next time; ``records`` is
    ``None`` when the journal cannot say (pruned past the cursor, or an unitemised write)."""

    cursor: int
    records: tuple[Change, ...] | None

    @classmethod
    def of(cls, cursor: int, horizon: int, since: int | None, rows: list[Change]) -> Changes:
        """The answer for ``since`` given the entries after it (``rows``) and the cursor up
        to which entries were pruned (``horizon``); a backend reads ``rows`` before
        ``horizon``, so a prune in between is seen as one."""
        if since is None or since < horizon or any(r.kind == ANYTHING for r in rows):
            return cls(cursor, None)
        return cls(cursor, tuple(rows))
