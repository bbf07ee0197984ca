"""Stored markup (issue 9, item 4): contributors' and authors' HTML is sanitised as WordPress's
kses does, JSON-LD is escaped for a ``<script>`` element, organizer emails are email addresses."""

from __future__ import annotations

import pytest

from http_helpers import Site

ATTACK = '<b>Jazz</b><script>alert(1)</script><img src="x" onerror="alert(2)">'


@pytest.fixture
def site() -> Site:
    return Site()


@pytest.mark.parametrize("role", ["contributor", "author"])
def test_a_description_loses_scripts_and_handlers(site: Site, role: str) -> None:
    """Contributors' and authors' descriptions keep allowed tags, lose scripts and handlers."""
    event = site.event(as_=role, description=ATTACK)
    assert '<b>Jazz</b><img src="x">' == event["description"]


@pytest.mark.parametrize("role", ["contributor", "author"])
def test_a_title_keeps_only_inline_tags(site: Site, role: str) -> None:
    """A title keeps WordPress's inline tags (``<em>``) and loses the others (``<img>``)."""
    event = site.event(as_=role, title='<em>Gala</em><img src="x">')
    assert "<em>Gala</em>" == event["title"]


def test_plain_text_is_stored_as_sent(site: Site) -> None:
    """Text without markup is untouched (its ampersands are not escaped)."""
    assert "Fish & Chips" == site.event(as_="author", title="Fish & Chips")["title"]


def test_a_link_to_javascript_loses_its_href(site: Site) -> None:
    """A ``javascript:`` link keeps its text and loses the link."""
    event = site.event(as_="author", description='<a href="javascript:alert(1)">go</a>')
    assert "<a>go</a>" == event["description"]


@pytest.mark.parametrize("field", ["address", "city", "phone"])
def test_plain_venue_fields_keep_no_tags(site: Site, field: str) -> None:
    """A venue's plain fields keep no tags at all."""
    venue = site.venue(as_="author", **{field: "<b>1</b> Main"})
    assert "1 Main" == venue[field]


def test_an_inline_venue_of_an_event_is_sanitised(site: Site) -> None:
    """A venue created inline with an event is cleaned like one created on its own."""
    event = site.event(as_="author", venue={"venue": "Hall<script>x</script>"})
    assert "Hall" == event["venue"]["venue"]


def test_an_author_category_description_is_sanitised(site: Site) -> None:
    """Terms an author creates are cleaned too."""
    term = site.category(as_="author", description="<i>ok</i><script>x</script>")
    assert "<i>ok</i>" == term["description"]


def test_an_editor_posts_unfiltered_html(site: Site) -> None:
    """Editors (WordPress's ``unfiltered_html``) keep their markup as sent."""
    assert ATTACK == site.event(as_="editor", description=ATTACK)["description"]


def test_json_ld_escapes_the_event_name(site: Site) -> None:
    """The JSON-LD ``name`` is HTML-escaped, as its ``description`` is."""
    event = site.event(as_="editor", title="<b>A</b> & B")
    json_ld = site.get(f"/events/{event['id']}").json()["json_ld"]
    assert "&lt;b&gt;A&lt;/b&gt; &amp; B" == json_ld["name"]


def test_json_ld_never_holds_a_closing_script_tag(site: Site) -> None:
    """No value of an event's JSON-LD can close the ``<script>`` element it is placed in."""
    hall = site.venue(venue="</script>Hall", address="</script>1 Main")
    event = site.event(as_="editor", title="</script>", description="</script>", venue=hall["id"])
    body = site.get(f"/events/{event['id']}").text
    json_ld = body[body.index('"json_ld"') :]
    assert ("</script>" in json_ld, "</script>" in body) == (False, True)


@pytest.mark.parametrize("email", ["not an email", "a@b", "<x>@example.org"])
def test_an_organizer_email_must_be_an_email_address(site: Site, email: str) -> None:
    """An organizer ``email`` that is not an address is a 400 naming ``email``."""
    response = site.post("/organizers", json={"organizer": "Acme", "email": email}, as_="admin")
    assert (400, {"email": "Invalid parameter."}) == (
        response.status_code,
        response.json()["data"]["params"],
    )


def test_an_organizer_email_may_be_cleared(site: Site) -> None:
    """``email: ""`` clears the address."""
    organizer = site.organizer(email="info@example.org")
    response = site.post(f"/organizers/{organizer['id']}", json={"email": ""}, as_="admin")
    assert (200, False) == (response.status_code, "email" in response.json())
