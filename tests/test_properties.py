"""Hypothesis properties: storage round trips, paging and totals."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.converters import make_storage_converter
from events_calendar.errors import PageNotFound

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Sydney"]
CONVERTER = make_storage_converter()
#: A naive wall-clock origin: the calendar reads naive text in its own zone (UTC here).
BASE = datetime(2031, 1, 1, tzinfo=UTC).replace(tzinfo=None)

text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
ids = st.tuples(st.integers(1, 10_000)).map(tuple) | st.just(())


@st.composite
def events(draw: st.DrawFn) -> ec.Event:
    zone = draw(st.sampled_from(ZONES))
    start = draw(
        st.datetimes(BASE.replace(year=2000), BASE.replace(year=2060)).map(
            lambda d: d.replace(microsecond=0, tzinfo=ZoneInfo(zone))
        )
    )
    return ec.Event(
        id=draw(st.integers(1, 10**9)),
        title=draw(text.filter(str.strip)),
        start_date=start,
        end_date=start + draw(st.timedeltas(timedelta(0), timedelta(days=40))),
        timezone=zone,
        date=NOW,
        modified=NOW,
        slug=draw(st.from_regex(r"[a-z0-9]{1,10}(-[a-z0-9]{1,5})?", fullmatch=True)),
        description=draw(text),
        cost=draw(st.sampled_from(["", "10", "$5", "20€", "Free", "10 - 20"])),
        featured=draw(st.booleans()),
        all_day=draw(st.booleans()),
        status=draw(st.sampled_from(list(ec.Status))),
        categories=draw(ids),
        venue=draw(ids),
        website=draw(st.none() | st.just("https://example.org")),
    )


@given(events())
def test_event_storage_round_trip(event: ec.Event) -> None:
    """An event survives the storage converter with its zone, abbreviation and cost."""
    back = CONVERTER.structure(CONVERTER.unstructure(event), ec.Event)
    assert event == back
    assert (event.timezone_abbr, event.cost_details) == (back.timezone_abbr, back.cost_details)
    assert event.start_date.utcoffset() == back.start_date.utcoffset()


@given(
    st.builds(
        ec.Venue,
        id=st.integers(1, 10**6),
        venue=text.filter(str.strip),
        city=text,
        date=st.just(NOW),
        modified=st.just(NOW),
        show_map=st.booleans(),
    )
)
def test_venue_storage_round_trip(venue: ec.Venue) -> None:
    """A venue survives the storage converter unchanged."""
    assert venue == CONVERTER.structure(CONVERTER.unstructure(venue), ec.Venue)


@given(
    st.builds(
        ec.Category,
        id=st.integers(1, 10**6),
        name=text.filter(str.strip),
        parent=st.integers(0, 10),
    )
)
def test_category_storage_round_trip(category: ec.Category) -> None:
    """A category survives the storage converter; its read-time count is not stored."""
    data = CONVERTER.unstructure(category)
    assert "count" not in data
    assert category == CONVERTER.structure(data, ec.Category)


# -- lists ------------------------------------------------------------------------------------

event_rows = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 23), st.booleans(), st.integers(0, 2)),
    max_size=25,
)


def _calendar(rows: list[tuple[int, int, bool, int]]) -> tuple[ec.Calendar, list[ec.Event]]:
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    names = ["Music", "Sport", "Talks"]
    for name in names:
        cal.categories.create(name=name)
    created = [
        cal.events.create(
            title=f"Event {n}",
            start_date=(BASE + timedelta(days=day, hours=hour)).isoformat(sep=" "),
            end_date=(BASE + timedelta(days=day, hours=hour + 1)).isoformat(sep=" "),
            featured=featured,
            categories=[names[category]],
        )
        for n, (day, hour, featured, category) in enumerate(rows)
    ]
    return cal, created


@given(event_rows, st.integers(1, 7), st.sampled_from([None, True, False]))
def test_pages_concatenate_to_the_whole_list(
    rows: list[tuple[int, int, bool, int]], per_page: int, featured: bool | None
) -> None:
    """Walking every page yields the unpaged result, in order, without repeats."""
    cal, _ = _calendar(rows)
    query = {"start_date": "2031-01-01", "end_date": "2031-12-31", "featured": featured}
    whole = cal.events.list(per_page=50, **query)
    walked: list[int] = []
    page = 1
    while True:
        try:
            got = cal.events.list(page=page, per_page=per_page, **query)
        except PageNotFound:
            break
        walked.extend(e.id for e in got.items)
        assert whole.total == got.total
        if not got.items:
            break
        page += 1
    assert [e.id for e in whole.items] == walked
    assert whole.total_pages == -(-whole.total // 50)


@given(event_rows, st.integers(0, 60), st.integers(0, 60), st.sampled_from([0, 1, 2]))
def test_total_counts_the_matches(
    rows: list[tuple[int, int, bool, int]], first: int, last: int, category: int
) -> None:
    """``total`` equals the number of events a plain predicate accepts."""
    cal, created = _calendar(rows)
    start = datetime(2031, 1, 1, tzinfo=UTC) + timedelta(days=first)
    end = datetime(2031, 1, 1, 23, 59, 59, tzinfo=UTC) + timedelta(days=last)
    slug = ["music", "sport", "talks"][category]
    expected = sorted(
        (e.utc_start_date, e.id)
        for e in created
        if e.utc_start_date >= start
        and e.utc_end_date <= end
        and cal.categories.get(e.categories[0]).slug == slug
    )
    got = cal.events.list(
        start_date=start.date().isoformat(),
        end_date=end.date().isoformat(),
        categories=slug,
        per_page=50,
    )
    assert len(expected) == got.total
    assert [i for _, i in expected] == [e.id for e in got.items]
