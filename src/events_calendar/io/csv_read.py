"""Reading CSV files in the layout of the reference's importer into ``SourceRow``s.

The file is read a line at a time, so memory stays bounded by one row whatever its size, and
each line is checked before the CSV parser sees it: a line longer than ``max_line`` bytes, a
NUL byte (a binary file) or bytes that are not UTF-8 make the file unreadable, with one
sentence naming the line. A quoted field left open at the end (a truncated file) does too,
and so does a cell longer than ``MAX_CELL`` characters across its lines.

Cells are separated by commas, semicolons (as spreadsheets write CSV in the locales whose
decimal separator is a comma: Excel in French or German) or tabs: the separator is the one
that splits the header row into the most columns of the kind, commas when none does better.
A row whose cells cannot be read becomes a refused row naming each bad cell by its header.

Dates and the reference's rule for a missing end (``Tribe__Events__Importer__File_Importer_
Events::get_event_end_date``): a missing start time is midnight; a missing end date is the
start's date; a missing end time is the start's time when the end date is missing too, else
midnight on the end date; an end that the filling put before the start is the start. An end
given in full (date and time) before the start is refused, as ``create`` refuses it.
"""

from __future__ import annotations

import codecs
import csv
import functools
import itertools
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, tzinfo
from typing import IO, Any

import attrs

from ..dates import format_wall, on_wall_clock, repeat_offset, resolve_zone, zone_name
from ..errors import InvalidParameter
from ..statuses import Status
from .csv_cells import unguard
from .csv_columns import COLUMNS, Layout, layout, named, normalize
from .keys import column_key, title_start_key
from .rows import (
    IMPORT_STATUSES,
    MAX_CELL,
    MAX_LINE,
    NOT_TRASH,
    IdOrName,
    ImportKind,
    SourceRow,
    UnreadableFile,
    refuse_utf16,
)
from .values import BadValue, read_bool, read_list, read_moment, read_time

#: Date and time cells repeat down a season's rows (every event of a day, every 20:00):
#: each distinct text is read once. Both readers are pure; a refused text is read again.
_read_moment = functools.lru_cache(maxsize=4096)(read_moment)
_read_time = functools.lru_cache(maxsize=4096)(read_time)

__all__ = ["IDS", "CsvFile", "default_key", "read_csv"]

_BOOLEANS = ("all_day", "hide_from_listings", "sticky", "featured", "show_map_link", "show_map")
_TEXTS: dict[ImportKind, tuple[str, ...]] = {
    "event": ("title", "description", "excerpt", "timezone", "website", "status"),
    "venue": (
        "venue",
        "description",
        "country",
        "city",
        "stateprovince",
        "zip",
        "phone",
        "website",
        "status",
    ),
    "organizer": ("organizer", "description", "email", "website", "phone", "status"),
}
#: Organizer ids as a cell gives them: numbers separated by spaces or commas.
IDS = re.compile(r"[0-9]+(?:[\s,]+[0-9]+)*")
#: One item of an organizer cell that may be an id (ASCII digits: ``²`` is a name).
_NUMBER = re.compile(r"[0-9]+")
_SUFFIX_POSITIONS = frozenset({"suffix", "postfix", "after"})
_STATE_COUNTRIES = frozenset({"", "us", "usa", "united states", "united states of america"})


@attrs.frozen
class CsvFile:
    """A CSV file whose header was read: its ``layout``, and its rows, read on demand."""

    layout: Layout
    rows: Iterator[SourceRow]

    @property
    def ignored(self) -> tuple[str, ...]:
        """Headers that named no column: reported, and their cells ignored."""
        return self.layout.unknown

    @property
    def repeated(self) -> tuple[str, ...]:
        """Headers naming a column an earlier header names: reported, and their cells
        ignored (the first column of a field is the one read)."""
        return self.layout.repeated


def read_csv(
    stream: IO[bytes],
    *,
    where: str,
    kind: ImportKind = "event",
    mapping: Mapping[str, str] | None = None,
    key: str | None = None,
    max_line: int = MAX_LINE,
    status_given: bool = False,
    zone: tzinfo = UTC,
) -> CsvFile:
    """Read the header of a CSV file of ``kind`` records; rows follow lazily.

    A status cell that is no status an import gives (``trash`` included: an import does not
    put records in the trash) refuses its row, unless ``status_given``: the import's
    ``status=`` then wins over the column. ``zone`` is the zone of events without an
    ``Event Timezone`` cell (the calendar's), in which a time's UTC offset is checked.

    Raises ``UnreadableFile`` for a file with no header or no column of the kind's name.
    """
    lines = _lines(stream, where, max_line)
    first = next(lines, None)
    delimiter = "," if first is None else _delimiter(first, kind, mapping, key)
    reader = csv.reader(
        itertools.chain([] if first is None else [first], lines), delimiter=delimiter, strict=True
    )
    try:
        with _cell_limit():
            header = next(reader, None)
    except csv.Error as error:
        raise UnreadableFile(where, f"line 1 is not CSV: {error}") from None
    if header is None or not any(cell.strip() for cell in header):
        raise UnreadableFile(where, "the file is empty; a CSV import needs a header row first")
    found = layout(header, kind, mapping=mapping, key=key)
    name = COLUMNS[kind][0]
    if name.id not in found.columns:
        raise UnreadableFile(
            where,
            f"no header row: no column names the {kind} ({name.header!r}); the first row "
            f"reads {', '.join(repr(c) for c in header[:4])}",
        )
    fields_of = functools.partial(_event, zone=zone) if kind == "event" else _FIELDS[kind]
    return CsvFile(found, _rows(reader, found, (kind, fields_of), where, key, status_given))


#: The separators a CSV file's cells may have, the first one preferred in a tie.
_DELIMITERS = (",", ";", "\t")


def _delimiter(
    line: str, kind: ImportKind, mapping: Mapping[str, str] | None, key: str | None
) -> str:
    """The separator that splits the header ``line`` into the most columns of ``kind``:
    a comma unless a semicolon or tab names more (a header of one column is read with
    commas). The line is the file's first; a header cell quoted across lines is cut short
    here, which costs that cell only."""
    best, score = _DELIMITERS[0], -1
    for delimiter in _DELIMITERS:
        try:
            with _cell_limit():
                cells = next(csv.reader([line], delimiter=delimiter), [])
        except csv.Error:
            continue
        found = named(cells, kind, mapping=mapping, key=key)
        if found > score:
            best, score = delimiter, found
    return best


@contextmanager
def _cell_limit() -> Iterator[None]:
    """The csv module's cell limit raised to ``MAX_CELL`` while a row is read, and put back.

    The limit is the module's, for the whole process, and its default (128 KiB) would make
    a file holding one longer cell unreadable, the calendar's own export of a long
    description included. It is raised around each read only, so the process's other CSV
    readers keep the limit they had; a limit set higher already is kept.
    """
    before = csv.field_size_limit()
    csv.field_size_limit(max(before, MAX_CELL))
    try:
        yield
    finally:
        csv.field_size_limit(before)


def _lines(stream: IO[bytes], where: str, max_line: int) -> Iterator[str]:
    number = 0
    while True:
        raw = stream.readline(max_line + 1)
        if not raw:
            return
        number += 1
        if number == 1:
            refuse_utf16(raw, where)
        if len(raw) > max_line:
            raise UnreadableFile(
                where, f"line {number} is longer than {max_line:,} bytes; this is no CSV file"
            )
        if b"\0" in raw:
            raise UnreadableFile(where, f"line {number} holds binary data (a NUL byte), not text")
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UnreadableFile(
                where,
                f"line {number} is not UTF-8 text (byte 0x{raw[error.start]:02x}); "
                "save the file as UTF-8 CSV",
            ) from None


def _rows(
    reader: Any,
    found: Layout,
    of: tuple[ImportKind, Any],
    where: str,
    key: str | None,
    status_given: bool,
) -> Iterator[SourceRow]:
    """The rows of ``of``'s kind, each read by ``of``'s reader of fields."""
    kind, fields_of = of
    headers = {c.id: c.header for c in COLUMNS[kind]}
    line = reader.line_num + 1
    while True:
        try:
            with _cell_limit():
                cells = next(reader, None)
        except csv.Error as error:
            hint = " (a quoted cell is never closed: is the file truncated?)"
            hint = hint if "end of data" in str(error) else ""
            raise UnreadableFile(where, f"line {line}: {error}{hint}") from None
        if cells is None:
            return
        here, line = f"line {line}", reader.line_num + 1
        if not any(cell.strip() for cell in cells):
            continue  # a blank line, as spreadsheets leave at the end
        values = {
            column: unguard(cell.strip())  # an export's guard against formulas, taken off
            for column, cell in zip(found.columns, cells, strict=False)
            if column is not None
        }
        row_key: str | None = None
        former: tuple[str, ...] = ()
        if found.key is not None:
            value = unguard(cells[found.key].strip()) if found.key < len(cells) else ""
            if not value:
                yield SourceRow(here, kind, refused=f"{key}: the key column is empty")
                continue
            row_key, former = _column_keys(key or "", kind, value)
        problems: dict[str, str] = {}
        fields = fields_of(values, problems)
        if not status_given and values.get("status"):
            _status(values["status"], problems)
        if problems:
            reason = "; ".join(f"{headers[c]}: {why}" for c, why in problems.items())
            yield SourceRow(here, kind, refused=reason)
        else:
            yield SourceRow(here, kind, fields, key=row_key, one_of=_ONE_VENUE, former_keys=former)


def _status(text: str, problems: dict[str, str]) -> None:
    """A status cell's problem, if any: ``trash`` (an import does not put records in the
    trash) or no status at all."""
    if text in IMPORT_STATUSES:
        return
    choices = f"write {', '.join(IMPORT_STATUSES[:-1])} or {IMPORT_STATUSES[-1]}"
    if text.lower() == Status.TRASH:
        problems["status"] = f"{text!r} {NOT_TRASH}; {choices}"
    else:
        problems["status"] = f"{text!r} is not a status; {choices}"


def _column_keys(column: str, kind: ImportKind, value: str) -> tuple[str, tuple[str, ...]]:
    """A row's key for a key column's ``value``, and the former form it may be stored in.

    The column is named as headers are matched (``csv_columns.normalize``: ``ID``, ``id``
    and ``Event ID`` are one column), so a key column spelt another way finds the same
    records. Earlier versions stored the name as typed (``csv:ID:7``): that form is the
    former key, so a file imported before is still found when imported with that spelling.
    """
    current = column_key(normalize(column, kind), value)
    typed = column_key(column, value)
    return current, (typed,) if typed != current else ()


def _texts(kind: ImportKind, values: Mapping[str, str]) -> dict[str, Any]:
    return {name: values[name] for name in _TEXTS[kind] if values.get(name)}


def _event(
    values: Mapping[str, str], problems: dict[str, str], *, zone: tzinfo = UTC
) -> dict[str, Any]:
    fields = _texts("event", values)
    if not values.get("title"):
        problems["title"] = "empty; every event needs a name"
    for name in _BOOLEANS:
        if name in values:
            fields[name] = _read(read_bool, values[name], name, problems)
    span = _span(values, problems, zone)
    if span is not None:
        fields["start_date"], fields["end_date"] = span
    if values.get("venue"):
        fields["venue"] = [{"venue": values["venue"]}]
    if values.get("organizer"):
        text = values["organizer"]
        items = re.split(r"[\s,]+", text) if IDS.fullmatch(text) else read_list(text)
        fields["organizer"] = [
            IdOrName(item) if _NUMBER.fullmatch(item) else {"organizer": item}
            for item in dict.fromkeys(items)
        ]
    for name in ("categories", "tags"):
        if values.get(name):
            fields[name] = read_list(values[name])
    cost = _cost(values)
    if cost:
        fields["cost"] = cost
    return fields


def _read(reader: Any, text: str, column: str, problems: dict[str, str]) -> Any:
    try:
        return reader(text)
    except BadValue as bad:
        problems[column] = str(bad)
        return None


def _span(
    values: Mapping[str, str], problems: dict[str, str], zone: tzinfo
) -> tuple[str, str] | None:
    """Start and end as ``YYYY-MM-DD HH:MM:SS``, the end filled as the module says; with the
    UTC offset of a time in the second pass of a repeated hour, which its cell gave."""
    if not values.get("start_date"):
        problems["start_date"] = "empty; every event needs a start date"
        return None
    start_day, start_time = _moment(values, "start_date", problems)
    end_day, end_time = _moment(values, "end_date", problems)
    start_time, start_cell = _time_of(values, ("start_date", "start_time"), start_time, problems)
    end_time, end_cell = _time_of(values, ("end_date", "end_time"), end_time, problems)
    if start_day is None or problems:
        return None
    start = datetime.combine(start_day, start_time or time())
    if end_day is None:
        end = datetime.combine(start_day, end_time or start.timetz())
    else:
        end = datetime.combine(end_day, end_time or time())
    if start.tzinfo is not None or end.tzinfo is not None:
        row_zone = _row_zone(values, zone)
        start = _on_clock(start, row_zone, values.get(start_cell, ""), start_cell, problems)
        if problems:
            return None
        end = _on_clock(end, row_zone, values.get(end_cell, ""), end_cell, problems)
        if problems:
            return None
    if _before(end, start) and (end_day is None or end_time is None):
        end = start  # the reference clamps an end it filled in
    return _wall(start), _wall(end)


def _time_of(
    values: Mapping[str, str],
    columns: tuple[str, str],
    in_date: time | None,
    problems: dict[str, str],
) -> tuple[time | None, str]:
    """The time of a start or end, and the column whose cell gave it (the one a problem
    with its UTC offset names): the time column's when it has one, else the time the date
    cell ended with (``in_date``).

    A date cell whose time carries a UTC offset names one moment; a time column naming
    another wall time or offset beside it leaves the row's time in doubt, so the row is
    refused rather than one of them silently dropped. The same wall time beside it agrees
    (the offset is the date cell's). A date cell's time without an offset is overruled by
    the time column, as it always was.
    """
    date_column, time_column = columns
    if not values.get(time_column):
        return in_date, date_column
    given: time | None = _read(_read_time, values[time_column], time_column, problems)
    if given is None or in_date is None or in_date.tzinfo is None:
        return given, time_column
    wall, offset = given.replace(tzinfo=None), given.utcoffset()
    if wall == in_date.replace(tzinfo=None) and offset in (None, in_date.utcoffset()):
        return in_date, date_column
    problems[time_column] = (
        f"{values[time_column]!r} is not the time the date cell gives "
        f"({values[date_column]!r}); write the time in one of the two cells, or the same "
        "time in both"
    )
    return None, time_column


def _row_zone(values: Mapping[str, str], zone: tzinfo) -> tzinfo | None:
    """The zone of a row's event: its ``Event Timezone`` cell, else the calendar's; ``None``
    for a cell no zone has (``create`` refuses the row for it)."""
    try:
        return resolve_zone(values["timezone"]) if values.get("timezone") else zone
    except InvalidParameter:
        return None


def _on_clock(
    moment: datetime, zone: tzinfo | None, cell: str, column: str, problems: dict[str, str]
) -> datetime:
    """A date and time whose cell gave a UTC offset, in the event's zone: of the (at most
    two) passes of that wall time, the one with that offset, or a problem naming the
    offsets that wall time has. A time without one is read as ``create`` reads it."""
    if zone is None:
        return moment
    offset = moment.utcoffset()
    wall = moment.replace(tzinfo=None)
    if offset is None:  # beside a time with an offset: its first pass, as ``create`` reads it
        return on_wall_clock(wall, zone)
    passes = [
        on_zone
        for on_zone in (wall.replace(tzinfo=zone, fold=fold) for fold in (0, 1))
        if on_zone.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall
    ]
    for on_zone in passes:
        if on_zone.utcoffset() == offset:
            return on_zone
    has = " or ".join(dict.fromkeys(on_zone.isoformat()[19:] for on_zone in passes))
    problems[column] = (
        f"{cell!r}: {zone_name(zone)} has no UTC offset {moment.isoformat()[19:]} at "
        f"{format_wall(wall)} ({f'its offset is {has}' if has else 'that time is skipped'});"
        " write the time without an offset, or with its own to name the second pass of a "
        "repeated hour"
    )
    return moment


def _before(end: datetime, start: datetime) -> bool:
    """Whether ``end`` is before ``start``: by instant when either is on a zone's clock."""
    if end.tzinfo is None or start.tzinfo is None:
        return end.replace(tzinfo=None) < start.replace(tzinfo=None)
    return end.astimezone(UTC) < start.astimezone(UTC)


def _moment(
    values: Mapping[str, str], column: str, problems: dict[str, str]
) -> tuple[date | None, time | None]:
    """A date cell (empty, or a date that may end with a time)."""
    if not values.get(column):
        return None, None
    found: tuple[date, time | None] | None = _read(_read_moment, values[column], column, problems)
    return found or (None, None)


def _wall(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS``, and the UTC offset of a second pass of a repeated hour."""
    return format_wall(moment) + (repeat_offset(moment) if moment.tzinfo is not None else "")


def _cost(values: Mapping[str, str]) -> str:
    """The cost text with its currency, as the calendar stores it (``$10``, ``10 EUR``)."""
    cost = values.get("cost", "")
    symbol = values.get("currency_symbol") or values.get("currency_code", "")
    if not cost or not symbol or symbol in cost:
        return cost
    position = values.get("currency_position", "").lower()
    if position in _SUFFIX_POSITIONS or symbol == values.get("currency_code"):
        spacer = " " if symbol.isalpha() else ""
        return f"{cost}{spacer}{symbol}"
    return f"{symbol}{cost}"


def _venue(values: Mapping[str, str], problems: dict[str, str]) -> dict[str, Any]:
    fields = _texts("venue", values)
    if not values.get("venue"):
        problems["venue"] = "empty; every venue needs a name"
    address = " ".join(v for v in (values.get("address"), values.get("address2")) if v)
    if address:
        fields["address"] = address
    region = values.get("stateprovince")
    if region:
        local = values.get("country", "").lower() in _STATE_COUNTRIES
        fields["state" if local else "province"] = region
    return fields


def _organizer(values: Mapping[str, str], problems: dict[str, str]) -> dict[str, Any]:
    if not values.get("organizer"):
        problems["organizer"] = "empty; every organizer needs a name"
    return _texts("organizer", values)


_FIELDS = {"event": _event, "venue": _venue, "organizer": _organizer}
#: An event row names one venue at most (``Event Venue Name``).
_ONE_VENUE = frozenset({"venue"})


def default_key(row: SourceRow) -> str | None:
    """The reference's match for a CSV row: an event's title and start (its date alone for
    an all-day event), a venue's or organizer's name."""
    fields = row.fields
    if row.kind != "event":
        name = fields.get(row.kind)
        return f"name:{name}" if name else None
    start = str(fields.get("start_date", ""))
    if fields.get("all_day"):
        start = start[:10] + " 00:00:00"
    return title_start_key(str(fields.get("title", "")), start)
