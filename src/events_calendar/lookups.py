"""Questions the core asks storage in more than one place, answered once.

Each is a rule of the calendar written over the narrow storage protocol: how a category or tag
named by a caller is found (its slug first, then its name), which categories sit below others,
which events link to a record. Backends answer only the plain queries these compose.
"""

from __future__ import annotations

from collections.abc import Collection

from .queries import EventFilter, TermFilter
from .records import RECORD_CLASSES, Event, Kind
from .slugs import TRASHED_SUFFIX, candidate_prefix, unique_slug
from .statuses import Status
from .storage import Storage

__all__ = [
    "child_terms",
    "first_free",
    "free_slug",
    "linking_events",
    "nearby_slugs",
    "slug_taken",
    "term_ids",
    "trash_slug",
]


def term_ids(storage: Storage, kind: Kind, keys: Collection[str]) -> dict[str, int]:
    """Map each key to the term whose slug equals it, else the oldest whose name equals it
    ignoring case (the reference resolves ``categories=jazz`` both ways). Keys that match
    nothing are absent."""
    keys = list(dict.fromkeys(keys))
    if not keys:
        return {}
    by_slug = storage.taken_slugs(kind, keys)
    rest = [k for k in keys if k not in by_slug]
    by_name = storage.find_names(kind, rest) if rest else {}
    return by_slug | {name: ids[0] for name, ids in by_name.items()}


def free_slug(
    storage: Storage,
    kind: Kind,
    base: str,
    *,
    suffix: str = "",
    claimed: set[str] | None = None,
) -> str:
    """``base`` if no record of that kind has it, else the first free ``base-2``,
    ``base-3``, ... (WordPress's ``wp_unique_post_slug``), found with one storage query
    however many records share the title. A ``suffix`` goes before the number, whole.

    ``claimed`` holds slugs handed out earlier in the same operation but not written yet (a
    bulk delete trashing two records of one slug); the slug chosen is added to it.
    """
    taken = nearby_slugs(storage, kind, base, suffix=suffix)
    return first_free(base, taken, suffix=suffix, claimed=claimed)


def nearby_slugs(storage: Storage, kind: Kind, base: str, *, suffix: str = "") -> set[str]:
    """Every slug records of that kind hold now that a candidate for ``base`` (and
    ``suffix``) may collide with, ``base`` itself included: one indexed range. A write that
    must also know whether ``base`` is held (to move a trashed holder) asks this once rather
    than asking about ``base`` alone first."""
    return storage.slugs_starting(kind, candidate_prefix(base, suffix=suffix))


def first_free(
    base: str, taken: Collection[str], *, suffix: str = "", claimed: set[str] | None = None
) -> str:
    """The slug ``free_slug`` picks for ``base`` when ``taken`` (``nearby_slugs``) and
    ``claimed`` are held; the slug chosen is added to ``claimed``."""
    held = claimed if claimed is not None else set()
    chosen = unique_slug(base, lambda slug: slug in taken or slug in held, suffix=suffix)
    held.add(chosen)
    return chosen


def trash_slug(storage: Storage, kind: Kind, slug: str, *, claimed: set[str] | None = None) -> str:
    """The slug a record takes in the trash: ``<slug>__trashed``, or the next free one
    (``<slug>__trashed-2``) when another trashed record already holds it; a long slug is cut
    to make room for the whole suffix (``slugs.trashed_slug``)."""
    if not slug:
        return slug
    return free_slug(storage, kind, slug, suffix=TRASHED_SUFFIX, claimed=claimed)


def slug_taken(storage: Storage, kind: Kind, slug: str) -> bool:
    """Whether a record of that kind has that slug now (a former slug does not count)."""
    return bool(storage.taken_slugs(kind, [slug]))


def child_terms(storage: Storage, kind: Kind, parents: Collection[int]) -> list[int]:
    """Ids of the direct children of these categories (tags have none), ascending."""
    if kind != "category" or not parents:
        return []
    flt = TermFilter(parents=frozenset(parents), hide_empty=False, orderby="id", limit=None)
    found, _ = storage.query(RECORD_CLASSES[kind], flt, count=False)
    return [t.id for t in found]


def linking_events(storage: Storage, kind: Kind, record_id: int) -> list[Event]:
    """Every event (any status, hidden or not) that links to this venue, organizer or term."""
    this = frozenset({record_id})
    flt = EventFilter(
        statuses=frozenset(Status),
        exclude_hidden=False,
        venue_ids=this if kind == "venue" else None,
        organizer_ids=this if kind == "organizer" else None,
        category_ids=this if kind == "category" else None,
        tag_ids=this if kind == "tag" else None,
        limit=None,
    )
    found, _ = storage.query(Event, flt, count=False)
    return found
