"""Venues and organizers: posts that events link to (``cal.venues``, ``cal.organizers``).

They add to the shared post life cycle (``posts``) a duplicate check on create, the derived
``stateprovince`` of a venue, their own list, and unlinking from events when trashed.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import attrs

from .errors import PageNotFound
from .listing import linked_filter
from .listing_stream import ITER_BATCH, given_query, keyset_batches, whole_query
from .lookups import linking_events
from .posts import Made, P, PostCollection
from .progress import ProgressArg
from .queries import LinkedFilter, LinkedQuery, Page
from .statuses import Status

__all__ = ["LinkedCollection"]


class LinkedCollection(PostCollection[P]):
    """Venues or organizers: posts that events link to."""

    def _prepare(self, clean: dict[str, Any], current: P | None) -> dict[str, Any]:
        """A venue without a ``stateprovince`` takes it from its state or province."""
        fields = dict(clean)
        if self.kind != "venue":
            return fields

        def final(name: str) -> str:
            return str(fields[name] if name in fields else getattr(current, name, ""))

        if not final("stateprovince"):
            derived = _stateprovince(final("state"), final("province"), final("country"))
            if derived:
                fields["stateprovince"] = derived
        return fields

    def create(self, **data: Any) -> P:
        """Create a record, or return an existing one that the data describes already.

        De-duplication, as the reference's duplicate check does it: when a record (not in the
        trash) has the same name, ignoring case, and every other field given equals that
        record's (a subset of its data: the name alone, the name and the same description, the
        name and some of the same address fields), that record is returned and nothing is
        written. Any field given with another value makes a new record. Who creates it, its
        status and its publication date are not compared.
        """
        return self._create(**data)[0]

    def create_or_reuse(self, clean: Mapping[str, Any]) -> P:
        """Inside a transaction: the record ``clean`` describes already (see ``create``), or
        a new one from cleaned input."""
        return self._add(dict(clean))[0]

    def _add(self, clean: dict[str, Any]) -> tuple[P, Made]:
        """Inside a transaction: the record ``clean`` describes already, ``"same"`` when it
        holds every value given and ``"similar"`` when it differs in a field not compared
        (see ``Made``); else a new one, ``"created"``."""
        existing = self._duplicate(clean)
        if existing is None:
            return self._insert(clean), "created"
        not_compared = {k: v for k, v in clean.items() if k in _NOT_COMPARED}
        return existing, "same" if _holds(existing, not_compared) else "similar"

    def _duplicate(self, clean: Mapping[str, Any]) -> P | None:
        """The live record, readable by the caller, with the same name ignoring case and the
        other values given, save those ``_NOT_COMPARED``; ``None`` when there is none."""
        backend = self._ctx.backend
        title = self._cls.title_field
        compared = {k: v for k, v in clean.items() if k != title and k not in _NOT_COMPARED}
        name = clean[title]
        same = backend.get_many(self._cls, backend.find_names(self.kind, [name]).get(name, []))
        for record in same.values():
            if (
                record.status != Status.TRASH
                and self._ctx.actor.can_read(record.author, record.status)
                and _holds(record, compared)
            ):
                return record
        return None

    def _on_trash(self, record: P) -> None:
        """Events stop pointing at a trashed venue or organizer, as in the reference."""
        backend = self._ctx.backend
        attr = self.kind
        for event in linking_events(backend, self.kind, record.id):
            kept = tuple(i for i in getattr(event, attr) if i != record.id)
            changes: dict[str, Any] = {attr: kept}
            backend.replace(attrs.evolve(event, **changes))

    def list(self, query: LinkedQuery | None = None, **params: Any) -> Page[P]:
        """One page of venues or organizers (interface section 4.3)."""
        ctx = self._ctx
        query = given_query(LinkedQuery, query, params)
        kind: Literal["venue", "organizer"] = "venue" if self.kind == "venue" else "organizer"
        flt = linked_filter(kind, query, ctx.actor, ctx.backend, ctx.settings, ctx.now())
        items, total = ctx.backend.query(self._cls, flt)
        page = Page.of(items, total or 0, flt, kind=kind)
        if not items and page.page > 1:
            raise PageNotFound(
                f"This {kind} list has fewer than {flt.offset + 1} {kind}s; ask for an "
                "earlier page.",
                code=f"{kind}-archive-page-not-found",
            )
        return page

    def iter(
        self,
        query: LinkedQuery | Mapping[str, Any] | None = None,
        *,
        progress: ProgressArg = None,
        batch_size: int = ITER_BATCH,
        **params: Any,
    ) -> Iterator[P]:
        """Every venue or organizer ``list()`` would list with these filters, newest first,
        streamed with keyset paging (see ``EventCollection.iter``)."""
        ctx = self._ctx
        query = whole_query(LinkedQuery, query, params)
        kind: Literal["venue", "organizer"] = "venue" if self.kind == "venue" else "organizer"
        flt = linked_filter(kind, query, ctx.actor, ctx.backend, ctx.settings, ctx.now())

        def fetch(current: LinkedFilter) -> builtins.list[P]:
            return ctx.backend.query(self._cls, current, count=False)[0]

        batches = keyset_batches(
            fetch, flt, flt.sort_key, size=batch_size, progress=progress, unit=f"{kind}s"
        )
        return (record for batch in batches for record in batch)


#: Fields a duplicate check does not compare: they say who made a record and when, not which
#: place or person it is.
_NOT_COMPARED = frozenset({"author", "status", "date"})
_ABSENT = object()


def _holds(record: Any, fields: Mapping[str, Any]) -> bool:
    """Whether ``record`` holds each of these values."""
    return all(getattr(record, field, _ABSENT) == value for field, value in fields.items())


#: Countries whose venues use ``state`` rather than ``province`` (as the reference names them).
_STATE_COUNTRIES = frozenset({"", "US", "United States"})


def _stateprovince(state: str, province: str, country: str) -> str:
    """The combined region of a venue, as the reference derives it when none is given: the
    state in the United States (or with no country), the province elsewhere (venue_paris)."""
    if state and country in _STATE_COUNTRIES:
        return state
    return province
