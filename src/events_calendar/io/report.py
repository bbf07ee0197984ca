"""What an import did (or, in a dry run, would do), row by row.

``ImportReport`` is what ``cal.import_file`` returns and what the CLI prints: one outcome per
row (created, updated, unchanged or refused, with the row's place in its file and, when
refused, the reason), the counts, and ``summary()``, the one line that closes every import.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Literal

import attrs

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
        """The row as one line of a report: ``line 12: refused: ...``."""
        tail = f": {self.reason}" if self.reason else ""
        return f"{self.where}: {self.outcome}{tail}"


@attrs.frozen
class ImportReport:
    """The outcome of every row of an import, in file order.

    ``dry_run`` reports say what an import would do; nothing was written. ``written`` is
    false when nothing was written: a dry run, or an atomic import that refused a row (its
    good rows then keep the outcome they would have had, and count as ``held_back``).
    """

    kind: str
    rows: tuple[RowOutcome, ...] = ()
    dry_run: bool = False
    written: bool = True
    note: str = ""

    @property
    def counts(self) -> dict[Outcome, int]:
        """How many rows had each outcome (every outcome present, zero or not). When an
        atomic import wrote nothing, nothing was created or updated: see ``held_back``."""
        found = Counter(row.outcome for row in self.rows)
        if not self.written and not self.dry_run:
            found["created"] = found["updated"] = 0
        return {outcome: found[outcome] for outcome in _OUTCOMES}

    @property
    def held_back(self) -> int:
        """Good rows an atomic import did not write because another row was refused (they
        would be created or updated with ``partial=True``)."""
        if self.written or self.dry_run:
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
        """``created 120, updated 0, unchanged 3, refused 2``: the line an import ends with.
        A dry run says so; an atomic import stopped by a refused row says nothing was
        written."""
        counts = ", ".join(f"{outcome} {n}" for outcome, n in self.counts.items())
        if self.dry_run:
            return f"dry run: would have {counts}; nothing written"
        if not self.written:
            return (
                f"{counts}; nothing written: {self.held_back} good rows wait for "
                "partial=True (--partial)"
            )
        return counts

    def lines(self) -> list[str]:
        """One line per refused row, then the note (if any), then the summary."""
        found = [row.line() for row in self.refusals]
        return [*found, *([self.note] if self.note else []), self.summary()]

    def __repr__(self) -> str:
        return f"<ImportReport {self.kind}s: {self.summary()}>"

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the counts, then each refused row."""
        head = "".join(f"<th>{outcome}</th>" for outcome in _OUTCOMES)
        cells = "".join(f"<td>{n}</td>" for n in self.counts.values())
        refused = "".join(
            f"<tr><td>{html.escape(row.where)}</td><td>{html.escape(row.reason)}</td></tr>"
            for row in self.refusals
        )
        title = "dry run, nothing written" if self.dry_run else f"import of {self.kind}s"
        table = f"<table><caption>{html.escape(title)}</caption><tr>{head}</tr>"
        table += f"<tr>{cells}</tr></table>"
        if refused:
            table += f"<table><tr><th>row</th><th>refused because</th></tr>{refused}</table>"
        return table
