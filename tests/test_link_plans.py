"""An event list filtered by venue, organizer, category or tag answers the same whichever way
its links are read (``backends.sql.link_plans``), on SQLite and PostgreSQL, as memory does;
and ``choose`` picks the plan the measured cases call for."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.sql_backends import BOTH, BOTH_IDS, Backend

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.sql import store
from events_calendar.backends.sql.link_plans import (
    RARE_LINKS,
    Plan,
    choose,
    choose_search,
    choose_search_count,
)
from events_calendar.backends.sqlite import SQLiteBackend

NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
PLANS: list[Plan] = ["drive", "index", "list", "probe"]
MILLION = 1_000_000


# -- choosing ------------------------------------------------------------------------------
def test_rare_links_are_read_first() -> None:
    """Two small venues (470 links) in a window of a million events: walking the window for
    them took 23 ms, reading their events first 0.2 ms."""
    assert choose({"venue_ids": 470}, MILLION, 10) == {"venue_ids": "drive"}


def test_common_links_are_probed_along_the_walk() -> None:
    """A category with its sub-categories (300,000 links, counted only up to the bound): a
    page is found after a few dozen probes."""
    assert choose({"category_ids": RARE_LINKS + 1}, MILLION, 10) == {"category_ids": "probe"}


def test_a_small_calendar_walks_a_short_way() -> None:
    """At 10,000 events the same category has ~3,000 links: a page is ~30 events into the
    walk, cheaper than 3,000 lookups."""
    assert choose({"category_ids": 3000}, 10_000, 10) == {"category_ids": "probe"}


def test_middling_links_are_collected() -> None:
    """A tag with 2,126 links at a million events: a page is ~4,700 events into the walk,
    too many to probe, and collecting 2,126 ids costs less than looking each event up."""
    assert choose({"tag_ids": 2126}, MILLION, 10) == {"tag_ids": "list"}


def test_a_deep_page_reads_the_links_first() -> None:
    """The same tag at offset 80: the walk would be ~42,000 events long."""
    assert choose({"tag_ids": 2126}, MILLION, 90) == {"tag_ids": "drive"}


def test_one_filter_at_most_leads_and_the_others_are_probed() -> None:
    plans = choose({"venue_ids": 12, "category_ids": 9000, "tag_ids": 40}, MILLION, 10)
    assert plans == {"venue_ids": "drive", "category_ids": "probe", "tag_ids": "probe"}


def test_a_count_reads_rare_links_first_and_probes_common_ones() -> None:
    assert choose({"venue_ids": 3000}, MILLION, None) == {"venue_ids": "drive"}
    assert choose({"venue_ids": RARE_LINKS + 1}, MILLION, None) == {"venue_ids": "probe"}


def test_no_link_filter_no_plan() -> None:
    assert choose({}, MILLION, 10) == {}


def test_one_id_walks_its_listing_index() -> None:
    """A venue of 1,776 links: every other plan took 7-65 ms at a million events."""
    assert choose({"venue_ids": 1776}, MILLION, 10, single={"venue_ids"}) == {"venue_ids": "index"}


def test_one_id_walks_its_index_for_a_count_too() -> None:
    assert choose({"tag_ids": 156_117}, MILLION, None, single={"tag_ids"}) == {"tag_ids": "index"}


def test_the_one_id_filter_leads_and_a_tree_of_categories_is_probed() -> None:
    plans = choose(
        {"venue_ids": 11_346, "category_ids": RARE_LINKS + 1}, MILLION, 10, single={"venue_ids"}
    )
    assert plans == {"venue_ids": "index", "category_ids": "probe"}


def test_of_two_one_id_filters_the_one_with_fewer_links_leads() -> None:
    plans = choose(
        {"venue_ids": 11_346, "tag_ids": 2_342}, MILLION, 10, single={"venue_ids", "tag_ids"}
    )
    assert plans == {"venue_ids": "probe", "tag_ids": "index"}


# -- answering alike -----------------------------------------------------------------------


@pytest.fixture(params=BOTH, ids=BOTH_IDS, scope="module")
def opened(request: pytest.FixtureRequest) -> Callable[[], Backend]:
    factory: Callable[[], Backend] = request.param
    return factory


def _fill(cal: ec.Calendar, events: list[dict[str, Any]]) -> list[int]:
    """The events with their venues and terms (``Jazz`` under ``Music``); the venues' ids."""
    venues = [cal.venues.create(venue=f"Hall {n}").id for n in range(3)]
    parent = cal.categories.create(name="Music").id
    cal.categories.create(name="Jazz", parent=parent)
    for fields in events:
        start = datetime.strptime(fields["start_date"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
        end = start + timedelta(seconds=int(fields["duration"]))
        cal.events.create(
            **{key: value for key, value in fields.items() if key not in ("duration", "venue")},
            end_date=f"{end:%Y-%m-%d %H:%M}",
            venue=[venues[i] for i in fields["venue"]],
        )
    return venues


EVENTS = st.lists(
    st.fixed_dictionaries(
        {
            "title": st.just("Gig"),
            "start_date": st.integers(-40, 40).map(
                lambda d: f"{NOW + timedelta(days=d):%Y-%m-%d} 20:00"
            ),
            "duration": st.integers(0, 3).map(lambda d: f"{d * 60 * 60}"),
            "status": st.sampled_from(["publish", "publish", "draft"]),
            "venue": st.lists(st.integers(0, 2), max_size=1),
            "categories": st.lists(st.sampled_from(["Music", "Jazz", "Folk"]), max_size=2),
            "tags": st.lists(st.sampled_from(["late", "free"]), max_size=2),
        }
    ),
    min_size=1,
    max_size=25,
)
QUERIES = st.fixed_dictionaries(
    {
        "page": st.integers(1, 3),
        "per_page": st.integers(1, 7),
        "start_date": st.sampled_from([None, f"{NOW - timedelta(days=10):%Y-%m-%d}"]),
    },
    optional={
        "venue": st.lists(st.integers(0, 2), min_size=1, max_size=2),
        "categories": st.lists(st.sampled_from(["music", "jazz", "folk"]), min_size=1),
        "tags": st.lists(st.sampled_from(["late", "free"]), min_size=1),
    },
)


def _answer(cal: ec.Calendar, query: dict[str, Any]) -> Any:
    try:
        page = cal.as_user(None).events.list(**query)
    except ec.errors.CalendarError as error:
        return type(error).__name__
    return [event.title for event in page.items], [e.id for e in page.items], page.total


@pytest.mark.parametrize("plan", PLANS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=EVENTS, queries=st.lists(QUERIES, min_size=1, max_size=6))
def test_every_plan_lists_what_memory_lists(
    opened: Callable[[], Backend],
    plan: Plan,
    events: list[dict[str, Any]],
    queries: list[dict[str, Any]],
) -> None:
    """Each plan forced on every link filter it can read (a count too) gives memory's page
    and total."""

    def forced(links: dict[str, int], *_: Any, single: set[str], **__: Any) -> dict[str, Plan]:
        # A listing index walks one id: filters of several ids are probed instead.
        return {f: "probe" if plan == "index" and f not in single else plan for f in links}

    clock = ec.FixedClock(NOW)
    memory = ec.Calendar(MemoryBackend(), clock=clock)
    tested = ec.Calendar(opened(), clock=clock)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "choose", forced)
        try:
            venues = _fill(memory, events)
            assert _fill(tested, events) == venues
            for query in queries:
                if "venue" in query:
                    query = {**query, "venue": [venues[i] for i in query["venue"]]}
                assert _answer(tested, query) == _answer(memory, query)
        finally:
            memory.close()
            tested.close()


# -- searches --------------------------------------------------------------------------------
def test_a_common_word_is_checked_along_the_walk() -> None:
    """ "jazz" at a million events: 64 matches by id 2,150 (3%); a page is ~340 events into
    the walk, where listing all ~30,000 matches first took 20 ms."""
    assert "probe" == choose_search(64, 2_150, MILLION, 10)


def test_a_rare_word_is_listed_by_the_text_index() -> None:
    assert choose_search(64, 400_000, MILLION, 10) is None
    assert choose_search(12, 900_000, MILLION, 10) is None  # fewer than the sample: few at all


def test_a_counted_search_lists_its_matches_first() -> None:
    assert choose_search(64, 2_150, MILLION, None) is None


def test_a_count_of_a_rare_word_loops_over_its_matches() -> None:
    """ "jazz" (64 matches by id 2,150: ~30,000) in the default window of 381,000 events."""
    assert "drive" == choose_search_count(64, 2_150, MILLION, 381_000)
    assert "drive" == choose_search_count(0, 0, MILLION, 381_000)  # no match at all
    assert "drive" == choose_search_count(12, 900_000, MILLION, 1_000)  # the sample is all


def test_a_count_of_a_word_in_most_events_walks_its_window() -> None:
    assert choose_search_count(64, 80, MILLION, 381_000) is None
    assert choose_search_count(64, 2_150, MILLION, 5_000) is None  # a narrow window


WORDS = ["jazz", "folk", "organ", "piano", "la"]
TEXTS = st.lists(st.sampled_from([*WORDS, "JAZZ", "Jazzy", "concert", "ß"]), max_size=4).map(
    " ".join
)
SEARCHED = st.lists(
    st.fixed_dictionaries(
        {
            "title": TEXTS,
            "description": TEXTS,
            "excerpt": TEXTS,
            "password": st.sampled_from(["", "", "pw"]),
            "status": st.sampled_from(["publish", "publish", "draft"]),
            "day": st.integers(-5, 20),
        }
    ),
    min_size=1,
    max_size=20,
)


def _create_searched(cal: ec.Calendar, events: list[dict[str, Any]]) -> None:
    """The generated events (``SEARCHED``), each on its day."""
    for fields in events:
        day = NOW + timedelta(days=fields["day"])
        cal.events.create(
            title=fields["title"] or "Untitled",
            description=fields["description"],
            excerpt=fields["excerpt"],
            password=fields["password"],
            status=fields["status"],
            start_date=f"{day:%Y-%m-%d} 20:00",
            end_date=f"{day:%Y-%m-%d} 22:00",
        )


#: Searches asked: words, page size, anonymous or not.
QUERIES = st.lists(
    st.tuples(
        st.lists(st.sampled_from([*WORDS, "jazz folk", "zz"]), min_size=1, max_size=2).map(
            " ".join
        ),
        st.integers(1, 4),
        st.booleans(),
    ),
    min_size=1,
    max_size=5,
)


def _searches_agree(
    opened: Callable[[], Backend],
    events: list[dict[str, Any]],
    queries: list[tuple[str, int, bool]],
    chooser: str,
    plan: Plan,
) -> None:
    """Every search gives memory's page and total when ``store.<chooser>`` always picks
    ``plan``."""
    clock = ec.FixedClock(NOW)
    memory = ec.Calendar(MemoryBackend(), clock=clock)
    tested = ec.Calendar(opened(), clock=clock)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, chooser, lambda *_: plan)
        try:
            for cal in (memory, tested):
                _create_searched(cal, events)
            for words, per_page, anonymous in queries:
                query = {"search": words, "per_page": per_page, "status": None}
                answers = [
                    _answer(cal.as_user(None) if anonymous else cal, query)
                    for cal in (tested, memory)
                ]
                assert answers[0] == answers[1]
        finally:
            memory.close()
            tested.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=SEARCHED, queries=QUERIES)
def test_a_search_checked_along_the_walk_lists_what_memory_lists(
    opened: Callable[[], Backend],
    events: list[dict[str, Any]],
    queries: list[tuple[str, int, bool]],
) -> None:
    """Every search checked on each walked event (``probe``), password-protected events by
    their title alone, gives memory's page and total, anonymous or not."""
    _searches_agree(opened, events, queries, "choose_search", "probe")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=SEARCHED, queries=QUERIES)
def test_a_search_counted_from_its_matches_totals_what_memory_totals(
    opened: Callable[[], Backend],
    events: list[dict[str, Any]],
    queries: list[tuple[str, int, bool]],
) -> None:
    """Every search total counted by looping over the text index's matches (``drive``), new
    events still waiting for the index among them, is memory's."""
    _searches_agree(opened, events, queries, "choose_search_count", "drive")


def test_sqlite_counts_a_rare_word_from_the_index_and_the_waiting_events() -> None:
    """70 events: 64 indexed in one batch, 6 waiting (migration 0011); the total of a word
    in a few of each is counted from both, by a loop over the matches."""
    cal = ec.Calendar(SQLiteBackend(), clock=ec.FixedClock(NOW))
    try:
        for n in range(70):
            cal.events.create(
                title=f"Organ recital {n}" if n % 9 == 0 else f"Piano night {n}",
                start_date="2026-12-01 20:00",
                end_date="2026-12-01 22:00",
            )
        statements: list[str] = []
        backend = cal.backend
        assert isinstance(backend, SQLiteBackend)
        backend.db._tracer = lambda sql, params: statements.append(sql)
        with cal.transaction():  # a total is counted afresh inside a transaction
            page = cal.events.list(search="organ", start_date="2026-11-01")
        backend.db._tracer = None
        totals = [sql for sql in statements if sql.startswith("SELECT count(*) FROM (SELECT rowid")]
        assert (8, 1) == (page.total, len(totals))
        assert ') matched CROSS JOIN "events" e' in totals[0]
        assert 6 == backend.engine.execute("SELECT count(*) FROM events_search_pending").scalar()
    finally:
        cal.close()


def test_a_counted_search_still_reads_its_short_words_on_indexed_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count driven by the text index trusts it for the words it indexes, never for a word
    too short for it ("no"), on indexed (64) and waiting (6) events alike."""
    monkeypatch.setattr(store, "choose_search_count", lambda *_: "drive")
    cal = ec.Calendar(SQLiteBackend(), clock=ec.FixedClock(NOW))
    try:
        for n in range(70):
            title = f"Violin evening {n}"
            if n % 9 == 0 or n == 67:
                title = f"Organ recital {n}"
            if n % 18 == 0 or n == 66:
                title = f"Organ nocturne {n}"
            cal.events.create(
                title=title, start_date="2026-12-01 20:00", end_date="2026-12-01 22:00"
            )
        statements: list[str] = []
        backend = cal.backend
        assert isinstance(backend, SQLiteBackend)
        backend.db._tracer = lambda sql, params: statements.append(sql)
        with cal.transaction():  # a total is counted afresh inside a transaction
            both = cal.events.list(search="organ no", start_date="2026-11-01").total
            organ = cal.events.list(search="organ", start_date="2026-11-01").total
        backend.db._tracer = None
        totals = [sql for sql in statements if sql.startswith("SELECT count(*) FROM (SELECT rowid")]
        assert (5, 10, 2) == (both, organ, len(totals))
        assert all("matched.indexed" in sql for sql in totals)
    finally:
        cal.close()
