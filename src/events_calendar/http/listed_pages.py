"""Event list answers whose totals move while their page stays: patched, not built again.

A new event in a list's window changes its ``total`` on every page, so every kept page of it
was retired; the default window's pages are the most read answers of a public calendar (in the
realistic mix, 62% of the reads), and each write had them all built again. But a page is
full and unchanged when every new event the list counts sorts after its last event (and it is
not the list's last page, on which such an event would appear): only ``total`` and
``total_pages`` move, in its body and its ``X-TEC-Total`` headers.

So an event list's handler notes, beside its answer, what its page was (``note_page``); when
a catch-up finds that new events are the only change, the cache asks each kept page that
may show them how many the list now counts (``ListedPage.added``, which reads the query's own
filter: ``EventFilter.matches`` and ``sort_key``, the one statement of the list's meaning and
order) and keeps the answer, owing that many; the next read of it rewrites its totals
(``with_totals``). A catch-up holds every read back while it runs, so it only counts: the
rewriting (a digest of the body for its ``ETag``) is done once per page, by its next read,
and not at all for pages nobody reads again. Any doubt (a new event on the page or before
it, a body not in the expected shape) retires the answer, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from datetime import datetime
from typing import Any

import attrs

from ..page import Page, page_count
from ..queries import EventFilter
from ..records import Event
from .conditional import validators

__all__ = ["ListedPage", "PageNote", "note_page", "with_totals"]

#: The ASGI scope key under which a kept read's ``PageNote`` travels to the handler.
_NOTE = "events_calendar.listed_page"


@attrs.define
class PageNote:
    """Filled in by an event list's handler: the page its answer shows."""

    page: ListedPage | None = None

    def attach(self, scope: MutableMapping[str, Any]) -> None:
        scope[_NOTE] = self


@attrs.frozen
class ListedPage:
    """An event list answer's page as kept beside it: its filter, numbers and total (no
    events), and the list-order key of its last event."""

    page: Page[Event]
    last: tuple[datetime, int]

    def added(self, created: Iterable[Event], already: int = 0) -> int | None:
        """How many of ``created`` (new events, as stored now) the list now counts, when
        the page stays as it is, its list having counted ``already`` more since this page
        was kept: ``None`` when one of them lands on it or before it, or after it on the
        list's last page (where it would show, or start a new page)."""
        flt = self.page.filter
        assert isinstance(flt, EventFilter)
        count = 0
        for event in created:
            if not flt.matches(event):
                continue
            if flt.sort_key(event) <= self.last:
                return None
            count += 1
        if count and self.page.page >= page_count(self.page.total + already, self.page.per_page):
            return None
        return count

    def grown(self, added: int) -> Page[Event]:
        """The page as its list stands with ``added`` more events after it."""
        return attrs.evolve(self.page, total=self.page.total + added)


def note_page(scope: MutableMapping[str, Any], page: Page[Event]) -> None:
    """From an event list's handler: note ``page`` for the cache, if it keeps this answer."""
    note = scope.get(_NOTE)
    if note is None or not page.items:
        return
    flt = page.filter
    assert isinstance(flt, EventFilter)
    note.page = ListedPage(attrs.evolve(page, items=()), flt.sort_key(page.items[-1]))


def _tail(page: Page[Event]) -> bytes:
    """How an event list's body ends (``envelope``: the totals come last)."""
    return b'"total":%d,"total_pages":%d}' % (page.total, page.total_pages)


def with_totals(
    listed: ListedPage,
    added: int,
    body: bytes,
    headers: tuple[tuple[str, str], ...],
    now: datetime,
) -> tuple[ListedPage, bytes, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] | None:
    """The page, body, headers and checked validators of a kept answer whose list counts
    ``added`` more events after its page; ``None`` when the body does not end as expected."""
    tail = _tail(listed.page)
    if not body.endswith(tail):
        return None
    page = listed.grown(added)
    new_body = body[: -len(tail)] + _tail(page)
    fresh = {
        "x-tec-total": str(page.total),
        "x-tec-totalpages": str(page.total_pages),
        "content-length": str(len(new_body)),
        **{k.lower(): v for k, v in validators(new_body, now)},
    }
    new_headers = tuple((k, fresh.get(k.lower(), v)) for k, v in headers)
    checked = (("etag", fresh["etag"]),)
    return ListedPage(page, listed.last), new_body, new_headers, checked
