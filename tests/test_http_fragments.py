"""Listed events' wire objects kept between requests (``http/fragments.py``): reused when
every value they show is the same, never shown stale after a write."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

import attrs
import httpx
import orjson
import pytest
from tests.http_helpers import NOW, SITE, basic

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.fragments import Exactly, Fragments
from events_calendar.http.responses import dumps
from events_calendar.http.urls import Urls
from events_calendar.http.wire import Wire

API = "/wp-json/tribe/events/v1"
WHEN = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}


def _get(app: Any, path: str, headers: dict[str, str] | None = None) -> bytes:
    async def go() -> bytes:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            response = await client.get(API + path, headers=headers)
            assert 200 == response.status_code, response.text
            return response.content

    return asyncio.run(go())


def _calendar() -> tuple[ec.Calendar, dict[str, int]]:
    cal = ec.connect("sqlite://", clock=ec.FixedClock(NOW))
    hall = cal.venues.create(venue="Hall", city="Lyon")
    acme = cal.organizers.create(organizer="Acme")
    music = cal.categories.create(name="Music")
    outdoor = cal.tags.create(name="Outdoor")
    gala = cal.events.create(
        title="Gala", **WHEN, venue=[hall.id], organizer=[acme.id], categories=[music.id],
        tags=[outdoor.id], cost="10",
    )  # fmt: skip
    fair = cal.events.create(title="Fair", **WHEN, categories=[music.id])
    ids = {"hall": hall.id, "acme": acme.id, "music": music.id, "outdoor": outdoor.id}
    return cal, {**ids, "gala": gala.id, "fair": fair.id}


#: Writes that change what a listed event shows without changing the event's own row, or
#: change it: each must show in the next list.
WRITES: dict[str, Callable[[ec.Calendar, dict[str, int]], object]] = {
    "rename the venue": lambda cal, i: cal.venues.update(i["hall"], venue="Barn"),
    "rename the organizer": lambda cal, i: cal.organizers.update(i["acme"], organizer="Zeta"),
    "rename the category": lambda cal, i: cal.categories.update(i["music"], name="Jazz"),
    "another event in the tag (its count)": lambda cal, i: cal.events.create(
        title="Walk", **WHEN, tags=[i["outdoor"]]
    ),
    "protect an event with a password": lambda cal, i: cal.events.update(
        i["gala"], password="secret"
    ),
    "reschedule an event": lambda cal, i: cal.events.update(
        i["fair"], start_date="2031-06-15 20:00:00"
    ),
}
PATHS = ["/events", "/events?categories={music}", "/events?per_page=1", "/events?search=a"]


def test_a_single_read_shows_what_the_caller_may_read_of_the_same_records() -> None:
    """One event with a draft organizer, read by an anonymous caller and by an editor from
    an app keeping wire objects: each gets the answer of an app that keeps none (the
    organizer's JSON-LD only for the editor), and the kept app reuses neither for the other."""
    cal, ids = _calendar()
    cal.organizers.update(ids["acme"], status="draft")
    cal.users.create("ed", role="editor")
    editor = {"Authorization": basic("ed", cal.users.issue_password("ed"))}
    kept, plain = create_app(cal, cache=False), create_app(cal, cache=False, fragments=False)
    path = f"/events/{ids['gala']}"
    answers = [_get(app, path, who) for who in (None, editor, None) for app in (kept, plain)]
    assert answers[0] == answers[1] == answers[4] == answers[5]
    assert answers[2] == answers[3] != answers[0]
    assert b'"organizer":false' in answers[0].replace(b" ", b"")


@pytest.mark.parametrize("write", sorted(WRITES))
def test_lists_with_kept_objects_answer_what_lists_without_them_answer(write: str) -> None:
    """After every kind of write, each list from an app keeping wire objects (warmed before
    the write) is byte for byte the answer of an app that keeps none."""
    cal, ids = _calendar()
    kept, plain = create_app(cal, cache=False), create_app(cal, cache=False, fragments=False)
    paths = [p.format(**ids) for p in PATHS]
    before = {p: _get(kept, p) for p in paths}
    assert before == {p: _get(plain, p) for p in paths}
    WRITES[write](cal, ids)
    after = {p: _get(kept, p) for p in paths}
    assert {p: _get(plain, p) for p in paths} == after
    assert before != after


def test_an_event_shown_again_reuses_its_object_until_a_linked_record_changes() -> None:
    """The same event with the same links is presented once; a renamed venue makes a new
    object with the new name."""
    cal, ids = _calendar()
    fragments = Fragments()
    wire = Wire(Urls(SITE, "/wp-json", "tribe/events/v1"), cal.settings, cal.zone, list, fragments)
    gala = cal.events.get(ids["gala"])
    first = wire.event(gala, cal.events.related([gala]))
    again = wire.event(cal.events.get(ids["gala"]), cal.events.related([gala]))
    cal.venues.update(ids["hall"], venue="Barn")
    renamed = wire.event(gala, cal.events.related([gala]))
    assert (True, 1, 2, "Hall", "Barn") == (
        first is again,
        fragments.hits,
        fragments.misses,
        orjson.loads(dumps(first))["venue"]["venue"],
        orjson.loads(dumps(renamed))["venue"]["venue"],
    )


def test_kept_objects_are_serialised_out_of_the_collectors_way() -> None:
    """A kept object is one serialised part, which the garbage collector does not walk, and
    an answer holding it is written as if it held the object itself."""
    cal, ids = _calendar()
    urls = Urls(SITE, "/wp-json", "tribe/events/v1")
    kept = Wire(urls, cal.settings, cal.zone, list, Fragments())
    plain = Wire(urls, cal.settings, cal.zone, list)
    gala = cal.events.get(ids["gala"])
    related = cal.events.related([gala])
    part, whole = kept.event(gala, related), plain.event(gala, related)
    assert (False, True) == (gc.is_tracked(part), gc.is_tracked(whole))
    assert dumps({"events": [whole], "total": 1}) == dumps({"events": [part], "total": 1})


def test_fragments_keep_at_most_their_bound_dropping_the_oldest() -> None:
    """With room for two, a third object pushes out the first made; the others stay."""
    fragments = Fragments(max_entries=2)
    for key in ("a", "b", "c"):
        fragments.get(key, lambda key=key: {"made": key})
    remade = fragments.get("a", lambda: {"made": "again"})
    assert (2, {"made": "again"}, 4) == (len(fragments), remade, fragments.misses)


def test_versions_of_an_event_changed_within_one_second_are_kept_apart() -> None:
    """An event's key is hashed by kind, id and ``modified`` alone (``Exactly``), so two
    versions written in the same second share a hash: each is still presented as it is."""
    cal, ids = _calendar()
    fragments = Fragments()
    wire = Wire(Urls(SITE, "/wp-json", "tribe/events/v1"), cal.settings, cal.zone, list, fragments)
    gala = cal.events.get(ids["gala"])
    renamed = attrs.evolve(gala, title="Ball")
    related = cal.events.related([gala])
    shown = [orjson.loads(dumps(wire.event(e, related)))["title"] for e in (gala, renamed, gala)]
    assert (["Gala", "Ball", "Gala"], 1, 2) == (shown, fragments.hits, fragments.misses)
    assert (hash(Exactly(gala)), True, False) == (
        hash(Exactly(renamed)),
        Exactly(gala) == Exactly(attrs.evolve(gala)),
        Exactly(gala) == Exactly(renamed),
    )


def test_a_date_moved_to_another_offset_within_one_second_is_shown_anew() -> None:
    """``date`` sent with ``date_utc`` keeps the offset sent: a second version at the same
    instant and another offset, written in the same second, is an equal record, and was
    shown with the first version's wall clock from the kept object."""
    cal, ids = _calendar()
    gala = ids["gala"]
    app = create_app(cal, cache=False)

    def shown() -> tuple[str, str]:
        listed = orjson.loads(_get(app, "/events?start_date=2031-01-01"))["events"]
        single = orjson.loads(_get(app, f"/events/{gala}"))
        return single["date"], next(e["date"] for e in listed if e["id"] == gala)

    cal.events.update(gala, date="2024-01-01 10:00:00", date_utc="2024-01-01 08:00:00")
    before = shown()
    cal.events.update(gala, date="2024-01-01 09:00:00", date_utc="2024-01-01 08:00:00")
    assert (("2024-01-01 10:00:00",) * 2, ("2024-01-01 09:00:00",) * 2) == (before, shown())
