"""Reading loosely typed input the way the reference reads it.

HTTP clients send everything as text (``"1"``, ``"true"``, ``"3,4"``), Python callers send real
types. These helpers accept both, so the calendar can take a query string's values unchanged and
the HTTP adapter needs no rules of its own. Each returns ``None`` when the value cannot be read;
the caller turns that into an ``InvalidParameter`` naming its field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "MAX_INT",
    "NON_BLANK_TEXT",
    "TEXT",
    "as_bool",
    "as_id_list",
    "as_int",
    "as_list",
    "clean_text",
    "is_truthy",
]

#: The largest integer every backend stores (a signed 64-bit integer): ids, pages and counts
#: past it name nothing, and are read as "not a number" rather than overflowing a database.
MAX_INT = 2**63 - 1

_TRUE = frozenset({"1", "true", "yes", "on", "y"})
_FALSE = frozenset({"0", "false", "no", "off", "n", ""})


def as_bool(value: object) -> bool | None:
    """A boolean from a bool, 0/1, or the strings WordPress's REST layer accepts."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return None


def is_truthy(value: object) -> bool:
    """The reference's ``tribe_is_truthy``: anything not recognisably false is true."""
    if value is None:
        return False
    read = as_bool(value)
    return read if read is not None else bool(value)


def as_int(value: object) -> int | None:
    """An integer from an int or a string of digits (with an optional sign)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -MAX_INT <= value <= MAX_INT else None
    if isinstance(value, str):
        text = value.strip()
        digits = text.lstrip("+-")
        if digits.isdigit() and len(digits) <= 19:  # longer cannot fit, and int() is slow
            return as_int(int(text))
    return None


#: Text ``clean_text`` accepts, as a pattern (what ``/doc`` states): no NUL character. (Lone
#: surrogates, the other refusal, cannot be written in a URL, a form or valid UTF-8.)
TEXT = re.compile(r"^[^\x00]*$")
#: Text with something besides whitespace and without NUL: a name, a search, a sort key.
NON_BLANK_TEXT = re.compile(r"^[^\x00]*[^\s\x00][^\x00]*$")


def clean_text(value: str) -> bool:
    """Whether ``value`` is text every backend can store and every client can read: UTF-8
    encodable (no lone surrogates from a JSON ``"\\ud800"``) and without NUL characters."""
    if not TEXT.match(value):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def as_list(value: object) -> list[object] | None:
    """A list from a sequence, or from a comma-separated string; ``None`` stays ``None``."""
    if value is None:
        return None
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [value]
    if isinstance(value, Sequence | set | frozenset):
        items: list[object] = []
        for item in value:
            items.extend(as_list(item) or [] if isinstance(item, str) else [item])
        return items
    return None


def as_id_list(value: object) -> list[int] | None:
    """A list of positive ids from a sequence or CSV; ``None`` when any item is not an id."""
    items = as_list(value)
    if items is None:
        return None
    ids = [as_int(item) for item in items]
    if any(i is None or i < 0 for i in ids):
        return None
    return [i for i in ids if i is not None]
