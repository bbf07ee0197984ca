"""Reading loosely typed input the way the reference reads it.

HTTP clients send everything as text (``"1"``, ``"true"``, ``"3,4"``), Python callers send real
types. These helpers accept both, so the calendar can take a query string's values unchanged and
the HTTP adapter needs no rules of its own. Each returns ``None`` when the value cannot be read;
the caller turns that into an ``InvalidParameter`` naming its field.

Notebook callers send numpy and pandas values (``np.int64(3)``, ``pd.Timestamp``, ``NaN``).
``plain`` turns them into the Python values they stand for, once, where the calendar takes its
input (create and update fields, list filters, ids), so every reader here sees plain values.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any, TypeVar, cast

import attrs

__all__ = [
    "MAX_INT",
    "NON_BLANK_TEXT",
    "REST_BOOLEAN_WHY",
    "TEXT",
    "WholeText",
    "as_bool",
    "as_id_list",
    "as_int",
    "as_list",
    "as_rest_bool",
    "clean_text",
    "filter_bool",
    "is_truthy",
    "plain",
    "plain_fields",
    "plain_query",
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


def as_rest_bool(value: object) -> bool | None:
    """A boolean as WordPress's REST layer reads an argument typed ``boolean``
    (``rest_is_boolean``): a bool, 0 or 1, or the text ``true``, ``false``, ``1`` or ``0`` in
    any case; ``None`` for anything else (``yes``, ``on``, an empty text)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        return _REST_BOOLEANS.get(value.lower())
    return None


#: The texts ``rest_is_boolean`` accepts.
_REST_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}
#: Why a value is refused where the REST layer types an argument ``boolean``.
REST_BOOLEAN_WHY = "send true or false (or 1 or 0)"


#: The texts ``tribe_is_truthy`` reads as true (compared lower-cased, untrimmed).
_TRIBE_TRUTHY = frozenset({"1", "enable", "enabled", "on", "y", "yes", "true"})
#: The texts PHP's ``FILTER_VALIDATE_BOOLEAN`` reads as true (lower-cased, trimmed).
_PHP_TRUE = frozenset({"1", "true", "on", "yes"})


def is_truthy(value: object) -> bool:
    """The reference's ``tribe_is_truthy``: a text is true only if it is one of
    ``_TRIBE_TRUTHY`` (any other text, ``"maybe"`` or ``"2"``, is false); anything else is
    its PHP truth (0, an empty list and ``None`` are false)."""
    value = plain(value)
    if isinstance(value, str):
        return value.lower() in _TRIBE_TRUTHY
    return bool(value)


def filter_bool(value: object) -> bool:
    """PHP's ``filter_var($value, FILTER_VALIDATE_BOOLEAN)``, which the reference reads
    ``strict_dates`` with: true for ``1``, ``true``, ``on`` and ``yes`` (any case, spaces
    around ignored) and a true bool; anything else, a list included, is false."""
    value = plain(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | str):
        return str(value).strip().lower() in _PHP_TRUE or value == 1
    return False


def as_int(value: object) -> int | None:
    """An integer from an int, a whole float, or a string of digits (with an optional sign).

    A float counts when it is a whole number (``2.0``, not ``2.5``): pandas stores an integer
    column that has a missing value as floats (``[1.0, nan]``), so ids and counts from a
    DataFrame arrive that way. Text is read as digits only (``"2.0"`` is not an integer), so
    what a query string or form may send is unchanged.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -MAX_INT <= value <= MAX_INT else None
    if isinstance(value, float):
        return as_int(int(value)) if value.is_integer() else None  # NaN, inf: not integers
    if isinstance(value, str):
        text = value.strip()
        digits = text.lstrip("+-")
        # ASCII digits only: "²" and "٣" are digits to str.isdigit but not to int()
        if digits.isascii() and digits.isdigit() and len(digits) <= 19:  # longer cannot fit
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


class WholeText(str):
    """A text that is one item of a list, commas included: ``as_list`` does not split it.

    Callers mostly send a list of names as one comma-separated string, which is split; a
    reader that knows where each name ends (an iCalendar ``CATEGORIES`` value, whose escaped
    ``\\,`` is a comma inside a name) sends each name as a ``WholeText``."""

    __slots__ = ()


def as_list(value: object, *, split_items: bool = True) -> list[object] | None:
    """A list from a sequence, or from a comma-separated string; ``None`` stays ``None``.

    ``split_items``: a text item of a sequence is a comma-separated list too (ids: ``["1,2"]``
    names two). Names are not split there, as the reference's ``list_to_array`` splits only a
    text: ``["Rock, Paper"]`` names one category, ``"Rock, Paper"`` two."""
    if value is None:
        return None
    if isinstance(value, WholeText):
        return [value]
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [value]
    if isinstance(value, Sequence | set | frozenset):
        items: list[object] = []
        for item in value:
            if not isinstance(item, str):
                items.append(item)
            elif split_items:
                items.extend(as_list(item) or [])
            elif item.strip():
                items.append(item.strip())
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


# --- numpy and pandas values ---------------------------------------------------------------

#: Types ``plain`` returns unchanged without a look (exact types: subclasses such as
#: ``pd.Timestamp``, a ``datetime``, or ``np.float64``, a ``float``, need reading).
_PLAIN_TYPES = frozenset({str, int, bool, type(None), datetime, date})

#: pandas' missing values: ``pd.NA`` and ``pd.NaT`` (by type name: pandas is never imported).
_PANDAS_MISSING = frozenset({"NAType", "NaTType"})


def plain(value: Any) -> object:
    """The plain Python value that ``value`` stands for; ``None`` for a missing value.

    numpy scalars become the Python value they hold (``np.int64(3)`` -> ``3``,
    ``np.bool_(True)`` -> ``True``, ``np.datetime64`` -> a naive ``datetime``); a
    ``pd.Timestamp`` becomes the ``datetime`` it equals (aware or naive as it was); numpy
    arrays and pandas Series become lists. ``NaN`` (float or numpy), ``pd.NA``, ``pd.NaT`` and
    numpy's ``NaT`` become ``None``, so that "missing" means what ``None`` means, and never the
    text ``"nan"``. Lists, tuples and mappings are read item by item. numpy and pandas are
    recognised by the module their types come from, so neither is imported here.

    Nested lists and mappings are walked with a stack of their own, not by recursion: JSON
    nested 512 levels deep (the most the HTTP adapter admits) must be read like any other
    value, and Python's own stack ends near 1,000 frames.
    """
    read = _plain_leaf(value)
    return _plain_nested(value) if read is _NESTED else read


#: ``_plain_leaf``'s answer for a container whose items must be read one by one.
_NESTED = object()


def _plain_leaf(value: Any) -> object:
    """``plain(value)`` for anything but a container with items to read, which is
    ``_NESTED``."""
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is float:
        return None if math.isnan(value) else value
    if kind is list or kind is tuple:
        for item in value:
            if type(item) not in _PLAIN_TYPES:
                return _NESTED
        return value  # the usual list of ids or names: nothing to read
    module = kind.__module__
    if module == "numpy":
        return _from_numpy(value)
    if module.startswith("pandas"):
        return _from_pandas(value)
    if isinstance(value, list | tuple | Mapping | set | frozenset):
        return _NESTED
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _plain_nested(root: Any) -> object:
    """``plain`` of a container, its items read depth first on a stack of open containers:
    each entry is the container, its items (values of a mapping), their plain values so far,
    and a mapping's keys (kept as they are)."""
    stack = [_opened(root)]
    while True:
        node, items, done, keys = stack[-1]
        if len(done) < len(items):
            item = items[len(done)]
            read = _plain_leaf(item)
            if read is _NESTED:
                stack.append(_opened(item))
            else:
                done.append(read)
            continue
        stack.pop()
        built: object
        if isinstance(node, list | tuple):
            built = tuple(done) if type(node) is tuple else done
        elif keys is not None:
            built = dict(zip(keys, done, strict=True))
        else:
            built = set(done)
        if not stack:
            return built
        stack[-1][2].append(built)


def _opened(node: Any) -> tuple[Any, list[Any], list[object], list[Any] | None]:
    """A container as ``_plain_nested`` holds it while its items are read."""
    if not isinstance(node, list | tuple) and isinstance(node, Mapping):
        pairs = list(node.items())
        return node, [item for _, item in pairs], [], [key for key, _ in pairs]
    return node, list(node), [], None


def _from_numpy(value: Any) -> object:
    """A numpy scalar's or array's plain value (see ``plain``)."""
    if getattr(value.dtype, "kind", "") == "M":  # datetime64: .item() of [ns] is an int
        read = value.astype("datetime64[us]")
        if read.ndim == 0:
            item = read.item()
            # Past the years ``datetime`` holds numpy answers an int: keep the original, which
            # the date reader then refuses by its own name.
            return item if item is None or isinstance(item, datetime) else value
        value = read
    if value.ndim:
        return [plain(item) for item in value.tolist()]
    return plain(value.item())


def _from_pandas(value: Any) -> object:
    """A pandas value's plain value (see ``plain``)."""
    name = type(value).__name__
    if name in _PANDAS_MISSING:
        return None
    if isinstance(value, datetime):  # a Timestamp, to the microsecond (dates keep seconds)
        return value.to_pydatetime(warn=False)  # type: ignore[attr-defined]
    if getattr(value, "ndim", 0) and hasattr(value, "tolist"):  # Series, Index, arrays
        return [plain(item) for item in value.tolist()]
    return value


def plain_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each value ``plain`` (the input of one create or update)."""
    return {name: v if type(v) in _PLAIN_TYPES else plain(v) for name, v in data.items()}


Q = TypeVar("Q", bound=attrs.AttrsInstance)


def plain_query(query: Q) -> Q:
    """A list query (``EventQuery`` ...) with each parameter ``plain``: a missing value is a
    parameter not given, and a missing item of a list is an item not given
    (``_without_missing``)."""
    changed: dict[str, Any] = {}
    for name in _field_names(type(query)):  # every list reads one: no asdict per request
        value = getattr(query, name)
        if type(value) not in _PLAIN_TYPES:
            read = _without_missing(plain(value))
            if read is not value:
                changed[name] = read
    return attrs.evolve(cast(Any, query), **changed) if changed else query


def _without_missing(value: object) -> object:
    """A list parameter without its missing items; ``None`` (not given) when it held nothing
    else.

    A Series of ids with a gap (``[3.0, nan]``) names the records it holds ids of, as it does
    on create: left in, the gap would be read as an id that is no number, or as the name
    ``"None"`` of a category. An empty list stays empty: that is a filter given no value.
    """
    if not isinstance(value, list | tuple) or all(item is not None for item in value):
        return value
    kept = [item for item in value if item is not None]
    return kept or None


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))
