"""``http.origin``: the origin Starlette's ``request.url`` gives, worked out once per host."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from events_calendar.http.origin import address, origin

HOSTS = st.one_of(
    st.none(),
    st.sampled_from(
        [
            b"example.org", b"example.org:80", b"example.org:8443", b"[::1]:8000", b"[::1]",
            b"[zz::1]", b"bad host", b"", b"h:99999", b"h:", b"EXAMPLE.org", b"a.b:0",
        ]
    ),
    st.binary(max_size=12),
)  # fmt: skip
SERVERS = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from(["127.0.0.1", "::1", "example.org"]), st.sampled_from([80, 443, 8000])
    ),
)


def _scope(scheme: str, host: bytes | None, server: Any) -> dict[str, Any]:
    headers = [(b"accept", b"*/*")] + ([] if host is None else [(b"host", host)])
    return {
        "type": "http", "method": "GET", "scheme": scheme, "server": server,
        "path": "/wp-json/tribe/events/v1/events", "query_string": b"page=2", "headers": headers,
    }  # fmt: skip


@given(scheme=st.sampled_from(["http", "https"]), host=HOSTS, server=SERVERS)
def test_origin_is_what_request_url_spells(scheme: str, host: bytes | None, server: Any) -> None:
    """Valid, invalid and missing Host headers, default and other ports, IPv6 servers."""
    scope = _scope(scheme, host, server)
    url = Request(scope).url
    assert origin(scope) == f"{url.scheme}://{url.netloc}"


def test_origin_examples() -> None:
    assert origin(_scope("https", b"cal.example.org", ("10.0.0.1", 8000))) == (
        "https://cal.example.org"
    )
    assert origin(_scope("http", None, ("::1", 8000))) == "http://[::1]:8000"
    assert origin(_scope("http", b"bad host", ("127.0.0.1", 80))) == "http://127.0.0.1"


def test_address_reads_any_query_byte() -> None:
    """Origin, path and query; a byte that is not UTF-8 is read, not refused."""
    scope = {**_scope("http", b"cal.test", None), "query_string": b"search=caf\xff"}
    assert ("http://cal.test", "/wp-json/tribe/events/v1/events", "search=caf\xff") == address(
        scope
    )
