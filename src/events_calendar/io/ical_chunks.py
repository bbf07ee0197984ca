"""Cutting an .ics file into calendars of a few thousand whole events, parsed one at a time.

``icalendar`` parses a file into a tree of Python objects about 25 times its size (846 MiB
for a 33 MB file of 100,000 events), so a whole-file parse bounds the files an import can
take by memory. Each chunk is a VCALENDAR of its own: the file's calendar properties and
VTIMEZONEs, then consecutive VEVENTs (with what they nest, such as VALARMs). A chunk ends
only where every UID met so far has had its last VEVENT, so a series and its overrides
(``RECURRENCE-ID``) are read together, and the chunks' rows come in the file's order.

The lines are cut as ``icalendar`` cuts them (its own unfolding and line-break patterns), so a
chunk parses to what the same lines gave in the whole file. A file this does not fully
understand (lines outside a VCALENDAR, BEGIN/END lines with parameters or that do not pair
up, components other than VEVENT and VTIMEZONE) is not cut (``None``): it is parsed whole,
as before, so its errors and oddities stay the parser's.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from icalendar.parser.content_line import NEWLINE, UFOLD

__all__ = ["CHUNK_EVENTS", "Chunk", "chunks"]

#: VEVENTs a chunk holds at least (more when a UID's VEVENTs run on).
CHUNK_EVENTS = 2000
#: First letters of BEGIN and END lines.
_MARKS = frozenset("BbEe")


@attrs.frozen
class Chunk:
    """One VCALENDAR's text, and the number (from 1, in its calendar) of its first VEVENT."""

    text: str
    first_number: int


@attrs.define
class _Calendar:
    head: list[str] = attrs.Factory(list)  # BEGIN:VCALENDAR, properties, VTIMEZONEs
    events: list[list[str]] = attrs.Factory(list)


def chunks(text: str) -> list[Iterator[Chunk]] | None:
    """The chunks of each VCALENDAR of ``text``, in order; ``None`` for a file to parse
    whole (see the module's docstring)."""
    calendars = _calendars(text)
    if calendars is None:
        return None
    return [_cut(calendar) for calendar in calendars]


def _calendars(text: str) -> list[_Calendar] | None:
    """The calendars of the file, their lines sorted into head and VEVENTs."""
    found: list[_Calendar] = []
    stack: list[str] = []
    target: list[str] = []
    for line in NEWLINE.split(UFOLD.sub("", text)):
        if line[:1] not in _MARKS:  # most lines: a property of what is open
            if not line:
                continue  # the parser skips empty lines too
            if not stack:
                return None
            target.append(line)
            continue
        marker = _marker(line)
        if marker is None:
            return None
        verb, name = marker
        if not stack:
            if (verb, name) != ("BEGIN", "VCALENDAR"):
                return None
            found.append(_Calendar())
            target = found[-1].head
        elif verb == "BEGIN" and len(stack) == 1:
            if name == "VEVENT":
                found[-1].events.append([])
                target = found[-1].events[-1]
            elif name == "VTIMEZONE":
                target = found[-1].head
            else:
                return None
        elif verb == "END" and stack[-1] != name:
            return None
        elif verb == "END" and len(stack) == 1:  # the calendar's own END: each chunk adds one
            stack.pop()
            continue
        if verb == "BEGIN":
            stack.append(name)
        target.append(line)
        if verb == "END":
            stack.pop()
            if len(stack) == 1:
                target = found[-1].head
    return found if not stack and found else None


def _marker(line: str) -> tuple[str, str] | None:
    """``("BEGIN", name)``, ``("END", name)``, ``("", "")`` for any other line; ``None`` for
    a BEGIN or END line this module does not read as the parser would (with parameters)."""
    head = line[:6].upper()
    for verb in ("BEGIN", "END"):
        if head.startswith(verb):
            rest = line[len(verb) :]
            if rest.startswith(":"):
                return verb, rest[1:].strip().upper()
            if rest[:1] in (";", " ", "\t"):
                return None
    return "", ""


def _uid(lines: list[str]) -> str:
    """A key for the UID of one VEVENT's lines: backslashes dropped and case folded, so two
    VEVENTs the parser gives one UID always share a key (sharing one by mistake only makes
    a chunk longer)."""
    depth = 0
    for line in lines:
        head = line[:6].upper()
        if head.startswith("BEGIN:"):
            depth += 1
        elif head.startswith("END:"):
            depth -= 1
        elif depth == 1 and head[:4] in ("UID:", "UID;"):
            return line.partition(":")[2].replace("\\", "").strip().casefold()
    return ""


def _cut(calendar: _Calendar) -> Iterator[Chunk]:
    """The chunks of one calendar, each ending where no UID it holds has a later VEVENT."""
    keys = [_uid(lines) for lines in calendar.events]
    last = {key: at for at, key in enumerate(keys) if key}
    head = "\r\n".join(calendar.head)
    start, end = 0, -1
    for at, key in enumerate(keys):
        end = max(end, last.get(key, at))
        if at == end and (at + 1 - start >= CHUNK_EVENTS or at + 1 == len(keys)):
            yield _chunk(head, calendar.events[start : at + 1], start)
            start = at + 1
    if not keys:
        yield _chunk(head, [], 0)


def _chunk(head: str, events: list[list[str]], start: int) -> Chunk:
    body = "".join("\r\n" + "\r\n".join(lines) for lines in events)
    return Chunk(f"{head}{body}\r\nEND:VCALENDAR\r\n", start + 1)
