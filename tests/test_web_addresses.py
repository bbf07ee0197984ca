"""Website and image addresses: the server takes exactly what /doc's pattern promises."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.web_addresses import URL_DOC_PATTERN, host_of, path_of, read_web_url

DOC = re.compile(URL_DOC_PATTERN)

#: Text near the edge of the rule: schemes, separators, blanks and control characters.
_PIECES = st.sampled_from(
    ["http://", "HTTPS://", "ftp://", "x", "ü", ".", "/", "?", "#", "[", "]", "@", ":", "*",
     " ", "\t", "\n", "\x00", "\x1f", "\x7f", "\x85", "\ufeff", "\u3000", "\uff03", "%20",
     '"', "<", ">", "\\"]
)  # fmt: skip


@given(st.one_of(st.from_regex(DOC), st.text(), st.lists(_PIECES).map("".join)))
def test_the_server_takes_what_the_doc_pattern_matches_and_nothing_else(text: str) -> None:
    # jsonschema applies a pattern with re.search, as here.
    assert (read_web_url(text) is not None) == bool(DOC.search(text)), repr(text)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("https://example.org", "https://example.org"),
        ("  http://example.org/a?b=1#c \n", "http://example.org/a?b=1#c"),
        ("HTTP://Example.org", "HTTP://Example.org"),
        ("http://bücher.example/", "http://bücher.example/"),
        (" \t", ""),
    ],
)
def test_addresses_are_trimmed(given: str, stored: str) -> None:
    assert read_web_url(given) == stored


@pytest.mark.parametrize(
    "given",
    [
        "http://[abc",  # urlsplit raised a bare ValueError here: a 500
        "http://a\tb.org",  # urlsplit dropped the tab silently
        "http://example.org/a b",
        "http://x\x00.org",
        "ftp://example.org",
        "example.org",
        "http://",
        "http:///path",
        'https://a.org/"><script>alert(1)</script>',  # out of an href a client writes
        "https://a.org/</script><svg/onload=alert(1)>",
        "http://127.0.0.1\\@example.com/",  # a loopback address to a browser
    ],
)
def test_a_venue_website_that_is_no_address_is_refused(given: str) -> None:
    calendar = ec.connect("memory://")
    with pytest.raises(InvalidParameter) as caught:
        calendar.venues.create(venue="Hall", website=given)
    assert list(caught.value.fields) == ["website"]
    assert calendar.venues.list().total == 0


def test_host_and_path_of_an_address() -> None:
    url = "https://user:secret@Images.Example.org:8443/a/b.JPG?size=2#top"
    assert host_of(url) == "images.example.org"
    assert path_of(url) == "/a/b.JPG"
    assert path_of("https://example.org") == ""


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",  # 127.0.0.1 as one number
        "0x7f000001",
        "0177.0.0.1",
        "127.1",
        "0",
        "0xa9fea9fe",  # 169.254.169.254, the cloud metadata address
        "2852039166",
        "10.1",  # 10.0.0.1
        "127\u30020\u30020\u30021",  # ideographic full stops
        "\uff11\uff12\uff17.0.0.1",  # fullwidth digits
        "%31%32%37.0.0.1",
        "256.1.1.1",  # no address at all: a browser refuses the URL
    ],
)
def test_an_image_on_a_loopback_or_private_address_in_any_spelling_is_refused(
    host: str,
) -> None:
    """A browser reads these hosts as loopback, private or link-local addresses (the URL
    standard's IPv4 forms, percent-escapes, compatibility characters), or as no host: an
    event image there is refused, as ``http://127.0.0.1/`` is (they were taken)."""
    calendar = ec.connect("memory://")
    day = {"start_date": "2031-01-10 10:00", "end_date": "2031-01-10 11:00"}
    with pytest.raises(InvalidParameter) as caught:
        calendar.events.create(title="T", image=f"http://{host}/a.jpg", **day)
    assert (["image"], 0) == (list(caught.value.fields), calendar.events.list().total)


@pytest.mark.parametrize("host", ["example.org", "8.8.8.8", "3.14", "images.example.org."])
def test_an_image_on_a_public_host_is_taken(host: str) -> None:
    """Public addresses and host names (``3.14`` is 3.0.0.14 to a browser) are taken."""
    calendar = ec.connect("memory://")
    day = {"start_date": "2031-01-10 10:00", "end_date": "2031-01-10 11:00"}
    image = f"http://{host}/a.jpg"
    assert image == calendar.events.create(title="T", image=image, **day).image
