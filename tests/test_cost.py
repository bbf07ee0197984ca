"""Costs: the stored text, the details and the display string the reference answers."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events_calendar.cost import CostDetails, format_cost, parse_cost
from events_calendar.errors import InvalidParameter

NO_SYMBOL = {"currency_symbol": "", "currency_code": "", "currency_position": ""}

# Every recorded step whose request carries a cost (reference/replay/recordings/tec-6.17.1):
# step, the request's cost, the response's cost and cost_details.
RECORDED = [
    ("070_ev_gala", 25, "$25", {**NO_SYMBOL, "values": ["25"]}),
    ("071_ev_allday", "Free", "Free", {**NO_SYMBOL, "values": ["free"]}),
    ("072_ev_offset_tz", "10 - 20", "$10 – $20", {**NO_SYMBOL, "values": ["10", "20"]}),
    (
        "073_ev_multiday",
        "$15",
        "$15",
        {
            "currency_symbol": "$",
            "currency_code": "",
            "currency_position": "prefix",
            "values": ["15"],
        },
    ),
    ("074_ev_float_cost", 12.5, "$12.5", {**NO_SYMBOL, "values": ["12.5"]}),
    ("077_ev_new_year", "0", "", {**NO_SYMBOL, "values": []}),
    ("128_evupd_put_venue", "5 - 50", "$5 – $50", {**NO_SYMBOL, "values": ["5", "50"]}),
    ("151_evupd_cost_range", "20-10", "$10 – $20", {**NO_SYMBOL, "values": ["10", "20"]}),
]
RECORDED_IDS = [step for step, *_ in RECORDED]


def details_as_wire(details: CostDetails) -> dict[str, Any]:
    """The details in the reference's JSON shape."""
    return {
        "currency_symbol": details.currency_symbol,
        "currency_code": details.currency_code,
        "currency_position": details.currency_position,
        "values": list(details.values),
    }


def display(value: object) -> str:
    """What the reference would answer in ``cost`` for ``value``."""
    text, details = parse_cost(value)
    return format_cost(text, details)


# --- the recordings ---------------------------------------------------------------------------


@pytest.mark.parametrize(("step", "sent", "expected", "_details"), RECORDED, ids=RECORDED_IDS)
def test_recorded_cost_is_displayed_as_the_reference_does(
    step: str, sent: object, expected: str, _details: dict[str, Any]
) -> None:
    """Each recorded cost input is displayed exactly as the reference answered."""
    assert expected == display(sent)


@pytest.mark.parametrize(("step", "sent", "_cost", "expected"), RECORDED, ids=RECORDED_IDS)
def test_recorded_cost_details_match_the_reference(
    step: str, sent: object, _cost: str, expected: dict[str, Any]
) -> None:
    """Each recorded cost input gives exactly the reference's cost_details."""
    assert expected == details_as_wire(parse_cost(sent)[1])


# --- stored text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        (25, "25"),
        (12.5, "12.5"),
        (25.0, "25"),
        (1e20, "100000000000000000000"),
        (Decimal("12.50"), "12.5"),
        ("  $15 ", "$15"),
        ("€ 10 - 30", "€ 10 - 30"),
        (["Free", " 30$ "], "Free, 30$"),
        (["10", None, "", 20], "10, 20"),
        (("5", 7.5), "5, 7.5"),
    ],
)
def test_stored_text(sent: object, expected: str) -> None:
    """Numbers are stored as their decimal text, strings trimmed, list items joined by ', '."""
    assert expected == parse_cost(sent)[0]


@pytest.mark.parametrize(
    "sent", [None, "", "   ", "0", 0, 0.0, Decimal("-0"), [], [None, ""], ["0"]]
)
def test_empty_values_mean_no_cost(sent: object) -> None:
    """None, "", "0" and 0 (PHP's empty values) store no cost and show nothing."""
    expected = ("", CostDetails())
    assert expected == parse_cost(sent)
    expected = ""
    assert expected == display(sent)


def test_parsing_the_stored_text_again_gives_the_same_details() -> None:
    """A list's stored text parses back to the list's details, so records can keep only text."""
    text, details = parse_cost(["Free", "30$"])
    assert (text, details) == parse_cost(text)


# --- details ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "symbol", "position"),
    [
        ("20$", "$", "postfix"),
        ("$20", "$", "prefix"),
        ("$ 20", "$", "prefix"),
        ("20 €", "€", "postfix"),
        ("€ 10 - 30", "€", "prefix"),
        ("$10 - $20", "$", "prefix"),
        ("$10 to $20", "$", "prefix"),
        ("10€ - 20€", "€", "postfix"),
        ("0 - 30$", "$", "postfix"),
        ("USD 10", "USD", "prefix"),
        ("20 kr", "kr", "postfix"),
        ("Fr. 30", "Fr.", "prefix"),
        ("R$ 40", "R$", "prefix"),
        (["Free", "30$"], "$", "postfix"),
        ("from $10", "$", "prefix"),
        ("$10 - 20$", "$", ""),
        ("10 - 20", "", ""),
        ("$10 - 20€", "", ""),
        ("VIP 10", "", ""),
        ("Adults 10, kids 5", "", ""),
        ("Free", "", ""),
        (25, "", ""),
    ],
)
def test_currency_symbol_and_position_are_read_from_the_text(
    sent: object, symbol: str, position: str
) -> None:
    """The symbol written next to the numbers, and on which side, become the details."""
    details = parse_cost(sent)[1]
    expected = (symbol, position)
    assert expected == (details.currency_symbol, details.currency_position)


def test_currency_code_is_never_inferred() -> None:
    """The reference never sets currency_code from a cost text."""
    expected = ""
    assert expected == parse_cost("USD 10")[1].currency_code


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        ("25,55", ("25.55",)),
        ("25.55", ("25.55",)),
        ("1,000", ("1000",)),
        ("1.500", ("1.500",)),
        ("0,500", ("0.500",)),
        ("1,000.50", ("1000.50",)),
        ("1.000,50", ("1000.50",)),
        ("1,000,000", ("1000000",)),
        ("1.000.000", ("1000000",)),
        ("10,20", ("10.20",)),
        ("$.50", ("0.50",)),
        ("€ 10 - 30", ("10", "30")),
    ],
)
def test_values_are_plain_decimal_strings(sent: str, expected: tuple[str, ...]) -> None:
    """Thousands separators are dropped and the decimal separator becomes a dot."""
    assert expected == parse_cost(sent)[1].values


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        ("100 - 9.5 - 20", ("9.5", "20", "100")),
        ("20-10", ("10", "20")),
        ("10 - 10.0", ("10",)),
        (["Free", "30$"], ("free", "30")),
        (["30", "Donation"], ("donation", "30")),
        ("Donation, Pay what you want", ("donation", "pay-what-you-want")),
        ("Free entry, $5 drinks", ("free-entry", "5")),
    ],
)
def test_values_are_sorted_numerically_with_words_as_zero(
    sent: object, expected: tuple[str, ...]
) -> None:
    """Values sort by amount, duplicates once; a part with no number gives its slug, as zero."""
    assert expected == parse_cost(sent)[1].values


# --- display ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        ("20$", "20$"),
        ("$20", "$20"),
        ("€ 10 - 30", "€10 – €30"),
        ("10€ - 20€", "10€ – 20€"),
        ("0 - 30$", "Free – 30$"),
        (["0", "30$"], "Free – 30$"),
        ("0.00", "Free"),
        ("0,001", "Free"),
        ("0 - 0.001", "Free"),
        ("10 - 10.0", "$10"),
        ("25,55", "$25,55"),
        ("1,000 - 2,500", "$1,000 – $2,500"),
        (["Free", "30$"], "30$"),
        ("Donation", "Donation"),
        ("Donation, Pay what you want", "Donation, Pay what you want"),
        ("VIP 10", "$10"),
        ("CHF 20 - 30", "CHF20 – CHF30"),
        ("$10 - 20$", "$10 – $20"),
    ],
)
def test_display(sent: object, expected: str) -> None:
    """The lowest and highest amounts with the symbol, zero as Free, joined by an en dash."""
    assert expected == display(sent)


def test_display_uses_the_default_symbol_when_the_text_has_none() -> None:
    """A cost written without a symbol is shown with the site's default symbol and side."""
    text, details = parse_cost("10 - 20")
    expected = "10€ – 20€"
    assert expected == format_cost(text, details, default_symbol="€", default_position="postfix")


def test_display_prefers_the_symbol_written_in_the_text() -> None:
    """The symbol and side read from the text win over the site defaults."""
    text, details = parse_cost("$15")
    expected = "$15"
    assert expected == format_cost(text, details, default_symbol="€", default_position="postfix")


def test_display_of_no_cost_is_empty() -> None:
    """An event without a cost displays as the empty string."""
    expected = ""
    assert expected == format_cost("", CostDetails())


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        ({"amount": 10}, r"cost \(cost: send a number, a text .* or a list of those; got dict\)"),
        (True, r"cost \(cost: send a number, .*; got a boolean\)"),
        ([10, False], r"cost \(cost: item 1: send a number, .*; got a boolean\)"),
        ([["10"]], r"cost \(cost: item 0: send a number, .*; got a list inside the list\)"),
        (b"10", r"got bytes"),
        ({10, 20}, r"got set"),
        (-5, r"send a cost of 0 or more; got -5"),
        (["5", -1.5], r"item 1: send a cost of 0 or more; got -1.5"),
        (float("nan"), r"send a finite number such as 20 or 12.5"),
        (float("inf"), r"send a finite number"),
        (Decimal("Infinity"), r"send a finite number"),
    ],
)
def test_bad_cost_is_rejected_saying_what_to_send(sent: object, message: str) -> None:
    """Values that are not a cost raise InvalidParameter saying what to send instead."""
    with pytest.raises(InvalidParameter, match=message):
        parse_cost(sent)


def test_bad_cost_error_names_the_given_field() -> None:
    """The error carries the field name the caller used."""
    with pytest.raises(InvalidParameter) as caught:
        parse_cost({"amount": 10}, field="price")
    expected = ["price"]
    assert expected == list(caught.value.fields)


# --- properties -------------------------------------------------------------------------------

amounts = st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False)
cost_items = st.one_of(
    st.none(),
    st.integers(min_value=0, max_value=10**12),
    st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False),
    amounts,
    st.text(max_size=30),
)
cost_values = st.one_of(cost_items, st.lists(cost_items, max_size=5))
NUMERIC = re.compile(r"[0-9]+(\.[0-9]+)?")


@given(cost_values)
def test_values_are_always_sorted_numerically(value: object) -> None:
    """Numeric values come out in ascending order, words counting as zero."""
    values = parse_cost(value)[1].values
    keys = [Decimal(v) if NUMERIC.fullmatch(v) else Decimal(0) for v in values]
    assert sorted(keys) == keys


@given(cost_values)
def test_numeric_values_are_plain_decimals_and_words_are_slugs(value: object) -> None:
    """Every value is a plain decimal string or a slug."""
    for item in parse_cost(value)[1].values:
        assert re.fullmatch(r"[0-9]+(\.[0-9]+)?|[a-z0-9]+(-[a-z0-9]+)*", item)


@given(cost_values)
def test_parsing_is_idempotent(value: object) -> None:
    """Parsing the stored text gives back the same text and details."""
    text, details = parse_cost(value)
    assert (text, details) == parse_cost(text)


@given(cost_values)
def test_display_is_empty_exactly_when_there_is_no_cost(value: object) -> None:
    """A stored cost always displays as something; no cost displays as nothing."""
    text, details = parse_cost(value)
    assert (text == "") == (format_cost(text, details) == "")


@given(st.lists(amounts, min_size=1, max_size=4))
def test_a_range_displays_its_lowest_and_highest_amount(values: list[Decimal]) -> None:
    """A list of amounts displays as its minimum and maximum, each with the default symbol."""
    text, details = parse_cost([format(v, "f") for v in values])

    def shown(amount: Decimal) -> str:
        return "Free" if amount < Decimal("0.005") else f"${format(amount, 'f')}"

    low, high = shown(min(values)), shown(max(values))
    expected = low if low == high else f"{low} – {high}"
    assert expected == format_cost(text, details)
