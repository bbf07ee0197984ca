"""``http.params`` on hostile input: work grows in step with the input, and the answer is the
one the parser gave before it was made to."""

from __future__ import annotations

import sys
import threading
import tracemalloc
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events_calendar.errors import InvalidParameter
from events_calendar.http import params
from events_calendar.http.params import NOT_UTF8, READ_IN_THREAD, _collect, _pairs
from http_helpers import Site


def _calls(work: Callable[[], Any]) -> int:
    """How many calls (of Python functions and of builtins) ``work`` makes: a measure of its
    work that no clock or load can change."""
    made = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal made
        made += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
    return made


def _appends(n: int, depth: int = 1) -> list[tuple[str, str]]:
    return [("x" + "[]" * depth, "v")] * n


def test_appending_to_a_list_is_linear() -> None:
    """Twice as many ``x[]`` fields cost about twice the work (each append read every key
    before: 4,000 of them took 3.2 s on the event loop)."""
    small, large = (_calls(lambda n=n: _collect(_appends(n))) for n in (1_000, 2_000))
    assert large < 2.2 * small


def test_appending_to_nested_lists_is_linear() -> None:
    """So do fields 64 levels deep (``x[][]…[]``), the deepest kept as a path."""
    small, large = (_calls(lambda n=n: _collect(_appends(n, 64))) for n in (250, 500))
    assert large < 2.2 * small


def test_appends_follow_the_highest_number_given() -> None:
    """``[]`` takes the number after the highest one given, as PHP numbers it."""
    pairs = [("a[5]", "five"), ("a[]", "six"), ("a[2]", "two"), ("a[]", "seven"), ("b[x]", "")]
    assert {"a": ["five", "six", "two", "seven"], "b": {"x": ""}} == _collect(pairs)


def test_a_map_replaced_by_a_value_leaves_no_number_behind() -> None:
    """A map a later value replaced does not number the appends of a new map."""
    pairs = [("a[x][]", "1"), ("a[x][]", "2"), ("a[x]", "s"), ("a[y][]", "3"), ("a[y][k]", "4")]
    assert {"a": {"x": "s", "y": {"0": "3", "k": "4"}}} == _collect(pairs)


def test_an_append_after_a_superscript_key_starts_at_nought() -> None:
    """``x[²]`` numbers nothing: ``x[]`` after it is ``x[0]`` (``int("²")`` was a 500)."""
    assert {"x": ["1", "2"]} == _collect([("x[²]", "1"), ("x[]", "2")])


def _stdlib_pairs(raw: bytes, *, most: int | None = None) -> list[tuple[str, str]]:
    """What ``_pairs`` answered when it was ``parse_qsl``: the meaning to keep."""
    text = raw.decode("latin-1")
    try:
        return parse_qsl(
            text, keep_blank_values=True, encoding="utf-8", errors="strict", max_num_fields=most
        )
    except UnicodeDecodeError:
        bad = {}
        for part in text.split("&"):
            name, _, value = part.partition("=")
            for piece in (name, value):
                try:
                    unquote_to_bytes(piece.replace("+", " ")).decode("utf-8")
                except UnicodeDecodeError:
                    readable = unquote_to_bytes(name.replace("+", " "))
                    bad[readable.decode("utf-8", "replace").removesuffix("[]")] = NOT_UTF8
        raise InvalidParameter(bad) from None
    except ValueError:
        raise InvalidParameter({"body": f"send at most {most:,} fields"}) from None


def _outcome(read: Callable[..., Any], raw: bytes, most: int | None) -> Any:
    try:
        return read(raw, most=most)
    except InvalidParameter as error:
        return ("refused", error.args, getattr(error, "fields", None))


_FORM_BYTES = st.lists(
    st.sampled_from([b"%", b"&", b"=", b"+", b"[]", b"a", b"4", b"1", b"F", b"c3", b"%c3%a9"])
    | st.sampled_from([b"%e9", b"%ff", b"\xc3\xa9", b"\xe9", b"\x80", b"%41", b"%4", b"%%"]),
    max_size=40,
).map(b"".join)


@settings(max_examples=500)
@given(raw=_FORM_BYTES, most=st.none() | st.integers(min_value=1, max_value=6))
def test_pairs_read_as_parse_qsl_read_them(raw: bytes, most: int | None) -> None:
    """Every form ``parse_qsl`` read (escapes, ``+``, bytes that are not UTF-8, raw
    non-ASCII bytes, too many fields) is read the same, or refused the same."""
    assert _outcome(_stdlib_pairs, raw, most) == _outcome(_pairs, raw, most)


@pytest.mark.parametrize(
    "value",
    [b"%41" * 50_000, b"a%4" + b"%41" * 30_000, (b"x%e9" + b"%C3%A9" * 9) * 2_000, b"%" * 70_000],
    ids=["escapes", "cut inside an escape", "mixed", "only percent signs"],
)
def test_a_long_value_reads_as_parse_qsl_reads_it(value: bytes) -> None:
    """Values longer than the pieces ``_unquote_to_bytes`` reads at once, cut anywhere."""
    raw = b"title=" + value + b"\xe9&b=1"
    assert _outcome(_stdlib_pairs, raw, None) == _outcome(_pairs, raw, None)


def test_a_large_escaped_body_is_read_in_little_memory() -> None:
    """A 4 MiB field of ``%41`` is read with a few MB more memory (320 MB more through
    ``parse_qsl``, an object for every escape)."""
    raw = b"title=" + b"%41" * (4 * 1024 * 1024 // 3)
    tracemalloc.start()
    try:
        ((name, value),) = _pairs(raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert ("title", len(raw) // 3 - 2) == (name, len(value))
    assert peak < 4 * len(raw)


def test_a_large_form_body_is_read_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A form body past ``READ_IN_THREAD`` bytes is read in a worker thread; a short one (the
    trip there costs more than reading it) on the loop."""
    threads: list[bool] = []

    def spy(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        threads.append(threading.current_thread() is threading.main_thread())
        return collect(pairs)

    collect = params._collect
    monkeypatch.setattr(params, "_collect", spy)
    site = Site()
    for size in (READ_IN_THREAD + 1, READ_IN_THREAD):
        body = b"title=T&excerpt=" + b"a" * (size - 16)
        assert size == len(body)
        site.post(
            "/events",
            content=body,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
    # the query string (on the loop), then each body
    assert [True, False, True, True] == threads
