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
- a record in the trash carries ``__trashed`` after its slug, freeing the slug for new records.

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
from collections.abc import Callable, Collection, Sequence

from slugify import slugify as _transliterate_and_dash

__all__ = [
    "MAX_SLUG_LENGTH",
    "TRASHED_SUFFIX",
    "allocate_slugs",
    "candidate_prefix",
    "is_stored_slug",
    "slugify",
    "trashed_slug",
    "unique_slug",
    "untrashed_slug",
]

#: The longest slug handed out (WordPress's ``post_name`` column holds 200 characters).
MAX_SLUG_LENGTH = 200
#: What the reference appends to the slug of a record moved to the trash.
TRASHED_SUFFIX = "__trashed"
# WordPress cuts a slug to 191 characters before appending the trash suffix.
_TRASHED_BASE_LENGTH = 191

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


def unique_slug(base: str, is_taken: Callable[[str], bool]) -> str:
    """``base`` if it is free, else the first free of ``base-2``, ``base-3``, ...

    ``base`` is a slug (see ``slugify``); it is cut so that the result never exceeds
    ``MAX_SLUG_LENGTH``. Raises ``ValueError`` for an empty base: the caller picks a fallback.
    """
    if not base:
        raise ValueError("unique_slug needs a non-empty base slug")
    base = _truncate(base, MAX_SLUG_LENGTH)
    if not is_taken(base):
        return base
    number = 2
    while True:
        tail = f"-{number}"
        candidate = _truncate(base, MAX_SLUG_LENGTH - len(tail)) + tail
        if not is_taken(candidate):
            return candidate
        number += 1


def candidate_prefix(base: str) -> str:
    """What every candidate ``unique_slug`` may try for ``base`` starts with: the base, cut
    where a long base is cut to make room for a numeric suffix."""
    return _truncate(_truncate(base, MAX_SLUG_LENGTH), MAX_SLUG_LENGTH - _LONGEST_TAIL)


#: The longest suffix ``unique_slug`` is expected to add ("-9999999").
_LONGEST_TAIL = 8


def trashed_slug(slug: str) -> str:
    """The slug a record carries in the trash: ``"gala"`` -> ``"gala__trashed"``.

    Idempotent; an empty slug stays empty, as in the reference.
    """
    if not slug or slug.endswith(TRASHED_SUFFIX):
        return slug
    return _truncate(slug, _TRASHED_BASE_LENGTH) + TRASHED_SUFFIX


#: What follows a slug each time its record went to the trash: the suffix, numbered when
#: another trashed record held it (``gala__trashed-2``).
_TRASH_TAIL = re.compile(r"(?:-[0-9]+)?")


def is_stored_slug(slug: str) -> bool:
    """Whether a record can hold ``slug``: a slug (not empty, and ``slugify`` gives it back
    unchanged, as every slug handed out is made), followed by ``__trashed`` (maybe
    numbered) for each time its record went to the trash. A restored backup is checked so
    (``validation.stored_problems``), since it is stored without being made here."""
    base, *trashed = slug.split(TRASHED_SUFFIX)
    return bool(base) and slugify(base) == base and all(map(_TRASH_TAIL.fullmatch, trashed))


def untrashed_slug(slug: str) -> str:
    """The slug without the trash suffix, numbered or not: ``"gala__trashed"`` and
    ``"gala__trashed-2"`` -> ``"gala"``.

    A slug longer than 191 characters was cut when trashed; callers that must restore it exactly
    keep the original (the calendar keeps it as a slug alias).
    """
    base, suffix, _ = slug.partition(TRASHED_SUFFIX)
    return base if suffix else slug


def _truncate(slug: str, length: int) -> str:
    """At most ``length`` characters, never ending in a dash (WordPress ``_truncate_post_slug``)."""
    if len(slug) <= length:
        return slug
    return slug[:length].rstrip("-")


def _numbered(base: str, number: int) -> str:
    return base if number == 1 else f"{base}-{number}"


def allocate_slugs(
    bases: Sequence[str],
    taken_among: Callable[[set[str]], Collection[str]],
    next_number: dict[str, int],
) -> list[str]:
    """Unique slugs for many new records at once, as ``unique_slug`` would give one by one.

    A bulk load cannot afford one storage lookup per candidate, so candidates are checked in
    windows: ``taken_among(candidates)`` answers which of a whole set are stored already.
    ``next_number`` remembers, per base, the first suffix not yet tried; keep it across the
    batches of one load so that a title repeated a thousand times costs no more than one
    used once.
    """
    need = Counter(bases)
    free: dict[str, list[str]] = {base: [] for base in need}
    while True:
        window: dict[str, str] = {}
        for base, count in need.items():
            missing = count - len(free[base])
            if missing <= 0:
                continue
            start = next_number.get(base, 1)
            next_number[base] = start + missing
            window.update((_numbered(base, n), base) for n in range(start, start + missing))
        if not window:
            break
        taken = taken_among(set(window))
        for candidate, base in window.items():  # ascending suffixes, base by base
            if candidate not in taken:
                free[base].append(candidate)
    handed: dict[str, int] = dict.fromkeys(need, 0)
    slugs = []
    for base in bases:
        slugs.append(free[base][handed[base]])
        handed[base] += 1
    return slugs
