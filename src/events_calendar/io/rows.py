"""The seam between a file reader and the import engine.

A reader (CSV, iCalendar, JSON) knows its format and nothing of storage; it yields one
``SourceRow`` per record it found, in file order. The engine knows storage and nothing of
formats. A reader that cannot read the file at all (wrong encoding, truncated, binary, no
header) raises ``UnreadableFile`` with one sentence a person can act on.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Mapping
from typing import IO, Any, Literal

import attrs

from ..errors import CalendarError, InvalidParameter
from ..statuses import Status

__all__ = [
    "IMPORT_STATUSES",
    "MAX_CELL",
    "MAX_LINE",
    "IdOrName",
    "ImportKind",
    "SourceRow",
    "UnreadableFile",
    "one_line",
    "read_import_status",
    "refuse_utf16",
    "too_large",
]

#: The kinds a file can bring in.
ImportKind = Literal["event", "venue", "organizer"]
#: The longest line, in bytes with its line break, a CSV or iCalendar file may have: no row
#: of a spreadsheet nor a folded iCalendar line comes near it, and a reader that meets a
#: longer one (a binary file, a 2 GB line) refuses the file having read this much of it.
MAX_LINE = 1 << 20
#: The longest CSV cell, in characters, however many lines it spans (a quoted cell may hold
#: line breaks): a description of megabytes reads back, and a quoted cell left open does
#: not hold a whole file in memory.
MAX_CELL = 16 * MAX_LINE
#: The statuses an import gives records: every status but the trash. A record imported
#: into the trash would be found by no later import (a key matches live records only), so
#: each run would put another copy there; a record is trashed by deleting it.
IMPORT_STATUSES: tuple[str, ...] = tuple(s.value for s in Status if s is not Status.TRASH)
#: Why ``trash`` is refused, for ``status=`` and for a status column's cell.
NOT_TRASH = (
    "is not a status an import gives (a later import would not find a record put in the "
    "trash, and would add another copy)"
)


def read_import_status(status: str) -> None:
    """``InvalidParameter`` naming ``status`` unless it is a status an import gives (one of
    ``IMPORT_STATUSES``): ``trash`` is refused with its own reason."""
    choices = ", ".join(IMPORT_STATUSES)
    try:
        found = Status(status)
    except ValueError:
        raise InvalidParameter.one("status", f"send one of {choices}") from None
    if found is Status.TRASH:
        raise InvalidParameter.one("status", f"'trash' {NOT_TRASH}; send one of {choices}")


@attrs.frozen
class IdOrName:
    """A linked venue or organizer a file gives as a number (``3`` in ``3, Bob``): the
    record with that id when one exists that the importer may read, else the one of that
    name, found or created, as the reference's importer reads each item. A reader knows no
    storage, so it cannot tell; the engine decides before it matches any row."""

    text: str


@attrs.frozen
class SourceRow:
    """One record a reader found, as keyword arguments of the matching ``create``.

    ``where`` names the row in reports (``"line 12"``, ``"UID 1234@example.com"``). ``fields``
    holds what ``cal.events.create(**fields)`` (or ``venues``/``organizers``) takes: linked
    venues and organizers may be given inline by name (``{"venue": "Town Hall"}``) or as an
    ``IdOrName``, categories and tags by name. ``key`` is the row's identity for an
    idempotent re-import (an iCalendar UID, a CSV key column), or ``None`` to let the engine
    apply the format's default key. ``refused`` is set, with the reason, for a row the
    reader found but could not read; the engine reports it and, unless the import is
    partial, writes nothing. ``one_of`` names the links (``venue``, ``organizer``) the
    format holds one of at most: such a link that is already one of the record's leaves its
    others as they are, since the file could not have listed them. ``keeps_status`` is set
    for a row whose status the file gives as one never shown publicly (a cancelled VEVENT's
    ``draft``): an import's ``status=`` does not override it, or ``status="publish"`` would
    publish what its source called off. ``former_keys`` are other spellings of ``key`` that
    an earlier version stored (a CSV key column under its name as typed): a row ``key`` does
    not find is found by them, and its key is then stored in the current form too.
    """

    where: str
    kind: ImportKind
    fields: Mapping[str, Any] = attrs.field(factory=dict)
    key: str | None = None
    refused: str | None = None
    one_of: frozenset[str] = frozenset()
    keeps_status: bool = False
    former_keys: tuple[str, ...] = ()


class UnreadableFile(CalendarError, ValueError):
    """A file that is not in the format it claims (or no format at all), or a backup that
    holds what no calendar can (``io.backup_checks``): nothing imported."""

    code = "unreadable_file"

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}", data={"path": path})
        self.path = path
        self.why = why


#: What would break a report's line: control characters and Unicode's line and paragraph
#: separators (``str.splitlines`` splits at each).
_LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with each control character or line separator written as Python escapes it
    (``\\n``, ``\\x85``, ``\\u2028``): what a file holds (a UID with an escaped newline, a
    cell) stays on the one line a report gives each row."""
    return _LINE_BREAKING.sub(lambda found: repr(found.group())[1:-1], text)


#: Byte order marks of the UTF-32 and UTF-16 encodings (UTF-32's first: FF FE 00 00 also
#: begins with UTF-16's FF FE).
_WIDE_BOMS = (
    ("UTF-32", (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)),
    ("UTF-16", (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)),
)


def refuse_utf16(head: bytes, where: str) -> None:
    """Raise ``UnreadableFile`` when a file begins with a UTF-16 (or UTF-32) byte order mark.

    Every format read here is UTF-8. Windows tools save "Unicode" text as UTF-16, whose
    every other byte of ASCII is NUL: without this, such a file would be called binary,
    which sends its owner looking for the wrong problem.
    """
    for name, marks in _WIDE_BOMS:
        if head.startswith(marks):
            raise UnreadableFile(
                where, f"it is {name} text, not UTF-8; save it as UTF-8 and import it again"
            )


def too_large(stream: IO[bytes], where: str, why: str) -> UnreadableFile:
    """The error for a file that ran out of memory being read (``why``: that its format is
    read whole), with its size when the stream is a file: the machine's memory is the
    bound, so no fixed size is refused beforehand."""
    try:
        size = f" ({os.fstat(stream.fileno()).st_size:,} bytes)"
    except (OSError, ValueError, AttributeError):
        size = ""
    return UnreadableFile(where, f"it is too large to read into memory{size}; {why}")
