"""Moving calendars in and out: CSV, iCalendar and JSON backups (``events_calendar.io``).

Readers turn a file into ``SourceRow`` objects; one import engine turns those rows into
records, so the import rules (keys, conflicts, dry runs, atomicity, reports) are written once
for every format.
"""

from __future__ import annotations

from .report import ImportReport, RowOutcome
from .rows import SourceRow, UnreadableFile

__all__ = ["ImportReport", "RowOutcome", "SourceRow", "UnreadableFile"]
