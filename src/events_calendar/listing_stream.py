"""Whole-query iteration (``iter``): every match of a list query, in list order, streamed.

A list query is normalised exactly as ``list()`` normalises it (same filters, same visibility),
then read in batches with keyset paging: each batch asks the backend for the records strictly
after the last one seen (the filter's ``after`` cursor, a ``(sort key, id)`` pair), so every
batch is one indexed range of its own size, however deep into the list it is, memory stays one
batch, and no total is counted.

What iteration sees of writes made while it runs: each batch is read afresh, so a record
committed meanwhile is yielded if it sorts after the last record already yielded and not if it
sorts before it; a removed record not yet reached is not yielded; a record is never yielded
twice unless a write moves it past the cursor (an event rescheduled to later than the last one
seen). To act on every match of a filter, collect the ids first (``update_many`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, TypeVar, cast

import attrs

from .coerce import plain, plain_query
from .errors import InvalidParameter
from .progress import ProgressArg, read_progress, tracking

__all__ = ["ITER_BATCH", "Cursor", "given_query", "keyset_batches", "whole_query"]

#: Records per batch of ``iter``: a few hundred make the per-query cost negligible, and a
#: batch is all iteration holds in memory.
ITER_BATCH = 1000

R = TypeVar("R")
Q = TypeVar("Q")
F = TypeVar("F", bound="Cursor")


class Cursor(Protocol):
    """A normalised filter that supports keyset paging (``after``, ``offset``, ``limit``)."""

    @property
    def after(self) -> Any: ...

    @property
    def offset(self) -> int: ...

    @property
    def limit(self) -> int | None: ...


def whole_query(cls: Callable[..., Q], query: Q | Mapping[str, Any] | None, params: Any) -> Q:
    """The list query ``iter`` runs: a query object or a mapping of parameters, and keywords
    (which win over both).

    ``page`` and ``per_page`` are refused, as keywords, in the mapping, or set on the query
    object: iteration returns every page, and a page asked for would be silently ignored.
    """
    paged = sorted(_PAGING & {*params, *_paging_given(query)})
    if paged:
        raise InvalidParameter(
            dict.fromkeys(
                paged, "every match is returned, page after page; leave page and per_page out"
            )
        )
    return given_query(cls, query, params)


def given_query(cls: Callable[..., Q], query: Q | Mapping[str, Any] | None, params: Any) -> Q:
    """The list query a caller gives ``list``, ``iter`` or a bulk change: a query object or
    a mapping of parameters, and keywords (which win over both), each value ``plain``.

    A name the query does not take is ``InvalidParameter`` naming it (it was a bare
    ``TypeError``); keywords beside a query object change it rather than being ignored.
    """
    names = [f.name for f in attrs.fields(cast(Any, cls))]
    given = {**(query if isinstance(query, Mapping) else {}), **params}
    unknown = sorted(set(given) - set(names), key=str)
    if unknown:
        kind = getattr(cls, "__name__", "the query")
        raise InvalidParameter(
            {
                str(name): f"{kind} has no parameter {name!r}; send only {', '.join(names)}"
                for name in unknown
            }
        )
    if query is None or isinstance(query, Mapping):
        whole = cls(**given)
    else:
        whole = attrs.evolve(query, **params) if params else query  # type: ignore[misc]
    return cast(Q, plain_query(cast(Any, whole)))  # numpy and pandas values, as list() reads


#: The list parameters that name one page: what ``iter`` refuses.
_PAGING = frozenset({"page", "per_page"})


def _paging_given(query: object) -> set[str]:
    """The paging parameters a mapping or a query object gives (a query object's defaults
    name no page)."""
    if query is None:
        return set()
    if isinstance(query, Mapping):
        return {name for name in _PAGING if name in query}
    fields = attrs.fields(cast(Any, type(query)))
    defaults = {f.name: f.default for f in fields if f.name in _PAGING}
    return {name for name, default in defaults.items() if getattr(query, name) != default}


def keyset_batches(
    fetch: Callable[[F], list[R]],
    flt: F,
    key: Callable[[Any], Any],
    *,
    size: int = ITER_BATCH,
    progress: ProgressArg = None,
    unit: str,
    start: Any = None,
    total: int | None = None,
) -> Iterator[list[R]]:
    """Batches of every record ``flt`` matches, in list order, ``size`` at a time.

    ``fetch`` answers one filter (the backend's ``query`` without counting); ``key`` is the
    filter's ``sort_key``: the last record's key becomes the next batch's cursor. ``start``
    is the first batch's cursor (one before every record, or ``None``); ``total``, if the
    caller counted the matches, is what the progress bar counts to. The size is checked
    now; the batches are read as they are asked for.
    """
    count = plain(size)  # a numpy integer as the int it holds
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidParameter.one("batch_size", "send a positive whole number of records")
    progress = read_progress(progress)  # checked now, as the filters are
    first = attrs.evolve(flt, offset=0, limit=count, after=start)  # type: ignore[misc]
    return _batches(fetch, first, key, progress=progress, unit=unit, total=total)


def _batches(
    fetch: Callable[[F], list[R]],
    current: F,
    key: Callable[[Any], Any],
    *,
    progress: ProgressArg,
    unit: str,
    total: int | None,
) -> Iterator[list[R]]:
    size, done = current.limit, 0
    with tracking(progress, total=total, unit=unit) as advance:
        while True:
            batch = fetch(current)
            if not batch:
                return
            done += len(batch)
            yield batch
            advance(done)
            if size is None or len(batch) < size:
                return
            current = attrs.evolve(current, after=key(batch[-1]))  # type: ignore[misc]
