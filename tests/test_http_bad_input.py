"""Hostile input is a 400 with a stable code, never a 500 (issue 9, item 3).

Each probe is one of the six causes the audit found: a list where a text belongs, NUL and lone
surrogates in text, ids and pages too large for any database, and JSON nested too deeply.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.params import MAX_JSON_DEPTH
from http_helpers import Site, basic

BIG = "1" * 20  # 20 digits: past a signed 64-bit integer
HUGE_PAGE = "9" * 5000


@pytest.fixture
def site() -> Site:
    return Site()


def answer(response: object) -> tuple[int, str, list[str]]:
    """(status, code, names of the bad parameters) of an error response."""
    body = response.json()  # type: ignore[attr-defined]
    params = body.get("data", {}).get("params", {})
    return response.status_code, body["code"], sorted(params)  # type: ignore[attr-defined]


def test_a_password_sent_as_a_list_is_invalid(site: Site) -> None:
    """``?password[]=x`` on a single read is a 400 naming ``password``."""
    event = site.event(password="pw")
    response = site.get(f"/events/{event['id']}", params={"password[]": "x"})
    assert (400, "rest_invalid_param", ["password"]) == answer(response)


def test_nul_in_an_event_search_is_invalid(site: Site) -> None:
    """A NUL character in ``search`` is a 400 naming ``search``."""
    assert (400, "rest_invalid_param", ["search"]) == answer(
        site.get("/events", params={"search": "ja\x00zz"})
    )


@pytest.mark.parametrize("kind", ["venues", "organizers", "categories", "tags"])
def test_nul_in_other_searches_is_invalid(site: Site, kind: str) -> None:
    """Venue, organizer and term searches refuse NUL as well."""
    assert (400, "rest_invalid_param", ["search"]) == answer(
        site.get(f"/{kind}", params={"search": "a\x00b"})
    )


@pytest.mark.parametrize("kind", ["events", "venues", "organizers", "categories", "tags"])
def test_a_twenty_digit_id_in_the_path_is_unknown(site: Site, kind: str) -> None:
    """``/<kind>/<20 digits>`` is the unknown-id 400, on every collection."""
    assert (400, "rest_invalid_param") == answer(site.get(f"/{kind}/{BIG}"))[:2]


@pytest.mark.parametrize("kind", ["events", "venues", "categories"])
def test_an_id_of_thousands_of_digits_in_the_path_is_unknown(site: Site, kind: str) -> None:
    """Past what Python's ``int()`` reads (4,300 digits), still the unknown-id 400."""
    assert (400, "rest_invalid_param") == answer(site.get(f"/{kind}/{'7' * 5000}"))[:2]


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_a_twenty_digit_id_in_a_write_path_is_unknown(site: Site, method: str) -> None:
    """Writes to a 20-digit id are the unknown-id 400 too."""
    response = site.request(method, f"/events/{BIG}", json={"title": "x"}, as_="admin")
    assert (400, "rest_invalid_param") == answer(response)[:2]


@pytest.mark.parametrize("param", ["include", "venue", "organizer", "categories", "tags"])
def test_a_twenty_digit_id_in_a_list_filter_is_invalid(site: Site, param: str) -> None:
    """An event list filtered by a 20-digit id names that filter."""
    assert (400, "rest_invalid_param", [param]) == answer(site.get("/events", params={param: BIG}))


@pytest.mark.parametrize("field", ["author", "venue", "organizer", "categories", "tags"])
def test_a_twenty_digit_id_in_a_body_is_invalid(site: Site, field: str) -> None:
    """An event written with a 20-digit linked id names that field."""
    body = {"title": "X", "start_date": "2031-06-15 19:00", "end_date": "2031-06-15 20:00"}
    response = site.post("/events", json={**body, field: BIG}, as_="admin")
    assert (400, "rest_invalid_param", [field]) == answer(response)


def test_a_twenty_digit_parent_category_is_invalid(site: Site) -> None:
    """A category under a 20-digit parent names ``parent``."""
    response = site.post("/categories", json={"name": "Jazz", "parent": BIG}, as_="admin")
    assert (400, "rest_invalid_param", ["parent"]) == answer(response)


@pytest.mark.parametrize("page", [HUGE_PAGE, str(2**63 - 1)])
@pytest.mark.parametrize("kind", ["events", "venues", "categories"])
def test_an_enormous_page_is_invalid(site: Site, kind: str, page: str) -> None:
    """A page of 5,000 digits, or 2^63-1, is a 400 naming ``page``."""
    assert (400, "rest_invalid_param", ["page"]) == answer(
        site.get(f"/{kind}", params={"page": page})
    )


def test_json_nested_a_thousand_deep_is_invalid_json(site: Site) -> None:
    """A body nested 1,000 deep is ``rest_invalid_json``."""
    body = '{"title": ' + "[" * 1000 + "]" * 1000 + "}"
    response = site.post(
        "/events", content=body, headers={"Content-Type": "application/json"}, as_="admin"
    )
    assert (400, "rest_invalid_json") == answer(response)[:2]


def test_a_lone_surrogate_in_a_title_is_invalid(site: Site) -> None:
    """A title holding a lone surrogate (``\\ud800`` in JSON) is a 400 naming ``title``."""
    body = (
        '{"title": "Gala \\ud800", "start_date": "2031-06-15 19:00",'
        ' "end_date": "2031-06-15 20:00"}'
    )
    response = site.post(
        "/events", content=body, headers={"Content-Type": "application/json"}, as_="admin"
    )
    assert (400, "rest_invalid_param", ["title"]) == answer(response)


def test_nul_in_a_venue_name_is_invalid(site: Site) -> None:
    """A NUL character in a written text is refused, nothing stored."""
    response = site.post("/venues", json={"venue": "Hall\x00"}, as_="admin")
    listed = site.get("/venues").json()["total"]
    assert ((400, "rest_invalid_param", ["venue"]), 0) == (answer(response), listed)


def test_date_and_date_utc_days_apart_are_invalid(site: Site) -> None:
    """``date`` and ``date_utc`` two days apart (no UTC offset joins them, which used to be a
    500) are a 400 naming ``date_utc``, nothing stored."""
    body = {"venue": "Hall", "date": "2031-06-15 10:00:00", "date_utc": "2031-06-13 10:00:00"}
    response = site.post("/venues", json=body, as_="admin")
    listed = site.get("/venues").json()["total"]
    assert ((400, "rest_invalid_param", ["date_utc"]), 0) == (answer(response), listed)


def test_nul_in_a_slug_path_is_unknown(site: Site) -> None:
    """A slug route with a NUL character is the unknown-slug 400."""
    assert (400, "rest_invalid_param") == answer(site.get("/events/by-slug/ga%00la"))[:2]


def test_bad_input_logs_no_traceback(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """The probes are answered without an error in the log."""
    with caplog.at_level(logging.ERROR):
        site.get(f"/events/{BIG}")
        site.get("/events", params={"search": "\x00", "page": HUGE_PAGE})
    assert [] == [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("link", ["organizer", "venue"])
def test_a_link_nested_in_lists_is_invalid(site: Site, link: str) -> None:
    """``[[null]]`` names no record but is no empty link either: a 400 naming the field."""
    body = {"title": "Gala", "start_date": "2031-06-15 19:00", "end_date": "2031-06-15 23:00"}
    body[link] = [[None]]
    response = site.post("/events", json=body, as_="admin")
    assert (400, "rest_invalid_param", [link]) == answer(response)


@pytest.mark.parametrize("empty", [[], [None], ["", 0]])
def test_a_list_of_empty_links_clears_them(site: Site, empty: list[object]) -> None:
    """A list of empty values (one level) is still no organizer, as before."""
    event = site.event(organizer=[site.organizer()["id"]])
    response = site.post(f"/events/{event['id']}", json={"organizer": empty}, as_="admin")
    assert (200, []) == (response.status_code, response.json()["organizer"])


@pytest.mark.parametrize("field", ["website", "image"])
@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_an_unclosed_bracket_in_an_address_is_invalid(site: Site, kind: str, field: str) -> None:
    """``http://[x`` made ``urlsplit`` raise a bare ValueError: a 500 with a traceback."""
    name = kind.removesuffix("s")
    response = site.post(f"/{kind}", json={name: "Hall", field: "http://[x/a.jpg"})
    assert (400, "rest_invalid_param", [field]) == answer(response)


@pytest.mark.parametrize("path", ["/events", "/events.ics", "/venues"])
@pytest.mark.parametrize("signed_in", [False, True])
def test_a_raw_byte_that_is_not_utf8_in_a_query_string_is_no_500(
    path: str, signed_in: bool
) -> None:
    """A client may send any byte in a query string; the answer (anonymous, so cached, or
    signed in) reads it as Starlette reads parameters (Latin-1), and a second ask answers
    the same."""
    cal = ec.connect("sqlite://")
    cal.users.create("admin", role="administrator")
    headers = [(b"host", b"cal.test")]
    if signed_in:
        headers.append(
            (b"authorization", basic("admin", cal.users.issue_password("admin")).encode())
        )
    app = create_app(cal)
    full = "/wp-json/tribe/events/v1" + path

    async def ask() -> tuple[int, bytes]:
        sent: list[dict[str, object]] = []
        scope = {
            "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": full, "raw_path": full.encode(), "query_string": b"search=caf\xff",
            "root_path": "", "headers": headers, "client": ("127.0.0.1", 5000),
            "server": ("cal.test", 80),
        }  # fmt: skip

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")  # type: ignore[misc]
        return status, body  # type: ignore[return-value]

    first, again = asyncio.run(ask()), asyncio.run(ask())
    assert 200 == first[0]
    assert first == again


@pytest.mark.parametrize("path", ["/events", "/events.ics", "/venues", "/categories", "/tags"])
@pytest.mark.parametrize("raw", ["%ff", "caf%e9", "%ed%a0%80"])
def test_a_query_that_is_not_utf8_is_a_400_naming_it(site: Site, path: str, raw: str) -> None:
    """A percent-encoded byte that is not UTF-8 (a Latin-1 ``é``, an encoded lone surrogate)
    is refused on every route, rather than read as U+FFFD on some of them."""
    response = site.get(f"{path}?search={raw}")
    assert (400, "rest_invalid_param", ["search"]) == answer(response)


def test_a_form_body_that_is_not_utf8_writes_nothing(site: Site) -> None:
    """A form-encoded title of bytes that are not UTF-8 is a 400 naming it; nothing stored."""
    before = site.get("/events").json()["total"]
    response = site.post(
        "/events",
        content=b"title=%ff%fe&start_date=2031-01-01&end_date=2031-01-02",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        as_="admin",
    )
    assert ((400, "rest_invalid_param", ["title"]), before) == (
        answer(response),
        site.get("/events").json()["total"],
    )


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data", b"junk"),
        ("multipart/form-data; boundary=", b"junk"),
        ("application/x-www-form-urlencoded", b"&".join([b"a=1"] * 1001)),
    ],
    ids=["no boundary", "empty boundary", "too many fields"],
)
def test_a_malformed_form_body_is_a_typed_400(site: Site, content_type: str, body: bytes) -> None:
    """A form body the parser cannot read is the JSON error naming the body, not plain text."""
    response = site.post(
        "/events", content=body, headers={"Content-Type": content_type}, as_="admin"
    )
    assert (400, "rest_invalid_param", ["body"]) == answer(response)


@pytest.mark.parametrize(
    ("content_type", "read"),
    [
        ("application/json", True),
        ("application/json; charset=utf-8", True),
        ("Application/JSON", True),
        ("application/merge-patch+json", True),
        ("text/plain", False),
        ("text/plain;charset=UTF-8", False),
        (None, False),
    ],
)
def test_a_body_is_read_as_json_only_when_its_type_says_so(
    site: Site, content_type: str | None, read: bool
) -> None:
    """WordPress reads a body as JSON only for a JSON media type: a tag's JSON sent as
    ``text/plain`` (which a browser sends to any site without a preflight) or with no type
    is not read, so the name is missing. Ours read any body as JSON."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = site.post("/tags", content=b'{"name": "Plain"}', headers=headers, as_="admin")
    expected = (201, None) if read else (400, "rest_missing_callback_param")
    assert expected == (response.status_code, response.json().get("code"))


@pytest.mark.parametrize(
    ("route", "field", "others"),
    [
        ("/events", "title", ', "start_date": "2031-06-15", "end_date": "2031-06-16"'),
        ("/venues", "venue", ""),
        ("/tags", "name", ""),
    ],
)
@pytest.mark.parametrize("as_", [None, "admin"])
def test_json_nested_512_deep_is_read_as_any_value(
    site: Site, route: str, field: str, others: str, as_: str | None
) -> None:
    """A body nested 512 deep, the most JSON admits, is a 400 naming the field, not a 500."""
    lists = MAX_JSON_DEPTH - 1  # the body's object is the first level
    body = f'{{"{field}": ' + "[" * lists + "]" * lists + others + "}"
    response = site.post(route, content=body, headers={"Content-Type": "application/json"}, as_=as_)
    assert (400, "rest_invalid_param", [field]) == answer(response)
