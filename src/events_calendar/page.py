"""``Page``: one page of a list, as every collection's ``list()`` returns it.

A page is the sequence of its records (``len``, iteration, ``page[0]``, ``page[1:3]``) with
what a caller needs to fetch the others (``total``, ``page``, ``per_page``), a one-line
``repr`` and an HTML table for Jupyter (``display``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Generic, SupportsIndex, TypeVar, overload

import attrs

from .display import page_table, plural

if TYPE_CHECKING:
    from .queries import EventFilter, LinkedFilter, TermFilter

__all__ = ["Page", "page_count"]

T = TypeVar("T")


def page_count(total: int, per_page: int) -> int:
    """How many pages of ``per_page`` a list of ``total`` records fills (0 for none)."""
    return -(-total // per_page) if per_page else 0


@attrs.frozen(kw_only=True)
class Page(Generic[T]):
    """One page of a list, with what a caller needs to fetch the others.

    It behaves as the sequence of its records (``len``, iteration, ``page[0]``,
    ``page[1:3]``); ``repr`` is one line, and Jupyter shows it as a table.
    """

    items: tuple[T, ...]
    total: int
    page: int
    per_page: int
    #: The normalised filter the page answers (effective date bounds, statuses ...), for
    #: callers that echo the query back, such as the HTTP adapter's ``rest_url``.
    filter: EventFilter | LinkedFilter | TermFilter | None = attrs.field(
        default=None, eq=False, repr=False
    )
    #: The kind of record listed (``"event"`` ...), for the page's description.
    kind: str = attrs.field(default="", eq=False, repr=False)

    @classmethod
    def of(
        cls,
        items: Iterable[T],
        total: int,
        flt: EventFilter | LinkedFilter | TermFilter,
        *,
        kind: str = "",
    ) -> Page[T]:
        """The page a filter's offset and limit describe."""
        found = tuple(items)
        per_page = flt.limit if flt.limit is not None else max(len(found), 1)
        return cls(
            items=found,
            total=total,
            page=flt.offset // per_page + 1,
            per_page=per_page,
            filter=flt,
            kind=kind,
        )

    @property
    def total_pages(self) -> int:
        """``ceil(total / per_page)``; 0 for an empty list."""
        return page_count(self.total, self.per_page)

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: SupportsIndex) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> T | tuple[T, ...]:
        """A record of the page by position, or a slice of them as a tuple."""
        return self.items[index]

    def _kind(self) -> str:
        """The kind listed: as the page was made for, else its first record's."""
        if self.kind or not self.items:
            return self.kind
        return str(getattr(self.items[0], "kind", ""))

    def __repr__(self) -> str:
        """One line: ``Page(10 of 2,345 events, page 1/235)``."""
        noun = plural(self._kind()) if self._kind() else "records"
        return (
            f"Page({len(self.items):,} of {self.total:,} {noun}, "
            f"page {self.page:,}/{self.total_pages:,})"
        )

    def _repr_html_(self) -> str:
        """The page as a table in Jupyter, captioned with its ``repr``."""
        return page_table(self.items, self._kind(), repr(self))
