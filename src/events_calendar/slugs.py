"""Slugs as the reference makes them: folded to ASCII, lower case, words joined by dashes.

The reference (WordPress ``sanitize_title`` in its "save" context, then ``wp_unique_post_slug``)
decides what a slug looks like; the recordings show its choices and this module keeps them:

- whitespace, dots, slashes and dashes of every kind separate words (``Jane Q. Doe`` ->
  ``jane-q-doe``); ``×`` becomes ``x``;
- every other punctuation mark or symbol is *dropped*, not turned into a dash, so a word keeps
  together (``Don't`` -> ``dont``, ``AT&T`` -> ``att``, ``Rock & Roll`` -> ``rock-roll``);
- accented letters are folded to ASCII (``Fête à Noël`` -> ``fete-a-noel``); HTML tags are
  removed and HTML entities read as the characters they stand for;
- runs of dashes collapse, dashes are trimmed from both ends, and a slug is at most
  ``MAX_SLUG_LENGTH`` characters;
- a taken slug gets ``-2``, ``-3``, ... appended to the whole slug (``summer-gala-2031`` ->
  ``summer-gala-2031-2``; ``gala-2`` -> ``gala-2-2``), never a renumbered suffix;
- a record in the trash carries ``__trashed`` after its slug, freeing the slug for new records;
  numbered, it is ``__trashed-2``, ``__trashed-3``, ... after the slug, cut so that the whole
  suffix fits (WordPress numbers ``<slug>__trashed`` as any slug and so cuts into the suffix of
  a long one: ``...__trash-2``).

Two choices differ from WordPress on purpose: letters of other scripts are transliterated
(``Москва`` -> ``moskva``) where WordPress keeps percent-encoded UTF-8 bytes, and underscores
separate words like dashes (WordPress keeps ``_``). A slug is therefore always made of
``[a-z0-9-]``, so no live slug can end in ``__trashed``.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from types import MappingProxyType

from slugify import slugify as _transliterate_and_dash

__all__ = [
    "MAX_SLUG_LENGTH",
    "TRASHED_SUFFIX",
    "allocate_slugs",
    "candidate_prefix",
    "desired_slug",
    "is_stored_slug",
    "slugify",
    "trashed_slug",
    "trashes_to",
    "unique_slug",
    "untrashed_slug",
]

#: The longest slug handed out (WordPress's ``post_name`` column holds 200 characters).
MAX_SLUG_LENGTH = 200
#: What the reference appends to the slug of a record moved to the trash.
TRASHED_SUFFIX = "__trashed"

_TAG = re.compile(r"<[A-Za-z/!?][^>]*>")
_WORD_SEPARATORS = frozenset("./_")


def _prepare(char: str) -> str:
    """One character of a title as the ASCII folding step should see it."""
    if char.isspace() or char in _WORD_SEPARATORS:
        return " "
    if char == "×":
        return "x"
    category = unicodedata.category(char)
    if category == "Pd":  # hyphen, en dash, em dash, minus-like dashes
        return " "
    if category[0] in "PSC":  # punctuation, symbols, control and format characters
        return ""
    return char


class _Prepared(dict[int, str]):
    """``_prepare`` as a ``str.translate`` table, filled as characters are met: a title is
    prepared in one C call rather than a Python call per character (bulk loads slugify
    every title they store)."""

    def __missing__(self, code: int) -> str:
        prepared = self[code] = _prepare(chr(code))
        return prepared


_PREPARED = _Prepared()


@functools.lru_cache(maxsize=65536)  # bulk loads repeat titles; the function is pure
def slugify(text: str) -> str:
    """The slug the reference derives from ``text``; ``""`` when nothing usable is left.

    The result matches ``^[a-z0-9]+(-[a-z0-9]+)*$`` or is empty; slugifying a slug returns it
    unchanged.
    """
    plain = html.unescape(_TAG.sub("", text)) if "<" in text or "&" in text else text
    return _truncate(_dashed(plain.translate(_PREPARED)), MAX_SLUG_LENGTH)


def _dashed(prepared: str) -> str:
    """The prepared text folded to ASCII, lower case, its words joined by dashes.

    Prepared ASCII text holds only letters, digits and spaces (``_prepare`` drops or turns
    into spaces everything else), and python-slugify makes exactly the lower-cased words
    joined by dashes of it (``tests/test_slugs.py`` checks it); everything else goes through
    python-slugify itself."""
    if prepared.isascii():
        return "-".join(prepared.lower().split())
    return str(_transliterate_and_dash(prepared))


def unique_slug(base: str, is_taken: Callable[[str], bool], *, suffix: str = "") -> str:
    """``base`` if it is free, else the first free of ``base-2``, ``base-3``, ...

    ``base`` is a slug (see ``slugify``); it is cut so that the result never exceeds
    ``MAX_SLUG_LENGTH``. A ``suffix`` (the trash's) goes between the base and the number, and
    is never cut: the base is. Raises ``ValueError`` for an empty base: the caller picks a
    fallback.
    """
    if not base:
        raise ValueError("unique_slug needs a non-empty base slug")
    number = 1
    while True:
        candidate = _candidate(base, number, suffix)
        if not is_taken(candidate):
            return candidate
        number += 1


def _candidate(base: str, number: int, suffix: str) -> str:
    """``base`` cut to make room for ``suffix`` and, past the first, the number."""
    tail = "" if number == 1 else f"-{number}"
    return _truncate(base, MAX_SLUG_LENGTH - len(suffix) - len(tail)) + suffix + tail


def candidate_prefix(base: str, *, suffix: str = "") -> str:
    """What every candidate ``unique_slug`` may try for ``base`` (and ``suffix``) starts
    with: the base, cut where a long base is cut to make room for a numeric suffix."""
    room = MAX_SLUG_LENGTH - len(suffix)
    return _truncate(_truncate(base, room), room - _LONGEST_TAIL)


#: The longest suffix ``unique_slug`` is expected to add ("-9999999").
_LONGEST_TAIL = 8


def trashed_slug(slug: str, number: int = 1) -> str:
    """The slug a record carries in the trash: ``"gala"`` -> ``"gala__trashed"``, and
    ``"gala__trashed-2"`` for ``number=2`` (another trashed record holds the first). A long
    slug is cut to 191 characters (WordPress's ``wp_add_trashed_suffix_to_post_name_for_post``),
    and further when numbered, so that the whole suffix fits in ``MAX_SLUG_LENGTH``.

    Idempotent; an empty slug stays empty, as in the reference.
    """
    if not slug or slug.endswith(TRASHED_SUFFIX):
        return slug
    return _candidate(slug, number, TRASHED_SUFFIX)


def trashes_to(slug: str, trashed: str) -> bool:
    """Whether a record holding ``slug``, sent to the trash, may have been given ``trashed``
    (numbered or not): how a restore knows which former slug a cut one stood for."""
    found = _TRASHED_AT_END.search(trashed)
    if found is None or TRASHED_SUFFIX in slug:
        return False
    number = int(found.group(1) or 1)
    return trashed == trashed_slug(slug, number)


_TRASHED_AT_END = re.compile(re.escape(TRASHED_SUFFIX) + r"(?:-([0-9]+))?\Z")

#: What follows a slug each time its record went to the trash: the suffix, numbered when
#: another trashed record held it (``gala__trashed-2``); last, maybe, a numbered suffix cut
#: short, as an earlier version and WordPress number a long trashed slug (``...__trash-2``).
_TRASH_TAIL = re.compile(
    r"(?:__trashed(?:-[0-9]+)?)*(?:__(?:t(?:r(?:a(?:s(?:h(?:e)?)?)?)?)?)?-[0-9]+)?"
)


def is_stored_slug(slug: str) -> bool:
    """Whether a record can hold ``slug``: a slug (not empty, and ``slugify`` gives it back
    unchanged, as every slug handed out is made), followed by ``__trashed`` (maybe
    numbered) for each time its record went to the trash, the last one maybe cut short (a
    backup of an earlier version, which numbered a long trashed slug as WordPress does). A
    restored backup is checked so (``validation.stored_problems``), since it is stored
    without being made here."""
    base, marker, rest = slug.partition("__")
    return bool(base) and slugify(base) == base and bool(_TRASH_TAIL.fullmatch(marker + rest))


def untrashed_slug(slug: str) -> str:
    """The slug without the trash suffix, numbered or not: ``"gala__trashed"`` and
    ``"gala__trashed-2"`` -> ``"gala"``. A slug is made of ``[a-z0-9-]``, so its first
    ``__`` starts the suffix, whole or cut (``...__trash-2``, as an earlier version numbered
    a long one and as WordPress does).

    A slug longer than 191 characters was cut when trashed; callers that must restore it exactly
    keep the original (the calendar keeps it as a slug alias: see ``trashes_to``).
    """
    base, marker, _ = slug.partition("__")
    return base if marker else slug


def desired_slug(slug: str, former: Iterable[str], kept_by_others: Iterable[str] = ()) -> str:
    """The slug a record holding ``slug`` asks back on leaving the trash (WordPress keeps it
    as ``_wp_desired_post_slug``): ``slug`` without the trash suffix, unless that was cut (a
    slug longer than 191 characters), when it is the longest of the record's ``former``
    slugs that trashes to ``slug`` (``trashes_to``), else the one of those
    ``kept_by_others`` that does, when only one does. A slug without the suffix is its own:
    a record created in the trash has none, and keeps its slug on leaving.

    ``kept_by_others`` are former slugs storage keeps for other records: a former slug is
    kept for one record only, so when two records held one long slug and both left it (a
    record took the slug of one in the trash, then was trashed or renamed in turn), one of
    them finds its slug kept for the other. Without them it came back cut to 191 characters.
    Two of them trashing to ``slug`` (two long slugs sharing their first 191 characters)
    cannot tell which was this record's: it then comes back cut, rather than with a slug
    another record had.

    Pure, so that a write can ask which slug a restore wants before it asks storage
    whether that slug is free (a trashed record holding it gives it up: see
    ``posts_bulk.settled_slug``)."""
    base = untrashed_slug(slug)
    if base == slug or not base:
        return slug
    had = [f for f in former if trashes_to(f, slug)]
    if not had:
        theirs = [f for f in kept_by_others if trashes_to(f, slug)]
        had = theirs if len(theirs) == 1 else []
    return max(had, key=lambda f: (len(f), f), default=base)


def _truncate(slug: str, length: int) -> str:
    """At most ``length`` characters, never ending in a dash (WordPress ``_truncate_post_slug``)."""
    if len(slug) <= length:
        return slug
    return slug[:length].rstrip("-")


def _numbered(base: str, number: int) -> str:
    return base if number == 1 else f"{base}-{number}"


def allocate_slugs(
    bases: Sequence[str],
    trashed: Sequence[bool],
    trashed_holders: Collection[str],
    taken_among: Callable[[set[str]], Collection[str]],
    next_number: dict[str, int],
    *,
    known: Mapping[str, bool] = MappingProxyType({}),
) -> tuple[list[str], list[int]]:
    """The slugs creating a bulk batch's rows one by one gives them: ``(slug of each row,
    rows that give theirs up)``, with storage asked about whole windows of slugs at once.

    One by one, in row order, a row takes the first free of its base, ``base-2``, ...
    (``unique_slug``), where a slug an earlier row took is not free, so a row asking for a
    numbered form of another row's base (``gala-2``) finds it taken when an earlier row was
    numbered to it, and gets ``gala-2-2``. A row not in the trash asking for a base a post
    in the trash holds takes it, the holder giving it up for its trash slug:
    ``trashed_holders`` are the bases stored posts in the trash hold (each goes to the
    first live row asking for it), and a row of the batch created in the trash that holds
    one (its base, or a numbered slug another row asks for) is among the rows returned,
    still with the slug it gives up.

    A bulk load cannot afford one storage lookup per candidate, so candidates are checked
    in windows: ``taken_among(candidates)`` answers which of a whole set are stored already
    (held by any post: the slug of one in the trash is taken for a number). ``next_number``
    remembers, per base, the first number not known to be taken; keep it across the
    batches of one load so that a title repeated a thousand times costs no more than one
    used once. ``known`` are slugs storage was asked about already (the bases live rows ask
    for, whose holders the caller looked up), whether they are stored: not asked again.
    """
    stored = _StoredSlugs(taken_among, next_number, known)
    stored.learn(_wanted(bases))
    owner: dict[str, int] = {}  # slug -> the row of this batch holding it
    slugs: list[str] = []
    given_up: list[int] = []
    for row, (base, in_trash) in enumerate(zip(bases, trashed, strict=True)):
        holder = owner.get(base)
        held_in_trash = trashed[holder] if holder is not None else base in trashed_holders
        if held_in_trash and not in_trash:
            if holder is not None:
                given_up.append(holder)
            slug = base
            next_number[base] = max(next_number.get(base, 1), 2)
        else:
            slug = stored.first_free(base, owner)
        owner[slug] = row
        slugs.append(slug)
    return slugs, given_up


#: A numbered slug (``gala-2``): what it numbers, and the number.
_NUMBERED = re.compile(r"(.+)-([1-9][0-9]*)")


def _wanted(bases: Sequence[str]) -> dict[str, int]:
    """How many candidates of each base a batch may take at most, free in storage: one per
    row asking for the base, one per row asking for a numbered form of it (``gala-2``
    for ``gala``), which may hold one, and one for a numbered base itself, which a row
    numbering its parent may hold."""
    rows = Counter(bases)
    wanted = dict(rows)
    for base, count in rows.items():
        numbered = _NUMBERED.fullmatch(base)
        if numbered is not None and numbered.group(1) in rows and numbered.group(2) != "1":
            wanted[numbered.group(1)] += count
            wanted[base] += 1
    return wanted


class _StoredSlugs:
    """What storage says about a batch's candidate slugs, asked in windows."""

    def __init__(
        self,
        taken_among: Callable[[set[str]], Collection[str]],
        next_number: dict[str, int],
        known: Mapping[str, bool],
    ) -> None:
        self.taken_among = taken_among
        self.next_number = next_number
        self.taken = dict(known)  # candidate -> stored already
        self.asked: dict[str, int] = {}  # base -> the first number not asked about yet

    def learn(self, wanted: dict[str, int]) -> None:
        """Ask storage about candidates until ``wanted[base]`` free ones are known for each
        base, past those ``next_number`` says are taken: one query a window, for every base
        at once."""
        found: Counter[str] = Counter()
        while True:
            window: list[tuple[str, str]] = []
            for base, count in wanted.items():
                missing = count - found[base]
                if missing <= 0:
                    continue
                start = self.asked.get(base) or self.next_number.get(base, 1)
                self.asked[base] = start + missing
                window.extend(
                    (_candidate(base, n, ""), base) for n in range(start, start + missing)
                )
            if not window:
                return
            unknown = {candidate for candidate, _ in window if candidate not in self.taken}
            if unknown:
                taken = self.taken_among(unknown)
                self.taken.update((candidate, candidate in taken) for candidate in unknown)
            for candidate, base in window:
                if not self.taken[candidate]:
                    found[base] += 1

    def first_free(self, base: str, owner: Collection[str]) -> str:
        """The first of ``base``, ``base-2``, ... neither stored nor in ``owner``."""
        number = self.next_number.get(base, 1)
        while True:
            candidate = _candidate(base, number, "")
            if candidate not in self.taken:  # ``_wanted`` counts no cut candidate of a long base
                self.asked[base] = number
                self.learn({base: 2})
            if not self.taken[candidate] and candidate not in owner:
                self.next_number[base] = number + 1
                return candidate
            number += 1
