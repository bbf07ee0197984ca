"""What an import did (or, in a dry run, would do), row by row.

``ImportReport`` is what ``cal.import_file`` returns and what the CLI prints: one outcome per
row (created, updated, unchanged or refused, with the row's place in its file and, when
refused, the reason), the counts, ``summary()``, the one line that closes every import, and
``explanation()``, the line before it when the counts were not (all) written.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Literal

import attrs

from .rows import one_line

__all__ = ["ImportReport", "Outcome", "RowOutcome"]

#: What happened to one row.
Outcome = Literal["created", "updated", "unchanged", "refused"]
_OUTCOMES: tuple[Outcome, ...] = ("created", "updated", "unchanged", "refused")


@attrs.frozen
class RowOutcome:
    """One row's fate: ``where`` it is in its file, what happened, the record's id (none for
    a refused row or a record a dry run would create) and, for a refused row, why."""

    where: str
    outcome: Outcome
    record_id: int | None = None
    reason: str = ""

    def line(self) -> str:
        """The row as one line of a report: ``line 12: refused: ...``; a line break that
        its place or reason holds is written as an escape (``rows.one_line``)."""
        tail = f": {self.reason}" if self.reason else ""
        return one_line(f"{self.where}: {self.outcome}{tail}")


@attrs.frozen
class ImportReport:
    """The outcome of every row of an import, in file order.

    ``dry_run`` reports say what an import would do; nothing was written. ``stopped`` is
    true when a refused row stopped an atomic import (``partial=False``): none of its good
    rows was written, or in a dry run would be. Those rows keep the outcome they would have
    with ``partial=True``, count as ``held_back`` and not as created or updated, so a dry
    run's counts are the import's.
    """

    kind: str
    rows: tuple[RowOutcome, ...] = ()
    dry_run: bool = False
    stopped: bool = False
    note: str = ""

    @property
    def written(self) -> bool:
        """Whether the import wrote its good rows (not a dry run, not stopped)."""
        return not (self.dry_run or self.stopped)

    @property
    def counts(self) -> dict[Outcome, int]:
        """How many rows had each outcome (every outcome present, zero or not). When an
        atomic import was stopped, nothing was created or updated: see ``held_back``."""
        found = Counter(row.outcome for row in self.rows)
        if self.stopped:
            found["created"] = found["updated"] = 0
        return {outcome: found[outcome] for outcome in _OUTCOMES}

    @property
    def held_back(self) -> int:
        """Good rows an atomic import did not write (or, in a dry run, would not) because
        another row was refused: they would be created or updated with ``partial=True``."""
        if not self.stopped:
            return 0
        return sum(row.outcome in ("created", "updated") for row in self.rows)

    @property
    def created(self) -> int:
        """Rows that made a new record."""
        return self.counts["created"]

    @property
    def updated(self) -> int:
        """Rows that changed the record they matched."""
        return self.counts["updated"]

    @property
    def unchanged(self) -> int:
        """Rows that matched a record and left it as it was (skipped, or equal)."""
        return self.counts["unchanged"]

    @property
    def refused(self) -> int:
        """Rows that were not imported, each with its reason in ``refusals``."""
        return self.counts["refused"]

    @property
    def refusals(self) -> tuple[RowOutcome, ...]:
        """The refused rows, in file order."""
        return tuple(row for row in self.rows if row.outcome == "refused")

    @property
    def ids(self) -> tuple[int, ...]:
        """The ids of the records created or updated, in file order."""
        return tuple(
            row.record_id
            for row in self.rows
            if row.record_id is not None and row.outcome in ("created", "updated")
        )

    def summary(self) -> str:
        """``created 120, updated 0, unchanged 3, refused 2``: the line every import ends
        with, and nothing else on it, so a script can read the counts from the last line.
        What qualifies them (a dry run, nothing written) is ``explanation()``."""
        return ", ".join(f"{outcome} {n}" for outcome, n in self.counts.items())

    def explanation(self) -> str:
        """Why the counts did not all happen, on the line before the summary: a dry run
        wrote nothing; a stopped import wrote nothing and held its good rows back. Empty when
        the counts are what was written. ``partial=True`` is named only when it would write
        something: a stopped import whose other rows are all unchanged holds nothing back."""
        waiting = (
            f": {self.held_back} good rows wait for partial=True (--partial)"
            if self.held_back
            else ""
        )
        if self.dry_run and self.stopped:
            return f"dry run: nothing written; the import would write nothing either{waiting}"
        if self.dry_run:
            return "dry run: nothing written; the counts are what the import would do"
        if self.stopped:
            return f"nothing written{waiting}"
        return ""

    def lines(self) -> list[str]:
        """One line per refused row, then the note and the explanation (if any), then the
        summary, always last."""
        found = [row.line() for row in self.refusals]
        return [*found, *(line for line in (self.note, self.explanation()) if line), self.summary()]

    def __repr__(self) -> str:
        explained = "; ".join(part for part in (self.summary(), self.explanation()) if part)
        return f"<ImportReport {self.kind}s: {explained}>"

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the counts, then each refused row."""
        head = "".join(f"<th>{outcome}</th>" for outcome in _OUTCOMES)
        cells = "".join(f"<td>{n}</td>" for n in self.counts.values())
        refused = "".join(
            f"<tr><td>{html.escape(row.where)}</td><td>{html.escape(row.reason)}</td></tr>"
            for row in self.refusals
        )
        title = self.explanation() or f"import of {self.kind}s"
        table = f"<table><caption>{html.escape(title)}</caption><tr>{head}</tr>"
        table += f"<tr>{cells}</tr></table>"
        if refused:
            table += f"<table><tr><th>row</th><th>refused because</th></tr>{refused}</table>"
        return table
