"""Searches ignore case and accents alike on every backend (``queries.fold``): random Unicode
text (accents precomposed and combining, ligatures, the Turkish dotted I, ``ß``, a Greek
final sigma, kana voicing, Hangul, emoji) is searched by a piece of itself and by that piece
without its accents, and memory, SQLite and PostgreSQL find the same records, list the same
terms in the same name order."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.errors import CalendarError, TermExists
from events_calendar.queries import fold
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
WINDOW = {"start_date": "2027-01-01", "end_date": "2027-12-31", "per_page": 50}

#: Letters that fold unlike ASCII's, each a way a search could tell backends apart.
LETTERS = [
    *"aAeEiIsSoOzZ ",
    *"éÉèüÜöñçøåÅÅȘ",  # precomposed; the Angstrom sign too
    *"ﬁﬂﬀǅǄ",  # ligatures and digraphs
    *"İıiIẞß",
    *"ΣσςΟΔΌ",
    *"ＡＺａ",  # fullwidth
    *"ｶﾞﾊﾟ",  # halfwidth kana and their voicing marks
    *"ノがか한국ᄒא",
    *"😀👍🏽🇫🇷",
    "\u212a",  # the Kelvin sign
    "\u2126",  # the ohm sign
]
#: Combining marks: one of each block a search drops, and some of those it keeps.
MARKS = [
    *"\u0301\u0308\u0327\u0307\u0342",
    *"\u1ab0\u1dc0\u20d7\ufe20\ufe2f",
    *"\u3099\u05b8\u093f\u0483",
]
texts = st.lists(
    st.sampled_from(LETTERS)
    | st.sampled_from(MARKS)
    | st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Co", "Cn")),
    min_size=1,
    max_size=12,
).map("".join)
#: The accents a search ignores, as docs/queries.md lists them (written out again here, so
#: that the test states the rule rather than reads it from the code under test).
_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def bare(text: str) -> str:
    """``text`` without its accents, as a user without them would type it (case kept)."""
    return unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFKD", text)))


@contextmanager
def _calendars() -> Iterator[dict[str, ec.Calendar]]:
    """An empty calendar on each backend."""
    database = test_database()
    database.reset()
    calendars = {
        "memory": ec.Calendar(MemoryBackend(), clock=ec.FixedClock(NOW)),
        "sqlite": ec.Calendar(SQLiteBackend(), clock=ec.FixedClock(NOW)),
        "postgresql": ec.Calendar(PostgresBackend(database.url), clock=ec.FixedClock(NOW)),
    }
    try:
        yield calendars
    finally:
        for cal in calendars.values():
            cal.close()


def _fill(cal: ec.Calendar, names: list[str]) -> None:
    """Each name as an event loaded in bulk (on SQLite, in the text index) and as one
    created alone (waiting for it, read directly), a venue, an organizer and a tag (unless
    one of the same name, as tags compare names, is there already)."""
    cal.events.bulk_create(
        [
            {"title": name, "start_date": "2027-03-01 10:00", "end_date": "2027-03-09"}
            for name in names
        ]
    )
    for name in names:
        cal.events.create(title=name, start_date="2027-03-02 10:00", end_date="2027-03-09")
    for name in names:
        cal.venues.create(venue=name)
        cal.organizers.create(organizer=name)
        with contextlib.suppress(TermExists):
            cal.tags.create(name=name)


def _answers(cal: ec.Calendar, needles: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {
        "tag order": [t.id for t in cal.tags.list(hide_empty=False, per_page=50).items],
        "tag order desc": [
            t.id for t in cal.tags.list(hide_empty=False, per_page=50, order="desc").items
        ],
    }
    for needle in needles:
        found[needle] = [
            _ids_or_error(cal.events.list, search=needle, **WINDOW),
            _ids_or_error(cal.venues.list, search=needle, per_page=50),
            _ids_or_error(cal.organizers.list, search=needle, per_page=50),
            _ids_or_error(cal.tags.list, search=needle, hide_empty=False),
        ]
    return found


def _ids_or_error(listing: Any, **query: Any) -> object:
    """The ids listed, or the refusal's class (a venue search needs a letter or digit)."""
    try:
        return [r.id for r in listing(**query).items]
    except CalendarError as error:
        return type(error).__name__


@settings(deadline=None)
@given(text=texts, start=st.integers(0, 14), length=st.integers(1, 14))
@example(text="Ca\ufe20fé Mu\u0308LLER", start=1, length=6)
@example(text="İSTANBUL ΟΔΟΣ Σ\u0301", start=0, length=20)
@example(text="ﬁ ß ｶﾞ 한 ǅ", start=1, length=8)
def test_every_backend_finds_text_by_a_piece_of_it_and_without_its_accents(
    text: str, start: int, length: int
) -> None:
    """A record's text is found by a piece of itself and by that piece without accents
    (``cafe`` for ``Café``) on every backend exactly as on memory; terms named by the text
    list in the same name order. A decoy written without accents and one written otherwise
    must be found, or not, alike everywhere."""
    # A letter first: a title must not be blank, and a leading mark then has one to follow.
    names = [f"Q{text}", f"Q{bare(text)}", f"Cafe Muller {text.upper()}"]
    with _calendars() as calendars:
        for cal in calendars.values():
            _fill(cal, names)
        stored = next(iter(calendars["memory"].events.list(**WINDOW).items)).title
        start = min(start, len(stored) - 1)
        end = start + length
        piece = stored[start:end]
        needles = list(dict.fromkeys([piece, bare(piece), bare(piece).upper(), stored]))
        answers = {kind: _answers(cal, needles) for kind, cal in calendars.items()}
        assert answers["memory"] == answers["sqlite"]
        assert answers["memory"] == answers["postgresql"]


def test_a_search_without_accents_finds_them_everywhere() -> None:
    """``cafe`` finds ``Café`` and ``muller`` finds ``MÜLLER`` (precomposed or combining) in
    events, venues, organizers and terms, on every backend; name order reads names so
    folded, ties by id."""
    with _calendars() as calendars:
        for cal in calendars.values():
            _fill(cal, ["Café MÜLLER", "Cafe\u0301 Mu\u0308ller", "Zoë", "ﬁesta İzmir", "Cafe"])
            for needle, found in (("cafe muller", 2), ("ZOE", 1), ("fiesta izmir", 1)):
                assert [2 * found, found, found, found] == [  # two events per name
                    len(cal.events.list(search=needle, **WINDOW).items),
                    len(cal.venues.list(search=needle).items),
                    len(cal.organizers.list(search=needle).items),
                    len(cal.tags.list(search=needle, hide_empty=False).items),
                ]
            assert 3 == len(cal.tags.list(search="café", hide_empty=False).items)
            order = [t.name for t in cal.tags.list(hide_empty=False)]
            assert order == sorted(order, key=lambda name: fold(name))
            assert ["Cafe", "Café MÜLLER", "Cafe\u0301 Mu\u0308ller"] == order[:3]


def test_fold_is_the_documented_rule_for_every_code_point() -> None:
    """``queries.fold`` is NFKD, the listed accents dropped, NFC, then ``str.lower``, for
    every code point alone and after a capital letter (a mark then has a base)."""
    letters = [chr(c) for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
    assert [bare(c).lower() for c in letters] == [fold(c) for c in letters]
    assert [bare(f"A{c}").lower() for c in letters] == [fold(f"A{c}") for c in letters]
    assert ("cafe muller", "istanbul", "οδος", "straße", "fi", "が") == tuple(
        fold(text) for text in ("Café MÜLLER", "İstanbul", "ΟΔΟΣ", "Straße", "ﬁ", "か\u3099")
    )


def test_stopwords_and_exclusions_are_read_before_folding() -> None:
    """A search word is a stopword, or an exclusion, as typed: ``thé`` is a word though it
    folds to the stopword ``the``, and a fullwidth dash (folded to ``-``) excludes nothing."""
    with _calendars() as calendars:
        for cal in calendars.values():
            for title in ("Thé jazz", "Jazz night", "Bebop-jazz"):
                cal.events.create(title=title, start_date="2027-03-01", end_date="2027-03-01")
            assert (["Thé jazz"], ["Bebop-jazz"]) == (
                [e.title for e in cal.events.list(search="thé jazz", **WINDOW).items],
                [e.title for e in cal.events.list(search="\uff0djazz", **WINDOW).items],
            )
