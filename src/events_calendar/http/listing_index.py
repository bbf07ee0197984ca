"""``ListingIndex``: the kept event lists a new event may show, found without asking them all.

After a write that adds events, a catch-up holds every cached read back until it has judged
which kept event lists show none of the new events (``cache_tags.NewEvents``). Judging every
kept list made that pause grow with the cache: a public calendar keeps a list per venue,
organizer, category, search word and window its visitors open, thousands in a full cache,
while a new event can show in only a few of them (its venue's, its organizers', the windows
around its date).

So each kept list is filed under the one filter of its query (``cache_tags.Listing``) that
most narrows the events it can show: a one-word search under its word, else a venue filter
under each venue it names, else an organizer filter under each organizer, else its window:
under each month its days (widened by ``MARGIN_DAYS``) touch, when it has both ends and spans
a few months, else with the unbounded windows; term-filtered windows apart from the others.
A list is left out of ``may_show`` only when its filing filter alone excludes every new event
(no word, venue or organizer of theirs; no month of their days; no terms), which is one of the
reasons ``NewEvents`` spares a list for: so every list left out is spared, and the judge is
asked of the rest only.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from .cache_tags import MARGIN_DAYS, Listing, NewEvents

__all__ = ["EVENT_MONTHS", "WINDOW_MONTHS", "ListingIndex"]

#: A window spanning more months than this is filed with the unbounded ones.
WINDOW_MONTHS = 3
#: A new event spanning more months than this is looked for in every window.
EVENT_MONTHS = 24

_Files = dict[Any, set[Listing]]


class ListingIndex:
    """The kept event lists, filed by their most narrowing filter (not thread-safe: the
    cache holds its lock around every call)."""

    def __init__(self) -> None:
        self._by_word: _Files = {}
        self._by_venue: _Files = {}
        self._by_organizer: _Files = {}
        #: The rest, by whether they filter by terms and by month (``None``: unbounded).
        self._by_window: _Files = {}

    def add(self, listing: Listing) -> None:
        files, keys = self._place(listing)
        for key in keys:
            files.setdefault(key, set()).add(listing)

    def discard(self, listing: Listing) -> None:
        files, keys = self._place(listing)
        for key in keys:
            filed = files.get(key)
            if filed is not None:
                filed.discard(listing)
                if not filed:
                    del files[key]

    def clear(self) -> None:
        for files in self._all_files():
            files.clear()

    def listings(self) -> set[Listing]:
        """Every filed list."""
        return {listing for files in self._all_files() for f in files.values() for listing in f}

    def may_show(self, new: NewEvents) -> set[Listing]:
        """The filed lists that may show one of ``new``'s events: every other is spared."""
        found: set[Listing] = set()
        if not new.shown:  # drafts and the like: no anonymous list shows them
            return found
        for event in new.shown:
            months = _months(event.starts.toordinal(), event.ends.toordinal(), EVENT_MONTHS)
            for terms in (False, True) if event.terms else (False,):
                if months is None:
                    for (filed_terms, _), filed in self._by_window.items():
                        if filed_terms == terms:
                            found |= filed
                    continue
                for month in (None, *months):
                    found |= self._by_window.get((terms, month), set())
            for venue in event.venues:
                found |= self._by_venue.get(venue, set())
            for organizer in event.organizers:
                found |= self._by_organizer.get(organizer, set())
        # A filed word is letters and digits: it cannot span the NUL between two texts.
        texts = "\0".join(event.text for event in new.shown)
        for word, filed in self._by_word.items():
            if word in texts:
                found |= filed
        return found

    def _place(self, listing: Listing) -> tuple[_Files, tuple[Any, ...]]:
        """Where ``listing`` is filed: a map, and the keys of its sets there."""
        if listing.word:
            return self._by_word, (listing.word,)
        if listing.venues:
            return self._by_venue, tuple(listing.venues)
        if listing.organizers:
            return self._by_organizer, tuple(listing.organizers)
        months = _window_months(listing) or (None,)
        return self._by_window, tuple((listing.terms, month) for month in months)

    def _all_files(self) -> tuple[_Files, ...]:
        return self._by_word, self._by_venue, self._by_organizer, self._by_window


def _window_months(listing: Listing) -> tuple[tuple[int, int], ...] | None:
    """The months a bounded window's days touch, widened by the margin a new event is
    judged with; ``None`` (unbounded) for a window open at an end, inverted, or too long."""
    if listing.first is None or listing.last is None:
        return None
    low = max(listing.first.toordinal() - MARGIN_DAYS, date.min.toordinal())
    high = min(listing.last.toordinal() + MARGIN_DAYS, date.max.toordinal())
    return _months(low, high, WINDOW_MONTHS)


def _months(low: int, high: int, most: int) -> tuple[tuple[int, int], ...] | None:
    """The (year, month) of every day from ordinal ``low`` to ``high``; ``None`` when they
    are more than ``most`` or ``high`` is before ``low``."""
    first, last = date.fromordinal(low), date.fromordinal(high)
    count = (last.year - first.year) * 12 + last.month - first.month + 1
    if high < low or count > most:
        return None
    year, month = first.year, first.month
    found = []
    for _ in range(count):
        found.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return tuple(found)
