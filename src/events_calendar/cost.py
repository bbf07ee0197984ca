"""Event costs: what callers may send, what is stored, and the string the reference displays.

A cost is free text (``"$15"``, ``"10 - 20"``, ``"Free"``, ``"20€"``); the reference (The Events
Calendar) stores that text and derives everything else from it, and so do we:

- ``parse_cost`` turns what a caller sends (a number, a string, ``None`` or a list of those) into
  the text to store and its ``CostDetails``. Numbers become their decimal text (``25`` ->
  ``"25"``, ``12.5`` -> ``"12.5"``); a list is stored as its items joined by ``", "``. As in the
  reference, ``0``, ``"0"`` and ``""`` mean *no cost* (PHP finds them empty), while ``"0.00"`` or
  ``"0 - 30"`` are real costs shown as ``Free``. Parsing the stored text again gives the same text
  and details, so records may keep only the text.
- ``CostDetails.values`` lists the numbers found, as plain decimal strings sorted numerically,
  with thousands separators dropped and the decimal separator made a dot (``"25,55"`` ->
  ``"25.55"``, ``"1.000,50"`` -> ``"1000.50"``; a lone separator before exactly three digits is a
  thousands separator for ``,`` (unless the number starts with 0) and a decimal point for ``.``,
  the English site locale's reading). A comma-separated part without any number contributes its
  slug (``"Free"`` -> ``"free"``), which sorts as zero, as PHP's numeric sort does.
- The currency symbol and its position are read from the text: ``"$20"`` -> ``$``/``prefix``,
  ``"20$"`` -> ``$``/``postfix``, ``"€ 10 - 30"`` -> ``€``/``prefix``. A text without one keeps
  ``""`` in the details and is displayed with the site default (``$``, prefix): ``25`` -> ``"$25"``.
- ``format_cost`` gives the display string: the lowest and highest numbers with the symbol, a
  number that rounds to 0.00 shown as ``Free``, a range joined by ``" – "`` (``"$10 – $20"``,
  ``"Free – 30$"``); a text with no number is shown as given (``"Free"``); ``""`` when no cost.

Where the reference has plain bugs we do better: it never finds a symbol in a range
(``"€ 10 - 30"`` is shown as ``"$10 – $30"``), it reads a decimal comma as a thousands separator
on an English site (``"25,55"`` -> ``"2555"``), it takes any word next to a number for a currency
symbol (``"VIP 10"`` -> ``"VIP10"``), and it shows a list of words with no number at all as
``Free``. Here a symbol is a currency sign, a common ISO 4217 code or a common
local abbreviation (``kr``, ``Fr.``, ``zł``, ...); other words next to a number are ignored.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Iterable
from decimal import Decimal

import attrs

from .errors import InvalidParameter
from .slugs import slugify

__all__ = ["FREE", "RANGE_SEPARATOR", "CostDetails", "format_cost", "parse_cost"]

#: How a cost that rounds to zero is displayed.
FREE = "Free"
#: Between the lowest and the highest cost in a displayed range (an en dash with spaces).
RANGE_SEPARATOR = " – "

_EXPECTED = 'send a number, a text such as "$20", "10 - 20" or "Free", or a list of those'
# A number: digits with dot or comma separators inside; a leading dot reads as "0." ("$.50").
_NUMBER = re.compile(r"(?:(?<![0-9])\.)?[0-9]+(?:[.,][0-9]+)*")
# The parts of a cost text; a comma directly followed by a digit is a separator inside a number.
_PARTS = re.compile(r",\s+")
# A text that opens with a negative number ("-5", "$-5", "-$5", "€ -10"): refused as a
# negative number is, where the reference reads the minus as a range dash and shows "$5".
_NEGATIVE = re.compile(r"[^\w\s]*\s*-\s*[^\w\s]?\s*\.?[0-9]")
# What joins two numbers of a range ("10 - 20", "$10 to $20").
_RANGE_JOIN = re.compile(r"[-–—~/&+]|\b(?:to|and|or)\b", re.IGNORECASE)
_BRACKETS = "()[]{}<>:;\"'"
_FREE_BELOW = Decimal("0.005")  # rounds to 0.00, as PHP's number_format( $cost, 2 ) does
# fmt: off
_CURRENCY_CODES = frozenset({
    "AED", "ARS", "AUD", "BGN", "BRL", "CAD", "CHF", "CLP", "CNY", "COP", "CZK", "DKK", "EGP",
    "EUR", "GBP", "HKD", "HUF", "IDR", "ILS", "INR", "ISK", "JPY", "KES", "KRW", "MAD", "MXN",
    "MYR", "NGN", "NOK", "NZD", "PEN", "PHP", "PLN", "RMB", "RON", "RUB", "SAR", "SEK", "SGD",
    "THB", "TRY", "TWD", "UAH", "USD", "VND", "ZAR",
})
_CURRENCY_WORDS = frozenset({
    "kr", "fr", "sfr", "ft", "rs", "lei", "zł", "kč", "kn", "din", "lv", "лв", "руб", "грн",
    "ден", "tl",
})
# fmt: on


def _as_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class CostDetails:
    """What the reference derives from a cost text (its ``cost_details`` object)."""

    currency_symbol: str = ""
    currency_code: str = ""
    #: ``"prefix"``, ``"postfix"`` or ``""`` (no symbol, or used on both sides).
    currency_position: str = ""
    #: Numeric strings sorted numerically (a part without a number gives its slug).
    values: tuple[str, ...] = attrs.field(default=(), converter=_as_tuple)


_NO_COST = CostDetails()


def parse_cost(value: object, *, field: str = "cost") -> tuple[str, CostDetails]:
    """The cost text to store for ``value`` and the details derived from it.

    ``value`` is an ``int``, ``float``, ``Decimal``, ``str``, ``None``, or a list or tuple of
    those (``None`` and ``""`` items are skipped). Anything else (a bool, a mapping, a nested
    list), a negative number (or a text opening with one: ``"-5"``, ``"$-5"``) or a non-finite
    one raises ``InvalidParameter`` naming ``field``.
    """
    text = _cost_text(value, field)
    if text in ("", "0"):
        return "", _NO_COST
    return text, _details(text)


def format_cost(
    text: str,
    details: CostDetails,
    *,
    default_symbol: str = "$",
    default_position: str = "prefix",
) -> str:
    """The display string for a stored cost ``text``: ``"$25"``, ``"20$"``, ``"Free – 30$"``.

    ``details`` supplies the symbol and its position; when it has none the site defaults apply
    (``default_position`` is ``"prefix"``, anything else puts the symbol after the number).
    """
    text = text.strip()
    numbers = [number for part in _PARTS.split(text) for number in _NUMBER.findall(part)]
    if not numbers:
        return text
    amounts = [(Decimal(_normalise(number)), number) for number in numbers]
    low = min(amounts, key=lambda amount: amount[0])
    high = max(amounts, key=lambda amount: amount[0])
    symbol = details.currency_symbol or default_symbol
    prefix = (details.currency_position or default_position) == "prefix"

    def show(amount: tuple[Decimal, str]) -> str:
        value, written = amount
        if value < _FREE_BELOW:
            return FREE
        return symbol + written if prefix else written + symbol

    shown_low, shown_high = show(low), show(high)
    if shown_low == shown_high:
        return shown_low
    return f"{shown_low}{RANGE_SEPARATOR}{shown_high}"


def _cost_text(value: object, field: str) -> str:
    """The text stored for one input value."""
    if isinstance(value, list | tuple):
        texts = [_item_text(item, field, index) for index, item in enumerate(value)]
        return ", ".join(text for text in texts if text)
    return _item_text(value, field, None)


def _item_text(value: object, field: str, index: int | None) -> str:
    where = "" if index is None else f"item {index}: "
    if value is None:
        return ""
    if isinstance(value, str):
        if _NEGATIVE.match(value.strip()):
            raise InvalidParameter.one(field, f"{where}send a cost of 0 or more; got {value!r}")
        return value.strip()
    if isinstance(value, bool):
        raise InvalidParameter.one(field, f"{where}{_EXPECTED}; got a boolean")
    if isinstance(value, int | float | Decimal):
        return _number_text(value, field, where)
    kind = "a list inside the list" if isinstance(value, list | tuple) else type(value).__name__
    raise InvalidParameter.one(field, f"{where}{_EXPECTED}; got {kind}")


def _number_text(value: int | float | Decimal, field: str, where: str) -> str:
    """Decimal text of a number, as PHP casts it to a string (``25.0`` -> ``"25"``)."""
    if isinstance(value, float | Decimal) and not math.isfinite(value):
        raise InvalidParameter.one(field, f"{where}send a finite number such as 20 or 12.5")
    if value < 0:
        raise InvalidParameter.one(field, f"{where}send a cost of 0 or more; got {value}")
    if value == 0:
        return "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        value = Decimal(repr(value))
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _details(text: str) -> CostDetails:
    values: dict[str, Decimal] = {}  # value text -> sort key, first occurrence kept
    seen: set[Decimal] = set()
    candidates: list[tuple[str, str]] = []  # (symbol, position)
    for part in _PARTS.split(text):
        matches = list(_NUMBER.finditer(part))
        if not matches:
            slug = slugify(part)  # "¹" folds to "1": not a word, and not a number either
            if slug and not slug.isdigit() and slug not in values:
                values[slug] = Decimal(0)
            continue
        for match in matches:
            normal = _normalise(match.group())
            amount = Decimal(normal)
            if amount not in seen:
                seen.add(amount)
                values[normal] = amount
        candidates.extend(_symbol_candidates(part, matches))
    symbol, position = _consistent(candidates)
    ordered = sorted(values, key=values.__getitem__)
    return CostDetails(currency_symbol=symbol, currency_position=position, values=ordered)


def _normalise(number: str) -> str:
    """A written number as a plain decimal string: ``"1,000.50"`` -> ``"1000.50"``."""
    if number.startswith("."):
        return "0." + number[1:].replace(".", "").replace(",", "")
    separators = [char for char in number if char in ".,"]
    if not separators:
        return number
    last = number.rfind(separators[-1])
    whole, fraction = number[:last], number[last + 1 :]
    grouped = len(fraction) == 3 and separators[-1] == "," and not whole.startswith("0")
    if len(set(separators)) == 1 and (len(separators) > 1 or grouped):
        return number.replace(separators[-1], "")  # only thousands separators
    return whole.replace(".", "").replace(",", "") + "." + fraction


def _symbol_candidates(part: str, matches: list[re.Match[str]]) -> list[tuple[str, str]]:
    """Currency symbols written next to the numbers of one part, with their positions."""
    found: list[tuple[str, str]] = []
    before = part[: matches[0].start()]
    found.append((_last_word(before), "prefix"))
    for left, right in itertools.pairwise(matches):
        gap = part[left.end() : right.start()]
        join = _RANGE_JOIN.search(gap)
        if join is None:
            continue  # "10$ 20$": whose symbol the gap holds is ambiguous
        found.append((_first_word(gap[: join.start()]), "postfix"))
        found.append((_last_word(gap[join.end() :]), "prefix"))
    after = part[matches[-1].end() :]
    found.append((_first_word(after), "postfix"))
    return [(word, position) for word, position in found if _is_currency(word)]


def _last_word(text: str) -> str:
    words = _RANGE_JOIN.split(text)[-1].split()
    return words[-1].strip(_BRACKETS) if words else ""


def _first_word(text: str) -> str:
    words = _RANGE_JOIN.split(text)[0].split()
    return words[0].strip(_BRACKETS) if words else ""


def _is_currency(word: str) -> bool:
    """A currency sign, a common ISO 4217 code or a common local abbreviation (``Fr.``)."""
    if not word or len(word) > 4 or any(char.isdigit() for char in word):
        return False
    if any(unicodedata.category(char) == "Sc" for char in word):
        return True
    return word in _CURRENCY_CODES or word.rstrip(".").lower() in _CURRENCY_WORDS


def _consistent(candidates: list[tuple[str, str]]) -> tuple[str, str]:
    """The one symbol used throughout, and its position if it is always on the same side."""
    symbols = {symbol for symbol, _ in candidates}
    if len(symbols) != 1:
        return "", ""
    positions = {position for _, position in candidates}
    return symbols.pop(), positions.pop() if len(positions) == 1 else ""
