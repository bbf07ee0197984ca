"""iCalendar (RFC 5545) files: the reader and writer the import engine and the feed call.

``read_file`` reads an .ics file's bytes, refusing a line too long for one, and ``read_rows``
turns them into import rows (``ical_read``); ``write_events`` turns events
into an .ics file (``ical_write``), and ``write_calendar`` streams batches of them to one.
Both need the ``io`` extra (``icalendar``, ``recurring-ical-events``); import this module
only where a file is read or written.
"""

from __future__ import annotations

from .ical_read import MAX_OCCURRENCES, count_vevents, read_file, read_rows
from .ical_write import event_uid, write_calendar, write_events

__all__ = [
    "MAX_OCCURRENCES",
    "count_vevents",
    "event_uid",
    "read_file",
    "read_rows",
    "write_calendar",
    "write_events",
]
