"""Slugs: folded like the reference's, unique with -2, -3, ..., and __trashed in the trash."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from slugify import slugify as python_slugify

from events_calendar.slugs import (
    _TAG,
    MAX_SLUG_LENGTH,
    TRASHED_SUFFIX,
    _prepare,
    _truncate,
    desired_slug,
    is_stored_slug,
    slugify,
    trashed_slug,
    trashes_to,
    unique_slug,
    untrashed_slug,
)

SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

# Names and titles the reference slugified in the recordings (tec-6.17.1), with its slug.
RECORDED = [
    ("011_cat_music", "Music", "music"),
    ("012_cat_jazz", "Jazz", "jazz"),
    ("013_cat_rock", "Rock & Roll", "rock-roll"),
    ("015_cat_workshops", "Workshops", "workshops"),
    ("031_tag_free", "free", "free"),
    ("039_venue_main", "Grand Hall", "grand-hall"),
    ("041_venue_paris", "Salle Pleyel", "salle-pleyel"),
    ("059_org_second", "Jane Doe", "jane-doe"),
    ("071_ev_allday", "Bastille Day Picnic", "bastille-day-picnic"),
    ("078_ev_inline_linked", "Pop-up Dinner", "pop-up-dinner"),
    ("082_ev_unknown_cat_name", "spoken word", "spoken-word"),
    ("087_ev_past", "Retro Meetup 2020", "retro-meetup-2020"),
    ("091_ev_dup_title", "Summer Gala", "summer-gala"),
    ("281_quirk_ev_tag_names", "brand-new-tag", "brand-new-tag"),
    ("280_quirk_ev_tag_slugs", "334", "334"),
]


@pytest.mark.parametrize(
    ("title", "expected"), [(t, s) for _, t, s in RECORDED], ids=[step for step, *_ in RECORDED]
)
def test_recorded_titles_slugify_as_the_reference_does(title: str, expected: str) -> None:
    """Each recorded name or title gives the slug the reference generated."""
    assert expected == slugify(title)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Rock &amp; Roll", "rock-roll"),
        ("Corner Pub & Grill", "corner-pub-grill"),
        ("AT&T Park", "att-park"),
        ("Q&A Night", "qa-night"),
        ("Don't Stop", "dont-stop"),
        ("Rock’n’Roll", "rocknroll"),
        ("“Quoted” Title", "quoted-title"),
        ("Hello, World!", "hello-world"),
        ("Talk: Python", "talk-python"),
        ("C++ Meetup", "c-meetup"),
        ("50% Off", "50-off"),
        ("1,000 Days", "1000-days"),
        ("Rock & Roll (Live)", "rock-roll-live"),
    ],
)
def test_punctuation_and_symbols_are_dropped(title: str, expected: str) -> None:
    """Apostrophes, quotes, '&' and other marks vanish without splitting the word."""
    assert expected == slugify(title)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Jane Q. Doe", "jane-q-doe"),
        ("v2.0 launch", "v2-0-launch"),
        ("Rock/Pop", "rock-pop"),
        ("Paris – Lyon — Nice", "paris-lyon-nice"),
        ("my_event", "my-event"),
        ("  many   spaces\tand\nlines ", "many-spaces-and-lines"),
        ("--Already--dashed--", "already-dashed"),
        ("10×20 Prints", "10x20-prints"),
    ],
)
def test_whitespace_dots_slashes_dashes_and_underscores_separate_words(
    title: str, expected: str
) -> None:
    """Separators become one dash; runs collapse and the ends are trimmed."""
    assert expected == slugify(title)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Fête à Noël", "fete-a-noel"),
        ("Crème Brûlée", "creme-brulee"),
        ("Straße", "strasse"),
        ("ÆØÅ", "aeoa"),
        ("Łódź", "lodz"),
        ("Caf&eacute;", "cafe"),
        ("Москва", "moskva"),
        ("ﬁne Ｆull-width", "fine-full-width"),
    ],
)
def test_letters_are_folded_to_ascii(title: str, expected: str) -> None:
    """Accented letters, ligatures and other scripts become plain ASCII letters."""
    assert expected == slugify(title)


def test_html_tags_are_removed() -> None:
    """Tags are stripped before the text is slugified."""
    expected = "bold-move"
    assert expected == slugify("<strong>Bold</strong> move")


@pytest.mark.parametrize("title", ["", "   ", "???", "🎉", "&amp;", "—"])
def test_nothing_usable_gives_an_empty_slug(title: str) -> None:
    """A title with no letters or digits gives "" and the caller picks a fallback."""
    expected = ""
    assert expected == slugify(title)


def test_slug_is_cut_to_the_maximum_length_without_a_trailing_dash() -> None:
    """Slugs are at most MAX_SLUG_LENGTH characters and never end with a dash."""
    title = "a" * (MAX_SLUG_LENGTH - 1) + " bc"
    expected = "a" * (MAX_SLUG_LENGTH - 1)
    assert expected == slugify(title)


# --- unique_slug ------------------------------------------------------------------------------


def test_free_slug_is_kept() -> None:
    """A slug nobody uses is returned as is."""
    expected = "summer-gala"
    assert expected == unique_slug("summer-gala", {"summer-gala-2031"}.__contains__)


def test_taken_slug_gets_2() -> None:
    """The reference's collision: summer-gala-2031 taken gives summer-gala-2031-2 (step 092)."""
    expected = "summer-gala-2031-2"
    assert expected == unique_slug("summer-gala-2031", {"summer-gala-2031"}.__contains__)


def test_numbering_continues_past_taken_numbers() -> None:
    """With -2 and -3 taken as well, the next number is used."""
    taken = {"gala", "gala-2", "gala-3"}
    expected = "gala-4"
    assert expected == unique_slug("gala", taken.__contains__)


def test_a_slug_ending_in_a_number_gets_a_new_suffix() -> None:
    """A taken gala-2 becomes gala-2-2: the suffix is appended, never renumbered."""
    expected = "gala-2-2"
    assert expected == unique_slug("gala-2", {"gala-2"}.__contains__)


def test_unique_slug_stays_within_the_maximum_length() -> None:
    """The base is cut so that base plus suffix fits MAX_SLUG_LENGTH."""
    base = "a" * MAX_SLUG_LENGTH
    expected = "a" * (MAX_SLUG_LENGTH - 2) + "-2"
    assert expected == unique_slug(base, {base}.__contains__)


def test_unique_slug_rejects_an_empty_base() -> None:
    """An empty base is a caller bug: it must choose a fallback first."""
    with pytest.raises(ValueError, match="non-empty base slug"):
        unique_slug("", lambda _: False)


# --- the trash --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("summer-gala", "summer-gala__trashed"),  # 294_del_ev
        ("summer-gala-2031-2", "summer-gala-2031-2__trashed"),  # 299_del_ev_slug
        ("corner-pub", "corner-pub__trashed"),  # 305_del_venue
        ("hidden-org", "hidden-org__trashed"),  # 312_del_org
    ],
)
def test_trashed_slug_appends_the_suffix(slug: str, expected: str) -> None:
    """A trashed record's slug carries __trashed, as in the recorded deletes."""
    assert expected == trashed_slug(slug)


def test_trashed_slug_is_idempotent() -> None:
    """Trashing a trashed slug again leaves it alone."""
    expected = "gala__trashed"
    assert expected == trashed_slug("gala__trashed")


def test_trashed_slug_of_an_empty_slug_is_empty() -> None:
    """A record without a slug keeps none in the trash, as in the reference."""
    expected = ""
    assert expected == trashed_slug("")


def test_trashed_slug_cuts_long_slugs_to_191_characters() -> None:
    """Like WordPress, the slug is cut to 191 characters before the suffix."""
    expected = "a" * 191 + TRASHED_SUFFIX
    assert expected == trashed_slug("a" * MAX_SLUG_LENGTH)


def test_a_numbered_trashed_slug_keeps_the_whole_suffix() -> None:
    """The number goes after ``__trashed``; a long slug is cut to make room for both."""
    expected = ["gala__trashed-2", "a" * 189 + "__trashed-2", "a" * 188 + "__trashed-10"]
    assert expected == [
        trashed_slug("gala", 2),
        trashed_slug("a" * MAX_SLUG_LENGTH, 2),
        trashed_slug("a" * MAX_SLUG_LENGTH, 10),
    ]


def test_trashes_to_tells_which_long_slug_a_trashed_one_stood_for() -> None:
    """A former slug "trashes to" a trashed slug when trashing it gives that one."""
    trashed = "a" * 189 + "__trashed-2"
    assert [True, True, False, False] == [
        trashes_to("a" * 200, trashed),
        trashes_to("a" * 190, trashed),
        trashes_to("a" * 150, trashed),
        trashes_to("a" * 200, "a" * 191 + "__trash-2"),
    ]


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("gala__trashed-2", True),
        ("gala__trashed__trashed", True),
        ("a" * 191 + "__trash-2", True),  # an earlier version numbered long ones so
        ("gala__trashed-x", False),
        ("gala__", False),
        ("gala__trash", False),
        ("gala_x", False),
    ],
)
def test_is_stored_slug_reads_trash_suffixes(slug: str, expected: bool) -> None:
    """A stored slug may end in the trash suffix, or in one an earlier version cut short."""
    assert expected == is_stored_slug(slug)


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("a" * 191 + "__trash-2", "a" * 191),
        ("gala__trashed", "gala"),
        ("gala", "gala"),
        ("gala-2__trashed", "gala-2"),
        ("gala__trashed-2", "gala"),
    ],
)
def test_untrashed_slug_removes_the_suffix(slug: str, expected: str) -> None:
    """Restoring from the trash drops the suffix; other slugs are unchanged."""
    assert expected == untrashed_slug(slug)


# --- properties -------------------------------------------------------------------------------


@given(st.text())
def test_slugify_yields_only_lowercase_ascii_words_and_dashes(text: str) -> None:
    """Every slug is empty or dash-joined runs of [a-z0-9], within the maximum length."""
    slug = slugify(text)
    assert slug == "" or SLUG.fullmatch(slug)
    assert len(slug) <= MAX_SLUG_LENGTH


@given(st.text())
def test_slugify_is_idempotent(text: str) -> None:
    """Slugifying a slug returns it unchanged."""
    slug = slugify(text)
    assert slug == slugify(slug)


@given(st.from_regex(SLUG, fullmatch=True), st.sets(st.from_regex(SLUG, fullmatch=True)))
def test_unique_slug_never_returns_a_taken_slug(base: str, taken: set[str]) -> None:
    """Whatever is taken, the slug returned is free and starts with the base."""
    slug = unique_slug(base, taken.__contains__)
    assert slug not in taken
    assert slug.startswith(base[: MAX_SLUG_LENGTH - 8])


@given(st.from_regex(SLUG, fullmatch=True).filter(lambda s: len(s) <= 191))
def test_trashing_then_restoring_gives_the_slug_back(slug: str) -> None:
    """untrashed_slug undoes trashed_slug for slugs that fit."""
    assert slug == untrashed_slug(trashed_slug(slug))


def _slugify_char_by_char(text: str) -> str:
    """``slugify`` as first written: each character prepared by a Python call, and the whole
    prepared text always through python-slugify."""
    prepared = "".join(_prepare(char) for char in html.unescape(_TAG.sub("", text)))
    return _truncate(python_slugify(prepared), MAX_SLUG_LENGTH)


@given(
    st.text()
    | st.text(alphabet=st.characters(max_codepoint=127))
    | st.text(alphabet="aZ09 -_./&;<>'×é\t\u2013")
)
def test_slugify_shortcuts_give_the_char_by_char_slug(text: str) -> None:
    """The translate table and the ASCII shortcut give exactly the slug of the plain steps."""
    assert _slugify_char_by_char(text) == slugify.__wrapped__(text)


def test_a_restore_asks_back_its_own_former_slug_before_one_kept_for_another() -> None:
    """A cut trash slug asks back the record's own former slug; only when it has none that
    trashes to it, one storage keeps for another record (the former slug is kept once), if
    only one does: of two, either may be another record's, and the slug comes back cut."""
    long, other = "v" * 195, "v" * 193
    trashed = trashed_slug(long)
    assert (long, other, "v" * 191, "v" * 191) == (
        desired_slug(trashed, [long], [other]),
        desired_slug(trashed, ["unrelated"], [other, "w" * 195]),
        desired_slug(trashed, [], []),
        desired_slug(trashed, [], [other, long]),
    )
