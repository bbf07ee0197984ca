"""``ListingIndex``: a kept event list it leaves out of ``may_show`` is one the new events'
judge spares (so the cache may skip asking it), and its filing follows adds and discards."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from events_calendar.http.cache_tags import Listing, NewEvents, Shown, _folded
from events_calendar.http.listing_index import ListingIndex
from events_calendar.queries import fold

WORDS = ["jazz", "rock", "folk"]
KINDS = ["none", "word", "venues", "organizers", "terms"]
IDS = st.frozensets(st.integers(1, 3), min_size=1, max_size=2)
#: Days around the ends of months, where a window's margin crosses into the next.
DAYS = st.sampled_from(
    [date(2031, 1, d) for d in (1, 2, 3, 4, 27, 28, 29, 30, 31)]
    + [date(2031, 2, d) for d in (1, 2, 3, 4, 25, 26, 27, 28)]
    + [date(2031, 3, d) for d in (1, 2, 3, 4)]
)


@st.composite
def listings(draw: st.DrawFn) -> Listing:
    """A list query of each kind alike (no filter, a word, venues, organizers, terms), with
    now and then a second filter, and a window or none."""
    kinds = set(draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2)))
    return Listing(
        word=draw(st.sampled_from(WORDS)) if "word" in kinds else "",
        venues=draw(IDS) if "venues" in kinds else frozenset(),
        organizers=draw(IDS) if "organizers" in kinds else frozenset(),
        terms="terms" in kinds,
        first=draw(st.none() | DAYS),
        last=draw(st.none() | DAYS),
    )


@st.composite
def shown(draw: st.DrawFn) -> Shown:
    starts = draw(DAYS)
    words = draw(st.lists(st.sampled_from([*WORDS, "other"]), max_size=3))
    return Shown(
        starts=starts,
        ends=starts + timedelta(days=draw(st.sampled_from([0, 0, 1, 3, 40, 800]))),
        venues=draw(st.frozensets(st.integers(1, 3), max_size=2)),
        organizers=draw(st.frozensets(st.integers(1, 3), max_size=2)),
        terms=draw(st.booleans()),
        text=" ".join(words),
    )


@given(kept=st.lists(listings(), max_size=12), events=st.lists(shown(), max_size=3))
def test_every_list_left_out_is_spared(kept: list[Listing], events: list[Shown]) -> None:
    index = ListingIndex()
    for listing in kept:
        index.add(listing)
    new = NewEvents(events)
    asked = index.may_show(new)
    assert asked <= set(kept)
    assert all(new(listing) for listing in set(kept) - asked)


def test_only_the_lists_a_new_event_can_reach_are_asked() -> None:
    """A new event with venue 1, no organizer and no term, titled "jazz night": the lists of
    other venues, of organizers, of terms and of other words are left out."""
    kept = [
        Listing.of(query)
        for query in (
            "",
            "start_date=2031-01-01&end_date=2031-01-31",
            "venue=1",
            "venue=2",
            "organizer=1",
            "categories=3",
            "search=jazz",
            "search=rock",
            "venue=2&search=jazz",
        )
    ]
    index = ListingIndex()
    for listing in kept:
        index.add(listing)
    event = Shown(
        starts=date(2031, 1, 5),
        ends=date(2031, 1, 5),
        venues=frozenset({1}),
        organizers=frozenset(),
        terms=False,
        text="jazz night",
    )
    asked = index.may_show(NewEvents([event]))
    assert asked == {kept[0], kept[1], kept[2], kept[6], kept[8]}
    assert index.may_show(NewEvents([])) == set()  # a draft: no anonymous list shows it


@given(operations=st.lists(st.tuples(st.booleans(), listings()), max_size=30))
def test_the_index_files_what_was_added_and_not_discarded(
    operations: list[tuple[bool, Listing]],
) -> None:
    index, model = ListingIndex(), set()
    for adding, listing in operations:
        if adding:
            index.add(listing)
            model.add(listing)
        else:
            index.discard(listing)
            model.discard(listing)
        assert index.listings() == model
    index.clear()
    assert index.listings() == set()


EDGES = [date(2031, 1, d) for d in (1, 2, 3, 29, 30, 31)] + [
    date(2031, 2, d) for d in (1, 2, 3, 26, 27, 28)
]


def test_windows_meet_new_events_across_month_ends() -> None:
    """Every window of days around month ends (inverted ones too), with and without a term
    filter, against every event of one or a few days among them: each window the index
    leaves out spares the event. The days a window's margin reaches in the month before or
    after are where an index by month could miss one."""
    windows = [
        Listing("", frozenset(), frozenset(), terms, first=first, last=last)
        for first in EDGES
        for last in EDGES
        for terms in (False, True)
    ]
    index = ListingIndex()
    for listing in windows:
        index.add(listing)
    for starts in EDGES:
        for days in (0, 1, 3):
            for terms in (False, True):
                event = Shown(
                    starts=starts,
                    ends=starts + timedelta(days=days),
                    venues=frozenset(),
                    organizers=frozenset(),
                    terms=terms,
                    text="",
                )
                new = NewEvents([event])
                left_out = set(windows) - index.may_show(new)
                assert all(new(listing) for listing in left_out), (event, left_out)


@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789", min_size=1, max_size=4),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
)
def test_a_word_the_search_finds_is_in_the_folded_text(before: str, word: str, after: str) -> None:
    """Whatever surrounds a one-word search's word in an event's text (accents, other
    scripts, compatibility characters), the text a catch-up judges still holds the word, so
    a list that search keeps is never spared: folding may find more, never less."""
    text = before + word + after
    assert fold(word) in fold(text)  # what the search itself would find
    assert fold(word) in _folded(text)
