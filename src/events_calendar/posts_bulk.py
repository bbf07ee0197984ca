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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from .coerce import MAX_INT
from .context import error_code
from .display import plural
from .errors import Forbidden, InTrash, InvalidParameter, NotFound
from .lookups import restored_slug, trash_slug
from .progress import ProgressArg, tracking
from .records import Event, Organizer, Venue
from .statuses import Status
from .validation import read_id, read_input

if TYPE_CHECKING:
    from .posts import PostCollection

__all__ = [
    "BULK_BATCH",
    "Target",
    "delete_many",
    "leaves_trash",
    "loaded",
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
        given: set[str] = set()  # slugs given back to records leaving the trash
        for _, batch in _batches(plans):  # phase 2: links resolved once, records built
            prepared = collection._prepare_many(batch)
            for (current, _clean), fields in zip(batch, prepared, strict=True):
                if leaves_trash(current, fixed):
                    fields["slug"] = restored_slug(
                        ctx.backend, kind, current.id, current.slug, claimed=given
                    )
                record = attrs.evolve(current, **(fields | fixed))
                collection._check_record(record)
                updated.append(record)
        relinked = not _LINK_FIELDS.isdisjoint(first)  # no link changed: none compared
        with tracking(progress, total=len(updated), unit=plural(kind)) as advance:
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
                                slug=trash_slug(backend, kind, c.slug, claimed=claimed),
                                modified=now,
                            )
                            for c in batch
                        ]
                    )
                    for current in batch:
                        backend.add_slug_alias(kind, current.id, current.slug)
                advance(at + len(batch))
        return [record.id for record in found]
