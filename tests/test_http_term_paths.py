"""The archive path of categories in term lists: computed by the core for a whole page, one
batch of ancestors per level, and shown in each term's ``url``."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from http_helpers import SITE, Site


@pytest.fixture
def site() -> Site:
    return Site()


def tree(cal: ec.Calendar) -> dict[str, Any]:
    """Music > Jazz > Bebop, and Sports > Tennis."""
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id)
    bebop = cal.categories.create(name="Bebop", parent=jazz.id)
    sports = cal.categories.create(name="Sports")
    tennis = cal.categories.create(name="Tennis", parent=sports.id)
    return {"music": music, "jazz": jazz, "bebop": bebop, "sports": sports, "tennis": tennis}


def test_paths_run_from_the_root_category_down() -> None:
    """``categories.paths`` gives each term its slugs from the root down to itself."""
    cal = ec.connect("memory://")
    terms = tree(cal)
    paths = cal.categories.paths([terms["bebop"], terms["tennis"], terms["music"]])
    assert {
        terms["bebop"].id: ["music", "jazz", "bebop"],
        terms["tennis"].id: ["sports", "tennis"],
        terms["music"].id: ["music"],
    } == paths


def test_paths_load_ancestors_once_per_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of terms costs one ancestor lookup per level, not one per ancestor per term."""
    cal = ec.connect("memory://")
    terms = tree(cal)
    calls: list[list[int]] = []
    original = cal.backend.get_many

    def counting(kind: Any, ids: Any) -> Any:
        calls.append(list(ids))
        return original(kind, ids)

    monkeypatch.setattr(cal.backend, "get_many", counting)
    cal.categories.paths([terms["bebop"], terms["tennis"]])
    assert [sorted([terms["jazz"].id, terms["sports"].id]), [terms["music"].id]] == calls


def test_category_list_urls_show_each_path(site: Site) -> None:
    """GET /categories shows each category's url under its ancestors' slugs."""
    tree(site.cal)
    listed = site.get("/categories", params={"hide_empty": "false", "orderby": "id"}).json()
    assert [
        SITE + "/events/category/music/",
        SITE + "/events/category/music/jazz/",
        SITE + "/events/category/music/jazz/bebop/",
        SITE + "/events/category/sports/",
        SITE + "/events/category/sports/tennis/",
    ] == [c["url"] for c in listed["categories"]]
