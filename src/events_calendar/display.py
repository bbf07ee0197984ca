"""How records and pages look in a notebook: short ``repr``s and ``_repr_html_`` tables.

Jupyter shows an object's ``_repr_html_`` when a cell ends with it. A page is a table with one
row per record (its id, name and a few telling fields); a record is a two-column table of its
fields and values. A password is never shown, only whether there is one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from enum import Enum
from html import escape
from typing import Any

import attrs

__all__ = ["PLURALS", "page_table", "plural", "record_table"]

#: The word for many records of each kind.
PLURALS: dict[str, str] = {
    "event": "events",
    "venue": "venues",
    "organizer": "organizers",
    "category": "categories",
    "tag": "tags",
}

#: The columns a page table shows for each kind, after the id and name.
_PAGE_COLUMNS: dict[str, tuple[str, ...]] = {
    "event": ("start_date", "end_date", "status", "venue"),
    "venue": ("city", "country", "status"),
    "organizer": ("email", "phone", "status"),
    "category": ("slug", "parent", "count"),
    "tag": ("slug", "count"),
}

#: Fields whose value is a secret: a table says only whether one is set.
_SECRET = frozenset({"password"})


def plural(kind: str) -> str:
    """``events`` for ``event``, and so on; a record's kind is its singular."""
    return PLURALS.get(kind, kind + "s")


def _text(value: Any) -> str:
    """A value as a table cell shows it (escaped)."""
    if isinstance(value, datetime):
        shown = value.isoformat(sep=" ")
    elif isinstance(value, Enum):
        shown = str(value.value)
    elif isinstance(value, tuple | list):
        shown = ", ".join(str(item) for item in value)
    else:
        shown = str(value)
    return escape(shown)


def _cell(name: str, value: Any) -> str:
    if name in _SECRET:
        return "(set)" if value else ""
    return _text(value)


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def record_table(record: Any) -> str:
    """A record as a two-column HTML table: each field and its value."""
    rows = [
        (escape(field.name), _cell(field.name, getattr(record, field.name)))
        for field in attrs.fields(type(record))
    ]
    return _table(("field", "value"), rows, caption=f"{record.kind} {record.id}")


def page_table(items: Sequence[Any], kind: str, caption: str) -> str:
    """A page as an HTML table: one row per record, its id, name and a few fields."""
    columns = _PAGE_COLUMNS.get(kind, ())
    rows = [
        (
            _text(item.id),
            _text(item.name),
            *(_cell(c, getattr(item, c, "")) for c in columns),
        )
        for item in items
    ]
    return _table(("id", "name", *columns), rows, caption=caption)
