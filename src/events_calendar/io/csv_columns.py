"""The CSV layout of the reference's importer: which columns each kind has, and how a
header names one.

A header names a column ignoring case, spacing and punctuation, and a leading word naming the
kind being imported ("Event", "Venue", "Organizer", with or without a space after it):
``START DATE``, ``Event Start Date``, ``EventStartDate`` and ``start_date`` are one column.
Each column also answers to its id (the name ``--map`` targets) and a few aliases. The
export writes each column's ``header``, so an export imports again as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from ..errors import InvalidParameter
from .rows import ImportKind

__all__ = ["COLUMNS", "Column", "Layout", "layout", "named", "normalize"]


@attrs.frozen
class Column:
    """One column: its id, the reference's header for it, and other names it answers to."""

    id: str
    header: str
    aliases: tuple[str, ...] = ()


def _columns(*specs: tuple[str, str] | tuple[str, str, tuple[str, ...]]) -> tuple[Column, ...]:
    return tuple(Column(*spec) for spec in specs)


COLUMNS: dict[ImportKind, tuple[Column, ...]] = {
    "event": _columns(
        ("title", "Event Name", ("title",)),
        ("description", "Event Description", ("content",)),
        ("excerpt", "Event Excerpt"),
        ("start_date", "Event Start Date"),
        ("start_time", "Event Start Time"),
        ("end_date", "Event End Date"),
        ("end_time", "Event End Time"),
        ("all_day", "All Day Event", ("all day",)),
        ("timezone", "Event Timezone", ("time zone",)),
        ("hide_from_listings", "Hide Event From Event Listings", ("hide",)),
        ("sticky", "Event Sticky in Month View", ("sticky",)),
        ("featured", "Feature Event", ("featured",)),
        ("venue", "Event Venue Name", ("venue name",)),
        (
            "organizer",
            "Event Organizer Name(s) or ID(s)",
            ("organizer name", "organizers", "organizer names", "organizer ids"),
        ),
        ("show_map_link", "Event Show Map Link"),
        ("show_map", "Event Show Map"),
        ("cost", "Event Cost"),
        ("currency_symbol", "Event Currency Symbol"),
        ("currency_code", "Event Currency Code"),
        ("currency_position", "Event Currency Position"),
        ("categories", "Event Category", ("categories",)),
        ("tags", "Event Tags", ("tag",)),
        ("website", "Event Website", ("url",)),
        ("status", "Event Status"),
    ),
    "venue": _columns(
        ("venue", "Venue Name", ("name",)),
        ("description", "Venue Description"),
        ("country", "Venue Country"),
        ("address", "Venue Address"),
        ("address2", "Venue Address 2"),
        ("city", "Venue City"),
        ("stateprovince", "Venue State/Province", ("state", "province")),
        ("zip", "Venue Zip", ("postal code", "postcode")),
        ("phone", "Venue Phone"),
        ("website", "Venue Website", ("url",)),
        ("status", "Venue Status"),
    ),
    "organizer": _columns(
        ("organizer", "Organizer Name", ("name",)),
        ("description", "Organizer Description"),
        ("email", "Organizer Email"),
        ("website", "Organizer Website", ("url",)),
        ("phone", "Organizer Phone"),
        ("status", "Organizer Status"),
    ),
}

_PUNCTUATION = re.compile(r"[^0-9a-z]+")


def normalize(header: str, kind: ImportKind) -> str:
    """A header as it is compared: lower case, letters and digits, no leading kind word.

    The kind word goes whether a separator follows it or not (``EventStartDate`` is
    ``Event Start Date``), unless it is the whole header (``Venue``, in a venue file, is the
    venue's own column by its id). Every name a column answers to goes through the same
    function, so ``Event Venue Name`` (``venuename``) still names the venue of an event.
    """
    joined = _PUNCTUATION.sub("", header.lower())
    rest = joined.removeprefix(kind)
    return rest or joined


@attrs.frozen
class Layout:
    """How one file's headers map to columns: ``columns[i]`` is the id of the column at
    position ``i`` (``None``: ignored), ``unknown`` the headers that named nothing,
    ``repeated`` those that named a column an earlier header had named."""

    columns: tuple[str | None, ...]
    unknown: tuple[str, ...]
    key: int | None = None
    repeated: tuple[str, ...] = ()


def _names(kind: ImportKind) -> dict[str, str]:
    names: dict[str, str] = {}
    for column in COLUMNS[kind]:
        for name in (column.id, column.header, *column.aliases):
            names.setdefault(normalize(name, kind), column.id)
    return names


def named(
    header: list[str],
    kind: ImportKind,
    *,
    mapping: Mapping[str, str] | None = None,
    key: str | None = None,
) -> int:
    """How many of ``header``'s cells name a column of ``kind`` (or a column ``mapping`` or
    ``key`` names): how well a way of splitting a header row into cells reads it."""
    names = _names(kind)
    given = {normalize(name, kind) for name in (*(mapping or {}), *([key] if key else []))}
    return sum(1 for cell in header if (name := normalize(cell, kind)) in names or name in given)


def layout(
    header: list[str],
    kind: ImportKind,
    *,
    mapping: Mapping[str, str] | None = None,
    key: str | None = None,
) -> Layout:
    """Match a file's header row to the columns of ``kind``.

    ``mapping`` maps a file's header to a column (its id or any name it answers to), for
    layouts other than the reference's; ``key`` names the column holding each row's import
    key (it need not be a known column).
    """
    names = _names(kind)
    mapped: dict[str, str] = {}
    for source, target in (mapping or {}).items():
        column = names.get(normalize(target, kind))
        if column is None:
            ids = ", ".join(c.id for c in COLUMNS[kind])
            raise InvalidParameter.one(
                "map", f"{target!r} (for {source!r}) is no {kind} column; use one of {ids}"
            )
        mapped[normalize(source, kind)] = column
    found: list[str | None] = []
    unknown: list[str] = []
    repeated: list[str] = []
    key_at: int | None = None
    for position, cell in enumerate(header):
        name = normalize(cell, kind)
        if key is not None and name == normalize(key, kind):
            key_at = position
        column = mapped.get(name) or names.get(name)
        if column is None or column in found:
            found.append(None)
            if key_at != position and cell.strip():
                (unknown if column is None else repeated).append(cell.strip())
        else:
            found.append(column)
    if key is not None and key_at is None:
        raise InvalidParameter.one("key", f"the file has no column {key!r}")
    absent = [
        source
        for source in (mapping or {})
        if normalize(source, kind) not in {normalize(cell, kind) for cell in header}
    ]
    if absent:  # a mapping that reads nothing: a typo, or the wrong file
        columns = ", ".join(repr(source) for source in absent)
        raise InvalidParameter.one("map", f"the file has no column {columns}")
    return Layout(tuple(found), tuple(unknown), key_at, tuple(repeated))
