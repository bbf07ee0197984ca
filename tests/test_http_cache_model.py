"""``ResponseCache`` against a plain model of its rules, under random puts, reads, byte
evictions and catch-ups: the same answers kept, in the same order, and its indexes (by tag,
by event list query, the queries filed by ``listing_index``) naming exactly the answers it
keeps. Catch-ups judge new events with any predicate (asked of every list) or with
``NewEvents`` (asked of the lists ``listing_index`` says may show them)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from events_calendar.http.cache import CachedResponse, ResponseCache
from events_calendar.http.cache_tags import ALL, SHOWS_EVENTS, Listing, NewEvents, Shown

LISTINGS = [
    Listing.of(q)
    for q in ("", "venue=3", "search=jazz", "start_date=2031-01-01", "organizer=4", "tags=5")
]
TAGS = [ALL, "event:1", "event:2", "venue:3", "embeds:venue:3"]


class Model:
    """What the cache promises, written the slow and obvious way."""

    def __init__(self, max_bytes: int) -> None:
        self.entries: OrderedDict[Hashable, CachedResponse] = OrderedDict()
        self.max = max_bytes

    def put(self, key: Hashable, value: CachedResponse) -> None:
        self.entries.pop(key, None)
        self.entries[key] = value
        while sum(len(v.body) for v in self.entries.values()) > self.max:
            self.entries.popitem(last=False)

    def get(self, key: Hashable) -> None:
        if key in self.entries:
            self.entries.move_to_end(key)

    def caught_up(self, tags: frozenset[str] | None, spared: frozenset[Listing] | None) -> None:
        for key, value in list(self.entries.items()):
            retired = tags is None or bool(value.tags & tags)
            shows_new_events = (
                spared is not None
                and SHOWS_EVENTS in value.tags
                and (value.listing is None or value.listing not in spared)
            )
            if retired or shows_new_events:
                del self.entries[key]


@st.composite
def answers(draw: st.DrawFn) -> CachedResponse:
    listing = draw(st.sampled_from([None, *LISTINGS]))
    tags = set(draw(st.sets(st.sampled_from(TAGS), max_size=3)))
    if listing is not None or draw(st.booleans()):
        tags.add(SHOWS_EVENTS)  # an event list shows events; a few other answers do too
    body = b"x" * draw(st.integers(1, 40))
    return CachedResponse(200, (), body, (), frozenset(tags), listing)


@st.composite
def new_events(draw: st.DrawFn) -> NewEvents:
    day = draw(st.dates(date(2030, 12, 1), date(2031, 2, 1)))
    return NewEvents(
        Shown(
            starts=day,
            ends=day,
            venues=draw(st.frozensets(st.sampled_from([3, 7]), max_size=1)),
            organizers=draw(st.frozensets(st.sampled_from([4, 8]), max_size=1)),
            terms=draw(st.booleans()),
            text=draw(st.sampled_from(["jazz night", "a talk"])),
        )
        for _ in range(draw(st.integers(0, 2)))
    )


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.integers(0, 12), answers()),
        st.tuples(st.just("get"), st.integers(0, 12)),
        st.tuples(
            st.just("catch_up"),
            st.one_of(st.none(), st.frozensets(st.sampled_from(TAGS), max_size=2)),
            st.one_of(st.none(), st.frozensets(st.sampled_from(LISTINGS)), new_events()),
        ),
    ),
    max_size=60,
)


@settings(max_examples=300)
@given(operations=OPERATIONS, max_bytes=st.integers(40, 200))
def test_the_cache_keeps_what_its_rules_say(operations: list[tuple], max_bytes: int) -> None:
    cache, model = ResponseCache(max_bytes=max_bytes), Model(max_bytes)
    generation = 0
    token = cache.caught_up(generation, 0, frozenset())
    for operation in operations:
        if operation[0] == "put":
            _, key, value = operation
            cache.put(key, token, value, generation)
            model.put(key, value)
        elif operation[0] == "get":
            cache.get(operation[1])
            model.get(operation[1])
        else:
            _, tags, spared = operation
            generation += 1
            if isinstance(spared, NewEvents):
                judge, spared = spared, frozenset(filter(spared, LISTINGS))
            else:
                judge = None if spared is None else spared.__contains__
            token = cache.caught_up(generation, generation, tags, judge)
            model.caught_up(tags, spared)
        assert list(model.entries) == cache.kept()
        kept = dict(model.entries)
        assert {t: set(k) for t, k in cache._tagged.items()} == {
            tag: {k for k, v in kept.items() if tag in v.tags}
            for tag in {t for v in kept.values() for t in v.tags}
        }
        assert {q: set(k) for q, k in cache._listed.items()} == {
            listing: {k for k, v in kept.items() if SHOWS_EVENTS in v.tags and v.listing == listing}
            for listing in {v.listing for v in kept.values() if SHOWS_EVENTS in v.tags}
        }
        assert cache._index.listings() == set(cache._listed) - {None}


def test_a_listing_reads_bracketed_names_as_the_app_does() -> None:
    """``venue[0]=3`` is the app's ``venue=3`` (``params``, as PHP reads it): the kept list is
    filed under that venue, and a venue list asking ``has_events[0]`` is one that reads
    events, so a new event retires it."""
    from events_calendar.http.cache_tags import read_tags

    assert (Listing.of("venue=3&tags=5"), frozenset({ALL, SHOWS_EVENTS})) == (
        Listing.of("venue[0]=3&tags[1]=5"),
        read_tags("/venues", b"{}", "has_events[0]=1"),
    )
