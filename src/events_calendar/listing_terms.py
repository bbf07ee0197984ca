"""Normalising category and tag list queries (interface section 4.4)."""

from __future__ import annotations

from functools import partial
from typing import Literal

from .coerce import as_id_list, as_int, clean_text
from .listing_common import Bad, Problems, event_id, existing_ids, flag, paging, search_text
from .permissions import Actor
from .queries import TermFilter, TermOrder, TermQuery
from .records import RECORD_CLASSES, Kind
from .settings import Settings
from .slugs import slugify
from .storage import Storage

__all__ = ["ORDER_DIRECTIONS", "TERM_ORDERS", "term_filter"]

#: What ``orderby`` may name (case-insensitively; anything else sorts by name, as in WordPress).
TERM_ORDERS: dict[str, TermOrder] = {
    "name": "name",
    "id": "id",
    "term_id": "id",
    "slug": "slug",
    "count": "count",
    "description": "description",
    "include": "include",
    "term_group": "term_group",
}


def term_filter(
    kind: Literal["category", "tag"],
    query: TermQuery,
    backend: Storage,
    settings: Settings,
    actor: Actor | None = None,
) -> TermFilter:
    """Normalise a category or tag list query (interface section 4.4); ``event`` (``post``)
    must name an event ``actor`` may read (``None``: full access)."""
    problems = Problems()
    page = paging(query.page, query.per_page, settings, problems)
    include = problems.check("include", lambda: existing_ids(backend, kind, query.include))
    # Each is checked as the reference checks every argument given; ``event`` wins the filter.
    posts = {
        name: None
        if value is None
        else problems.check(name, partial(event_id, backend, value, actor))
        for name, value in (("post", query.post), ("event", query.event))
    }
    flt = TermFilter(
        search=problems.check(
            "search", lambda: None if query.search is None else search_text(query.search).strip()
        ),
        include=include,
        include_order=tuple(as_id_list(query.include) or ()) if include else (),
        exclude=problems.check("exclude", lambda: existing_ids(backend, kind, query.exclude))
        or frozenset(),
        orderby=problems.check("orderby", lambda: _term_order(query.orderby)) or "name",
        descending=bool(problems.check("order", lambda: _descending(query.order))),
        hide_empty=True
        if query.hide_empty is None
        else bool(problems.check("hide_empty", lambda: flag(query.hide_empty))),
        parents=problems.check("parent", lambda: _parent(backend, kind, query.parent))
        if kind == "category"
        else None,  # tags are flat: WordPress ignores ``parent`` for them (tlist_parent)
        post=posts["event"] if query.event is not None else posts["post"],
        slug=problems.check("slug", lambda: _slug(query.slug)),
        offset=page.offset,
        limit=page.per_page,
    )
    problems.raise_if_any()
    return flt


def _nonempty(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise Bad("send a non-empty text")
    if not clean_text(value):
        raise Bad("send a text without NUL characters")
    return value.strip()


def _slug(value: object) -> str | None:
    """The ``slug`` filter as stored slugs are made: WordPress's term query runs it through
    ``sanitize_title``, so ``HELLO World`` finds ``hello-world`` (a text no slug can be
    made of, ``!!!``, finds nothing)."""
    text = _nonempty(value)
    return None if text is None else slugify(text)


def _term_order(value: object) -> TermOrder:
    if value is None:
        return "name"
    if not isinstance(value, str) or not value.strip():
        raise Bad(f"send one of {', '.join(TERM_ORDERS)}")
    # The reference (WordPress) falls back to name order for an unknown orderby.
    return TERM_ORDERS.get(value.strip().lower(), "name")


#: What ``order`` may be (case-insensitively).
ORDER_DIRECTIONS = ("asc", "desc")


def _descending(value: object) -> bool:
    if value is None:
        return False
    if not isinstance(value, str) or value.strip().lower() not in ORDER_DIRECTIONS:
        raise Bad("send 'asc' or 'desc'")
    return value.strip().lower() == "desc"


def _parent(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    """The category whose direct children to list.

    It must be an existing category: the reference validates ``parent`` with
    ``is_event_category``, so ``parent=0`` is a 400 (``clist_parent_zero``), not "top level".
    """
    if value is None:
        return None
    number = as_int(value)
    if number is None or number < 1 or not backend.get_many(RECORD_CLASSES[kind], [number]):
        raise Bad(f"send the id of an existing {kind}")
    return frozenset({number})
