"""Bulk changes to posts: ``update_many`` and ``delete_many`` for events, venues, organizers.

Both take the records to change as ids (any iterable of them) or as a filter (a mapping of list
parameters, or a query object), which is resolved to ids first with ``iter``: the same matches,
visibility and default date window as ``list()``, collected before anything changes so that a
change cannot move a record in or out of the set while it is being changed.

Everything happens in one transaction, in two phases: every record is read (in batches, with
``get_many``) and checked (it exists, the caller may edit it, the change is valid for it)
before the first write; then the changed records are written in batches with the storage's
``replace_many``. An error names the offending record by its position and id: the field
``ids[3]`` (or ``ids[3].end_date``) is the fourth id given (or the fourth match of the filter;
an id given twice is named by its first place), and the message says its id. Nothing is changed
then.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from .coerce import MAX_INT
from .context import error_code
from .display import plural
from .errors import Forbidden, InTrash, InvalidParameter, NotFound
from .lookups import first_free, nearby_slugs, trash_slug
from .progress import ProgressArg, tracking
from .records import RECORD_CLASSES, Event, Kind, Organizer, Venue
from .slugs import desired_slug, untrashed_slug
from .statuses import Status
from .storage import Storage
from .validation import read_id, read_input

if TYPE_CHECKING:
    from .posts import PostCollection

__all__ = [
    "BULK_BATCH",
    "Target",
    "delete_many",
    "enter_trash",
    "free_from_trash",
    "give_up_slugs",
    "leaves_trash",
    "loaded",
    "settled_slug",
    "slug_holders",
    "target_ids",
    "update_many",
]

#: Records read and written per batch of a bulk change.
BULK_BATCH = 1000

#: The fields that link an event to other records: a change without them keeps every link.
_LINK_FIELDS = frozenset({"venue", "organizer", "categories", "tags"})

P = TypeVar("P", Event, Venue, Organizer)
T = TypeVar("T")
#: A record a bulk change acts on: its position among the ids given (or the filter's
#: matches), and its id.
Target = tuple[int, int]


def _batches(items: Sequence[T], size: int = BULK_BATCH) -> Iterator[tuple[int, Sequence[T]]]:
    """``(position of the first item, items)`` for consecutive batches of ``items``."""
    for at in range(0, len(items), size):
        yield at, items[at : at + size]


def target_ids(collection: Any, target: object, *, single: str = "update") -> list[Target]:
    """The ids a bulk change acts on, in the order given (a filter: in list order), once each,
    each with its position among the ids given (the first, for an id given twice): what an
    error names it by.

    ``collection`` is any collection with ``iter`` (posts, and terms for ``delete_many``).

    ``target`` is a mapping of list parameters or a query object (a filter), or an iterable
    of ids; anything else, or an item that is not an id, is ``InvalidParameter``. Each id is
    read as ``get`` reads one (``validation.read_id``), so a numpy array, a pandas Series
    (whole floats included) or a tuple of ``np.int32`` names the records its values name;
    a missing value among them (``None``, ``NaN``, ``pd.NA``) is ``MissingParameter``.
    """
    if isinstance(target, Mapping) or attrs.has(type(target)):
        lister: Any = collection  # every post collection has ``iter`` (events, linked)
        return list(enumerate(record.id for record in lister.iter(target)))
    if isinstance(target, str | bytes) or not isinstance(target, Iterable):
        raise InvalidParameter.one(
            "ids", f"send an iterable of ids or a mapping of filters (for one record, {single}())"
        )
    first: dict[int, int] = {}  # id -> its first position
    for number, item in enumerate(target):
        record_id = read_id(item, field=f"ids[{number}]")
        if not 0 < record_id <= MAX_INT:
            raise InvalidParameter.one(f"ids[{number}]", f"send a positive id, not {record_id}")
        first.setdefault(record_id, number)
    return [(number, record_id) for record_id, number in first.items()]


def loaded(collection: Any, targets: Sequence[Target]) -> Iterator[tuple[int, Any]]:
    """``(position, record)`` for every target, read in batches; an unknown id is
    ``NotFound`` naming its position and id."""
    kind = collection.kind
    for _, batch in _batches(targets):
        found = collection._ctx.backend.get_many(collection._cls, [i for _, i in batch])
        for number, record_id in batch:
            record = found.get(record_id)
            if record is None:
                raise NotFound(
                    f"There is no {kind} with ID {record_id} (ids[{number}]); nothing was changed.",
                    code="rest_invalid_param",
                    fields={f"ids[{number}]": f"send the id of an existing {kind}"},
                )
            yield number, record


def _check_editable(collection: PostCollection[P], number: int, record: P, action: str) -> None:
    actor = collection._ctx.actor
    if not actor.can_edit(collection.kind, record.author, record.status):
        raise Forbidden(
            f"Sorry, you may not {action} the {collection.kind} with ID {record.id} "
            f"(ids[{number}]); nothing was changed.",
            anonymous=actor.anonymous,
        )


def update_many(
    collection: PostCollection[P], target: object, changes: Mapping[str, Any], progress: ProgressArg
) -> list[P]:
    """See ``PostCollection.update_many``."""
    ctx, kind = collection._ctx, collection.kind
    if not changes:
        raise InvalidParameter.one("changes", "send at least one field to change")
    if "slug" in changes:
        raise InvalidParameter.one(
            "slug", "a slug names one record: rename records one at a time with update()"
        )
    read_input(collection._cls, changes, ctx, creating=False)  # bad changes: refused up front
    with ctx.backend.transaction():
        targets = target_ids(collection, target)
        cleaned: dict[tzinfo, dict[str, Any]] = {}
        plans: list[tuple[P, dict[str, Any]]] = []
        for number, current in loaded(collection, targets):  # phase 1: read and check, no writes
            zone = collection._zone_of(current)
            if zone not in cleaned:
                cleaned[zone] = read_input(collection._cls, changes, ctx, creating=False, zone=zone)
            clean = cleaned[zone]
            _check_editable(collection, number, current, "edit")
            try:
                collection._check_change(clean, current)
            except InvalidParameter as bad:
                raise InvalidParameter(
                    {
                        f"ids[{number}].{name}": f"{why} ({kind} {current.id})"
                        for name, why in bad.fields.items()
                    }
                ) from None
            plans.append((current, clean))
        fixed: dict[str, Any] = {"modified": ctx.now().astimezone(ctx.zone)}
        first = next(iter(cleaned.values()), {})
        if "status" in first:
            fixed["status"] = collection._status(first["status"])
        if "author" in first:
            fixed["author"] = collection._author(first["author"])
        updated: list[P] = []
        given: set[str] = set()  # slugs handed out here, not written yet
        changing = frozenset(current.id for current, _ in plans)  # no trashed holder to move
        for _, batch in _batches(plans):  # phase 2: links resolved once, records built
            prepared = collection._prepare_many(batch)
            for (current, _clean), fields in zip(batch, prepared, strict=True):
                fields["slug"] = settled_slug(
                    ctx.backend,
                    kind,
                    current,
                    fixed.get("status", current.status),
                    claimed=given,
                    spare=changing,
                )
                record = attrs.evolve(current, **(fields | fixed))
                collection._check_record(record)
                updated.append(record)
        relinked = not _LINK_FIELDS.isdisjoint(first)  # no link changed: none compared
        trashing = [c for c, _ in plans if fixed.get("status") == Status.TRASH != c.status]
        with tracking(progress, total=len(updated), unit=plural(kind)) as advance:
            for current in trashing:  # trashed by an update as by ``delete_many``
                collection._on_trash(current)
            for at, records in _batches(updated):  # phase 3: written in batches
                ctx.backend.replace_many(records, links=relinked)
                advance(at + len(records))
        return updated


def leaves_trash(current: Event | Venue | Organizer, changes: Mapping[str, Any]) -> bool:
    """Whether ``changes`` move a trashed record out of the trash: its slug comes back."""
    return current.status == Status.TRASH and changes.get("status", Status.TRASH) != Status.TRASH


def delete_many(
    collection: PostCollection[P], target: object, force: bool, progress: ProgressArg
) -> list[int]:
    """See ``PostCollection.delete_many``."""
    ctx, kind = collection._ctx, collection.kind
    backend = ctx.backend
    with backend.transaction():
        targets = target_ids(collection, target, single="delete")
        found: list[P] = []
        for number, current in loaded(collection, targets):  # every record checked first
            _check_editable(collection, number, current, "delete")
            if not force and current.status == Status.TRASH:
                raise InTrash(
                    f"The {kind} with ID {current.id} (ids[{number}]) is already in the trash; "
                    "only a forced delete (force=True, from Python) removes it for good. "
                    "Nothing was changed.",
                    code=error_code(kind, "is-in-trash"),
                    fields={f"ids[{number}]": "leave out records already in the trash"},
                )
            found.append(current)
        now = ctx.now().astimezone(ctx.zone)
        claimed: set[str] = set()  # trash slugs handed out in this delete, not yet written
        with tracking(progress, total=len(found), unit=plural(kind)) as advance:
            for at, batch in _batches(found):
                if force:
                    for current in batch:
                        backend.remove(kind, current.id)
                else:
                    for current in batch:
                        collection._on_trash(current)
                    backend.replace_many(
                        [
                            attrs.evolve(
                                c,
                                status=Status.TRASH,
                                slug=settled_slug(backend, kind, c, Status.TRASH, claimed=claimed),
                                modified=now,
                            )
                            for c in batch
                        ]
                    )
                advance(at + len(batch))
        return [record.id for record in found]


# -- slugs across the trash: the one rule every write of a post follows ------------------
Post = Event | Venue | Organizer


def settled_slug(
    backend: Storage,
    kind: Kind,
    current: Post | None,
    status: Status,
    *,
    wanted: str | None = None,
    claimed: set[str] | None = None,
    spare: Collection[int] = (),
) -> str:
    """The slug a post holds after a write that leaves it with ``status``, by the rules
    WordPress's ``wp_insert_post`` applies to the trash. Every path that writes a post asks
    here (create, update, delete, ``update_many``, ``delete_many``, ``bulk_create`` through
    ``free_from_trash``, and the imports built on them), so that no path can trash or
    restore a record and leave its slug behind (``slug-trap`` kept in the trash made a new
    "Slug Trap" ``slug-trap-2``, and ``by-slug/slug-trap`` found the trashed one).

    ``current`` is the post as stored (``None``: a new one); ``wanted`` the slug the write
    asks for (a new post's, or a rename's); ``None`` keeps the one it has.

    - (a) a post entering the trash from another status takes ``<slug>__trashed``
      (``enter_trash``); a new post created in the trash keeps its slug, as WordPress only
      suffixes a post that had another status;
    - (b) a post leaving the trash, not renamed by the same write, asks back the slug it
      had (``slugs.desired_slug``), numbered when a live post took it meanwhile;
    - (c) a post not in the trash that asks for a slug a trashed post holds takes it, and
      the trashed post takes its trash slug (``free_from_trash``), as WordPress's
      ``wp_add_trashed_suffix_to_post_name_for_trashed_posts`` does.

    A rename keeps the slug left as a former slug. What this moves (trashed holders, former
    slugs) is written at once: call it inside the write's transaction. ``claimed`` holds
    slugs handed out in the same operation but not written yet (the slug chosen is added);
    ``spare`` the posts the operation writes itself, which are no trashed holders to move
    (``update_many`` restoring them all).
    """
    claimed = claimed if claimed is not None else set()
    entering = status == Status.TRASH and current is not None and current.status != Status.TRASH
    if current is not None:
        if wanted is None:
            if entering:
                return enter_trash(backend, kind, current.id, current.slug, claimed=claimed)
            if not leaves_trash(current, {"status": status}):
                return current.slug
            base = untrashed_slug(current.slug)
            former = backend.aliases_starting(kind, base) if base != current.slug else {}
            mine = [s for s, i in former.items() if i == current.id]
            theirs = [s for s, i in former.items() if i != current.id]
            wanted = desired_slug(current.slug, mine, theirs)
            if wanted == current.slug:  # trashed as it was created: its slug is its own
                return wanted
        else:
            backend.add_slug_alias(kind, current.id, current.slug)
    assert wanted is not None, "a new post asks for a slug"
    nearby = nearby_slugs(backend, kind, wanted)  # one lookup: is it held, what is free
    if status != Status.TRASH and wanted in nearby:
        own = {current.id} if current is not None else set()
        nearby -= free_from_trash(backend, kind, [wanted], claimed=claimed, spare={*spare, *own})
    slug = first_free(wanted, nearby, claimed=claimed)
    if entering:  # renamed as it enters the trash: the new slug is the one to ask back
        assert current is not None
        return enter_trash(backend, kind, current.id, slug, claimed=claimed)
    return slug


def enter_trash(
    backend: Storage, kind: Kind, record_id: int, slug: str, *, claimed: set[str] | None = None
) -> str:
    """(a) The slug a post holding ``slug`` takes as it enters the trash: ``<slug>__trashed``,
    numbered when another trashed post holds that (``lookups.trash_slug``). ``slug`` is kept
    as its former slug, the reference's ``_wp_desired_post_slug``: what it asks back on
    leaving the trash when the suffix cut a long slug (``slugs.desired_slug``)."""
    backend.add_slug_alias(kind, record_id, slug)
    return trash_slug(backend, kind, slug, claimed=claimed)


def free_from_trash(
    backend: Storage,
    kind: Kind,
    slugs: Collection[str],
    *,
    claimed: set[str] | None = None,
    spare: Collection[int] = (),
) -> set[str]:
    """(c) Move every trashed post of ``kind`` holding one of ``slugs`` (a post created in
    the trash, or a backup's) to its trash slug, as it would have had it was trashed here,
    so that a post not in the trash can take the slug; those in ``spare`` stay. Written at
    once, in the caller's transaction; the slug given up stays the moved post's former slug,
    which it asks back on leaving the trash. Returns the slugs given up."""
    held = slug_holders(backend, kind, slugs).values()
    return give_up_slugs(
        backend,
        kind,
        [r for r in held if r.status == Status.TRASH and r.id not in spare],
        claimed=claimed,
    )


def slug_holders(backend: Storage, kind: Kind, slugs: Collection[str]) -> dict[str, Post]:
    """The posts of ``kind`` holding one of ``slugs`` now, by slug: two queries, whatever
    the number of slugs (a bulk load asks for a whole batch's)."""
    held = backend.taken_slugs(kind, slugs) if slugs else {}
    if not held:
        return {}
    found = backend.get_many(RECORD_CLASSES[kind], held.values())
    return {s: r for s, i in held.items() if isinstance(r := found.get(i), Post)}


def give_up_slugs(
    backend: Storage, kind: Kind, trashed: Collection[Post], *, claimed: set[str] | None = None
) -> set[str]:
    """Move these trashed posts to their trash slugs (``enter_trash``), in id order so that
    numbered trash slugs follow it; returns the slugs given up.

    Only the slug is rewritten (``replace_many`` writes what differs): a bulk load may move
    a row it inserted itself, whose search-index entry SQLite defers to the load's end, and
    a rewrite of its text would update an index entry that is not there yet (SQLite then
    reports "database disk image is malformed")."""
    moved = [
        attrs.evolve(r, slug=enter_trash(backend, kind, r.id, r.slug, claimed=claimed))
        for r in sorted(trashed, key=lambda r: r.id)
    ]
    if moved:
        backend.replace_many(moved, links=False)
    return {r.slug for r in trashed}
