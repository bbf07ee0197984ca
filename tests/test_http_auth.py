"""Authentication and the role rules over HTTP: Basic with application passwords, bearer
tokens, 401 and 403, validation before permission, and password-protected events."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from http_helpers import EVENT_KEYS, Site, basic

GALA = {"title": "Gala", "start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}


@pytest.fixture
def site() -> Site:
    return Site()


def status_of(site: Site, method: str, path: str, as_: str | None, **kwargs: Any) -> int:
    return site.request(method, path, as_=as_, **kwargs).status_code


# -- credentials -----------------------------------------------------------------------------


def test_basic_with_the_application_password_as_issued(site: Site) -> None:
    """Basic with the login and the password as printed (groups with spaces) signs in."""
    password = site.passwords["editor"]
    assert " " in password
    response = site.post("/events", json=GALA, headers={"Authorization": basic("editor", password)})
    assert (201, "2") == (response.status_code, response.json()["author"])


def test_basic_with_the_application_password_without_spaces(site: Site) -> None:
    """The same password with its spaces removed signs in too."""
    password = site.passwords["editor"].replace(" ", "")
    response = site.post("/events", json=GALA, headers={"Authorization": basic("editor", password)})
    assert (201, "2") == (response.status_code, response.json()["author"])


def test_bearer_token_signs_in(site: Site) -> None:
    """``Authorization: Bearer <token>`` acts as the user the token was issued to."""
    token = site.cal.users.issue_token("author")
    response = site.post("/events", json=GALA, headers={"Authorization": f"Bearer {token}"})
    assert (201, "3") == (response.status_code, response.json()["author"])


def test_signed_in_reads_see_what_the_role_allows(site: Site) -> None:
    """An administrator signed in with Basic reads a draft that anonymous callers may not."""
    event = site.event(status="draft")
    assert (200, 403) == (
        status_of(site, "GET", f"/events/{event['id']}", "admin"),
        status_of(site, "GET", f"/events/{event['id']}", None),
    )


@pytest.mark.parametrize(
    "header",
    [
        basic("editor", "wrong password"),
        basic("nobody", "abcd efgh ijkl mnop qrst uvwx"),
        "Basic not-base64!",
        "Bearer ect_not-a-token",
        "Bearer ",
    ],
)
def test_bad_credentials_are_401(site: Site, header: str) -> None:
    """A wrong password, unknown login, garbled Basic or unknown token answers 401."""
    response = site.post("/events", json=GALA, headers={"Authorization": header})
    assert (401, {"status": 401}) == (response.status_code, response.json()["data"])


@pytest.mark.parametrize("value", [b"Basic \xff\xff", b"Basic \xc3\xa9", b"Basic //8="])
def test_basic_credentials_that_are_not_base64_text_are_401(site: Site, value: bytes) -> None:
    """Bytes past ASCII where base64 is expected, or base64 of bytes that are no UTF-8 text
    (``//8=``), answer 401 ``incorrect_password``, on a read as on a write, never a 500."""
    headers = {"Authorization": value}
    answers = [
        site.get("/events", headers=headers),
        site.post("/events", json=GALA, headers=headers),
    ]
    assert [(401, "incorrect_password")] * 2 == [(r.status_code, r.json()["code"]) for r in answers]


def test_bad_credentials_are_401_on_public_reads_too(site: Site) -> None:
    """Credentials that fail are refused even where anonymous access would do."""
    response = site.get("/events", headers={"Authorization": basic("editor", "wrong")})
    assert 401 == response.status_code


def test_wrong_application_password_code(site: Site) -> None:
    """A wrong application password answers WordPress's ``incorrect_password`` code."""
    response = site.get("/events", headers={"Authorization": basic("editor", "wrong")})
    assert "incorrect_password" == response.json()["code"]


def test_another_users_password_does_not_sign_in(site: Site) -> None:
    """The editor's password with the administrator's login answers 401."""
    header = basic("admin", site.passwords["editor"])
    assert 401 == site.post("/events", json=GALA, headers={"Authorization": header}).status_code


def test_a_token_is_not_an_application_password(site: Site) -> None:
    """A bearer token sent as a Basic password answers 401."""
    token = site.cal.users.issue_token("editor")
    header = basic("editor", token)
    assert 401 == site.post("/events", json=GALA, headers={"Authorization": header}).status_code


def test_an_application_password_is_not_a_token(site: Site) -> None:
    """An application password sent as a bearer token answers 401."""
    header = "Bearer " + site.passwords["editor"].replace(" ", "")
    assert 401 == site.post("/events", json=GALA, headers={"Authorization": header}).status_code


def test_removed_users_credentials_stop_working(site: Site) -> None:
    """After a user is removed their application password answers 401."""
    site.cal.users.remove("editor")
    assert 401 == status_of(site, "POST", "/events", "editor", json=GALA)


def test_basic_is_case_insensitive_about_the_scheme(site: Site) -> None:
    """``basic`` in lower case is read like ``Basic``."""
    raw = base64.b64encode(f"editor:{site.passwords['editor']}".encode()).decode()
    response = site.post("/events", json=GALA, headers={"Authorization": f"basic {raw}"})
    assert 201 == response.status_code


# -- anonymous and subscriber writes ---------------------------------------------------------


def seeded(site: Site) -> dict[str, int]:
    """One of each record, made by the administrator; returns their ids."""
    return {
        "venue": site.venue()["id"],
        "organizer": site.organizer()["id"],
        "category": site.category()["id"],
        "tag": site.tag()["id"],
        "event": site.event()["id"],
    }


WRITES = [
    ("POST", "/events", GALA),
    ("POST", "/events/{event}", {"title": "Ball"}),
    ("PUT", "/events/{event}", {"title": "Ball"}),
    ("PATCH", "/events/{event}", {"title": "Ball"}),
    ("DELETE", "/events/{event}", None),
    ("PATCH", "/events/by-slug/gala", {"title": "Ball"}),
    ("DELETE", "/events/by-slug/gala", None),
    ("POST", "/venues", {"venue": "Park"}),
    ("PATCH", "/venues/{venue}", {"city": "Lyon"}),
    ("DELETE", "/venues/{venue}", None),
    ("PUT", "/venues/by-slug/town-hall", {"city": "Lyon"}),
    ("DELETE", "/venues/by-slug/town-hall", None),
    ("POST", "/organizers", {"organizer": "Other"}),
    ("POST", "/organizers/{organizer}", {"phone": "1"}),
    ("DELETE", "/organizers/{organizer}", None),
    ("PATCH", "/organizers/by-slug/acme-events", {"phone": "1"}),
    ("DELETE", "/organizers/by-slug/acme-events", None),
    ("POST", "/categories", {"name": "Sport"}),
    ("PATCH", "/categories/{category}", {"description": "x"}),
    ("DELETE", "/categories/{category}", None),
    ("POST", "/tags", {"name": "Indoor"}),
    ("PUT", "/tags/{tag}", {"description": "x"}),
    ("DELETE", "/tags/{tag}", None),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_anonymous_writes_are_401(site: Site, method: str, path: str, body: Any) -> None:
    """Every write route refuses anonymous callers with 401 rest_forbidden."""
    ids = seeded(site)
    response = site.request(method, path.format(**ids), json=body)
    assert (401, "rest_forbidden") == (response.status_code, response.json()["code"])


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_subscriber_writes_are_403(site: Site, method: str, path: str, body: Any) -> None:
    """Every write route refuses subscribers with 403 rest_forbidden."""
    ids = seeded(site)
    response = site.request(method, path.format(**ids), json=body, as_="subscriber")
    assert (403, "rest_forbidden") == (response.status_code, response.json()["code"])


def test_refused_write_changes_nothing(site: Site) -> None:
    """After a refused update the event is unchanged."""
    event = site.event()
    site.patch(f"/events/{event['id']}", json={"title": "Hacked"})
    assert "Gala" == site.get(f"/events/{event['id']}").json()["title"]


# -- the role rules --------------------------------------------------------------------------


def test_contributor_creates_drafts(site: Site) -> None:
    """A contributor's event without a status is a draft."""
    assert "draft" == site.event(as_="contributor")["status"]


def test_contributor_asking_to_publish_gets_pending(site: Site) -> None:
    """A contributor's ``status: publish`` is scaled back to pending."""
    assert "pending" == site.event(as_="contributor", status="publish")["status"]


def test_author_publishes(site: Site) -> None:
    """An author's event is published by default."""
    assert "publish" == site.event(as_="author")["status"]


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_contributor_may_not_touch_an_administrators_event(site: Site, method: str) -> None:
    """Editing or deleting someone else's event as a contributor answers 403."""
    event = site.event()
    assert 403 == status_of(site, method, f"/events/{event['id']}", "contributor", json={})


def test_contributor_edits_their_own_draft(site: Site) -> None:
    """A contributor may edit their own draft (200)."""
    event = site.event(as_="contributor")
    response = site.patch(f"/events/{event['id']}", json={"title": "Mine"}, as_="contributor")
    assert (200, "Mine") == (response.status_code, response.json()["title"])


def test_contributor_deletes_their_own_draft(site: Site) -> None:
    """A contributor may delete their own draft (200)."""
    event = site.event(as_="contributor")
    assert 200 == status_of(site, "DELETE", f"/events/{event['id']}", "contributor")


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_contributor_may_not_touch_their_own_published_event(site: Site, method: str) -> None:
    """Once published, a contributor's own event is out of their hands (403)."""
    event = site.event(as_="contributor")
    site.patch(f"/events/{event['id']}", json={"status": "publish"}, as_="admin")
    assert 403 == status_of(site, method, f"/events/{event['id']}", "contributor", json={})


@pytest.mark.parametrize("collection", ["venues", "organizers"])
def test_contributor_may_not_edit_an_administrators_linked_record(
    site: Site, collection: str
) -> None:
    """A contributor editing an administrator's venue or organizer answers 403."""
    record = site.venue() if collection == "venues" else site.organizer()
    assert 403 == status_of(site, "PATCH", f"/{collection}/{record['id']}", "contributor", json={})


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_editor_may_touch_everyones_events(site: Site, method: str) -> None:
    """Editors edit and delete other users' events (200)."""
    event = site.event()
    assert 200 == status_of(site, method, f"/events/{event['id']}", "editor", json={})


def test_author_may_not_edit_someone_elses_event(site: Site) -> None:
    """An author editing an administrator's event answers 403."""
    event = site.event()
    assert 403 == status_of(site, "PATCH", f"/events/{event['id']}", "author", json={})


def test_author_edits_their_own_published_event(site: Site) -> None:
    """An author edits their own published event (200)."""
    event = site.event(as_="author")
    assert 200 == status_of(site, "PATCH", f"/events/{event['id']}", "author", json={"title": "X"})


@pytest.mark.parametrize(
    ("login", "collection", "status"),
    [
        ("contributor", "categories", 403),
        ("contributor", "tags", 403),
        ("author", "categories", 201),
        ("author", "tags", 403),
        ("editor", "categories", 201),
        ("editor", "tags", 201),
    ],
)
def test_who_may_create_terms(site: Site, login: str, collection: str, status: int) -> None:
    """Categories need an author or up, tags an editor or up."""
    assert status == status_of(site, "POST", f"/{collection}", login, json={"name": "New"})


def test_author_may_not_name_another_author(site: Site) -> None:
    """Only editors may set ``author`` to someone else (403 for an author)."""
    body = {**GALA, "author": site.user_ids["admin"]}
    assert 403 == status_of(site, "POST", "/events", "author", json=body)


def test_editor_may_name_another_author(site: Site) -> None:
    """An editor may create an event on behalf of another user."""
    assert "3" == site.event(as_="editor", author=site.user_ids["author"])["author"]


def test_anonymous_list_shows_only_published_events(site: Site) -> None:
    """Anonymous lists leave drafts out; an editor's list includes them."""
    site.event(title="Public")
    site.event(
        title="Draft", status="draft", start_date="2031-06-16 10:00", end_date="2031-06-16 11:00"
    )
    assert (["Public"], ["Public", "Draft"]) == (
        [e["title"] for e in site.get("/events").json()["events"]],
        [e["title"] for e in site.get("/events", as_="editor").json()["events"]],
    )


def test_contributor_reads_their_own_draft(site: Site) -> None:
    """A contributor reads their own draft by id (200)."""
    event = site.event(as_="contributor")
    assert 200 == status_of(site, "GET", f"/events/{event['id']}", "contributor")


def test_contributor_may_not_read_another_users_draft(site: Site) -> None:
    """A contributor reading an administrator's draft answers 403."""
    event = site.event(status="draft")
    assert 403 == status_of(site, "GET", f"/events/{event['id']}", "contributor")


# -- validation answers before permission ----------------------------------------------------


def test_anonymous_create_without_fields_is_400_not_401(site: Site) -> None:
    """Missing required fields answer 400 before the anonymous caller is refused."""
    response = site.post("/events", json={})
    assert (400, "rest_missing_callback_param", ["title", "start_date", "end_date"]) == (
        response.status_code,
        response.json()["code"],
        response.json()["data"]["params"],
    )


def test_anonymous_create_with_a_bad_date_is_400_not_401(site: Site) -> None:
    """An invalid field answers 400 before the anonymous caller is refused."""
    response = site.post("/events", json={**GALA, "start_date": "not-a-date"})
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_anonymous_create_of_a_nameless_venue_is_400(site: Site) -> None:
    """POST /venues without ``venue`` answers 400 even anonymously."""
    response = site.post("/venues", json={"city": "Lyon"})
    assert (400, "rest_missing_callback_param") == (response.status_code, response.json()["code"])


def test_subscriber_create_of_a_nameless_category_is_400(site: Site) -> None:
    """POST /categories without ``name`` answers 400 even for a subscriber."""
    response = site.post("/categories", json={}, as_="subscriber")
    assert (400, "rest_missing_callback_param") == (response.status_code, response.json()["code"])


def test_anonymous_delete_of_an_unknown_venue_is_400(site: Site) -> None:
    """Deleting an unknown venue id anonymously answers 400, not 401."""
    response = site.delete("/venues/999999")
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_subscriber_delete_of_an_unknown_category_is_400(site: Site) -> None:
    """Deleting an unknown category id as a subscriber answers 400, not 403."""
    response = site.delete("/categories/999999", as_="subscriber")
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_anonymous_update_of_an_unknown_event_is_400(site: Site) -> None:
    """Updating an unknown event id anonymously answers 400, not 401."""
    response = site.patch("/events/999999", json={"title": "x"})
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_anonymous_update_with_a_bad_value_is_400(site: Site) -> None:
    """A bad value in an anonymous update of an existing event answers 400, not 401."""
    event = site.event()
    response = site.patch(f"/events/{event['id']}", json={"status": "bogus"})
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_valid_anonymous_write_is_then_refused(site: Site) -> None:
    """With valid input the anonymous create reaches the permission check: 401."""
    assert 401 == site.post("/events", json=GALA).status_code


# -- password-protected events (DESIGN section 3) --------------------------------------------


@pytest.fixture
def locked(site: Site) -> dict[str, Any]:
    """A published event with a description, a cost and a venue, protected by "s3cret"."""
    venue = site.venue()
    event = site.event(
        description="Members only", cost="10", venue=venue["id"], featured=True, slug="members"
    )
    assert (
        200
        == site.patch(
            f"/events/{event['id']}", json={"password": "s3cret"}, as_="admin"
        ).status_code
    )
    return event


def test_password_protected_event_is_refused_without_the_password(
    site: Site, locked: dict[str, Any]
) -> None:
    """An anonymous read without the password answers 403 event-password-protected."""
    response = site.get(f"/events/{locked['id']}")
    assert (403, "event-password-protected") == (response.status_code, response.json()["code"])


def test_password_protected_event_is_refused_with_a_wrong_password(
    site: Site, locked: dict[str, Any]
) -> None:
    """A wrong password answers 403 event-password-protected."""
    response = site.get(f"/events/{locked['id']}", params={"password": "wrong"})
    assert (403, "event-password-protected") == (response.status_code, response.json()["code"])


def test_password_protected_event_reads_with_the_password(
    site: Site, locked: dict[str, Any]
) -> None:
    """With the right password the full event is served, without json_ld."""
    response = site.get(f"/events/{locked['id']}", params={"password": "s3cret"})
    body = response.json()
    assert (200, EVENT_KEYS, "Members only", "$10") == (
        response.status_code,
        list(body),
        body["description"],
        body["cost"],
    )


def test_password_protected_event_by_slug_is_refused_without_the_password(
    site: Site, locked: dict[str, Any]
) -> None:
    """The by-slug route enforces the password too."""
    assert (403, 200) == (
        site.get("/events/by-slug/members").status_code,
        site.get("/events/by-slug/members", params={"password": "s3cret"}).status_code,
    )


def test_administrator_needs_the_password_too(site: Site, locked: dict[str, Any]) -> None:
    """An administrator reading without the password (and without context=edit) gets 403."""
    assert 403 == status_of(site, "GET", f"/events/{locked['id']}", "admin")


def test_editor_with_edit_context_reads_without_the_password(
    site: Site, locked: dict[str, Any]
) -> None:
    """``context=edit`` lets a user who may edit the event read it without the password."""
    response = site.get(f"/events/{locked['id']}", params={"context": "edit"}, as_="editor")
    assert (200, "Members only") == (response.status_code, response.json()["description"])


def test_edit_context_does_not_help_anonymous_callers(site: Site, locked: dict[str, Any]) -> None:
    """``context=edit`` without the right to edit still answers 403."""
    assert 403 == status_of(
        site, "GET", f"/events/{locked['id']}", None, params={"context": "edit"}
    )


def test_password_protected_event_is_blanked_in_anonymous_lists(
    site: Site, locked: dict[str, Any]
) -> None:
    """In a list the event stays with its content blanked (fact sheet 4.6); its flags keep
    their values, as the recorded lists show them (evlist_range)."""
    [item] = site.get("/events").json()["events"]
    assert (EVENT_KEYS, "Gala", "2031-06-15 19:00:00") == (
        list(item),
        item["title"],
        item["start_date"],
    )
    assert {
        "description": "",
        "excerpt": "",
        "image": False,
        "all_day": False,
        "cost": "",
        "cost_details": {
            "currency_symbol": "",
            "currency_position": "",
            "currency_code": "",
            "values": [],
        },
        "website": "",
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": True,
        "categories": [],
        "tags": [],
        "venue": [],
        "organizer": [],
        "custom_fields": [],
    } == {k: item[k] for k in EVENT_KEYS if k in _BLANKED}


_BLANKED = {
    "description",
    "excerpt",
    "image",
    "all_day",
    "cost",
    "cost_details",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "categories",
    "tags",
    "venue",
    "organizer",
    "custom_fields",
}


def test_blanked_cost_details_keep_the_reference_key_order(
    site: Site, locked: dict[str, Any]
) -> None:
    """Blanked cost_details list symbol, position, code, values, in that order."""
    [item] = site.get("/events").json()["events"]
    assert ["currency_symbol", "currency_position", "currency_code", "values"] == list(
        item["cost_details"]
    )


def test_anonymous_delete_with_the_password_is_still_401(
    site: Site, locked: dict[str, Any]
) -> None:
    """Knowing the password gives no right to delete (401 for anonymous callers)."""
    response = site.delete(f"/events/{locked['id']}", params={"password": "s3cret"})
    assert (401, "rest_forbidden") == (response.status_code, response.json()["code"])
