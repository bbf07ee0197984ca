"""Collections of posts (events, venues, organizers): create, read, update, delete, list.

``PostCollection`` holds the life cycle every post kind shares: permission checks, validation,
slugs (generated, unique, kept as aliases after a rename, ``__trashed`` in the trash), statuses
(scaled back for users who may not publish), trash and forced deletion, visibility. Events add
their own rules in ``events``, venues and organizers theirs in ``linked``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import attrs

from . import posts_bulk
from .coerce import as_int, clean_text, plain
from .context import Context, error_code
from .errors import Forbidden, InTrash, InvalidParameter, NotFound
from .lookups import slug_taken
from .progress import ProgressArg
from .records import Event, Organizer, Venue
from .slugs import slugify
from .statuses import Status
from .validation import read_flag, read_id, read_input, read_slug

if TYPE_CHECKING:
    import pandas as pd

    from .io.dataframe import DataFrameReport

__all__ = ["Made", "PostCollection"]

P = TypeVar("P", Event, Venue, Organizer)

#: What a create did: made a record (``"created"``), or returned one that exists because it
#: is the same venue or organizer (``LinkedCollection.create``): holding every value given
#: (``"same"``), or all but who made it, its status or its publication date, which a
#: duplicate check does not compare and the create then leaves as they are (``"similar"``).
Made = Literal["created", "same", "similar"]


class PostCollection(Generic[P]):
    """The shared life cycle of one post kind."""

    def __init__(self, cls: type[P], context: Context) -> None:
        self._cls: type[P] = cls
        self._ctx = context
        self.kind = cls.kind

    # -- reading ---------------------------------------------------------------------------
    def get(self, record_id: int, *, password: str | None = None, edit: bool = False) -> P:
        """The record with that id, if the acting user may see it.

        ``edit`` asks for the record in order to edit it (the reference's ``context=edit``):
        a caller who may edit a password-protected event then needs no password. It is read
        strictly (``validation.read_flag``), as ``force`` is: ``edit="false"`` is no yes.
        """
        edit = read_flag(edit, field="edit")
        if password is not None and (not isinstance(password, str) or not clean_text(password)):
            raise InvalidParameter.one("password", "send the password as one text")
        record = self._load(record_id)
        self._check_readable(record, password, edit=edit)
        return record

    def get_by_slug(self, slug: str, *, password: str | None = None, edit: bool = False) -> P:
        """The record whose slug (or former slug) is ``slug``."""
        return self.get(self.id_for_slug(slug), password=password, edit=edit)

    def id_for_slug(self, slug: str) -> int:
        """The id a slug resolves to; ``NotFound`` when none does.

        The slug is tried as given, then lower-cased, then made a slug (``slugify``: WordPress
        sanitises a requested slug before the lookup, so ``Concert.`` and ``page ev 1`` find
        ``concert`` and ``page-ev-1``). A former slug, kept after a rename, resolves too, but
        never to a record in the trash: the reference stops finding a trashed post by the slug
        it had (deleting it twice by slug is an unknown slug, not "already in the trash"), and
        the slug is free for a new record to take.
        """
        backend = self._ctx.backend
        slug = read_slug(slug)
        tried = (slug, slug.strip().lower(), slugify(slug)) if clean_text(slug) else ()
        for candidate in dict.fromkeys(c for c in tried if c):
            found = backend.find_slug(self.kind, candidate)
            if found is not None and (
                slug_taken(backend, self.kind, candidate) or not self._in_trash(found)
            ):
                return found
        raise NotFound(
            f"There is no {self.kind} with the slug {slug!r}.",
            code="rest_invalid_param",
            fields={"slug": f"send the slug of an existing {self.kind}"},
        )

    def _in_trash(self, record_id: int) -> bool:
        """Whether the record is trashed; asked only for slugs found among former slugs."""
        record = self._ctx.backend.get_many(self._cls, [record_id]).get(record_id)
        return record is not None and record.status == Status.TRASH

    def _load(self, record_id: int) -> P:
        """The record with the id a caller names (``validation.read_id``: numpy ints too)."""
        return self._ctx.load(self._cls, read_id(record_id))

    def _load_for_write(self, record_id: int) -> P:
        """The record about to change; an unknown id is refused before any right is checked.

        Validation precedes permission, as in the reference (fact sheet section 2: WordPress
        validates the ``id`` argument before it asks the permission callback): anyone who
        writes to an unknown id gets ``rest_invalid_param``, anonymous callers included, just
        as reading that id tells them (``GET`` answers 400 for it, 403 for a draft).
        """
        return self._load(record_id)

    def may_edit(self, record_id: int) -> bool:
        """Whether the caller may change or delete the post with that id; ``False`` when there
        is none. Never raises: it answers what the reference's ``Allow`` header reports
        (evupd_unknown: only ``GET`` for an unknown id). The id is read as ``get`` reads one
        (``validation.read_id``: a numpy integer, a whole float, digits), so the two agree on
        which record an id names."""
        actor, backend, number = self._ctx.actor, self._ctx.backend, as_int(plain(record_id))
        if number is None or number < 1:
            return False  # no such id
        if not actor.can_create(self.kind):
            return False  # anonymous callers and subscribers edit nothing
        record = backend.get_many(self._cls, [number]).get(number)
        return record is not None and actor.can_edit(record.kind, record.author, record.status)

    def _check_readable(self, record: P, password: str | None, *, edit: bool = False) -> None:
        actor = self._ctx.actor
        if not actor.can_read(record.author, record.status):
            raise Forbidden(  # its status unsaid: the caller may not know it
                f"This {self.kind} is not accessible to you: until it is published, only "
                "editors and its author may read it.",
                code=error_code(self.kind, "not-accessible"),
            )

    # -- writing ---------------------------------------------------------------------------
    def create(self, **data: Any) -> P:
        """Create a record from its fields (see the record class for names and meanings)."""
        return self._create(**data)[0]

    def _create(self, **data: Any) -> tuple[P, Made]:
        """``create``, and what it did: a venue or organizer create may return a record that
        exists (``LinkedCollection.create``), which a report must not count as created."""
        ctx = self._ctx
        clean = read_input(self._cls, data, ctx, creating=True)  # validation first (fact sheet 2)
        ctx.require(ctx.actor.can_create(self.kind), f"create {self.kind}s")
        with ctx.backend.transaction():
            return self._add(clean)

    def _add(self, clean: dict[str, Any]) -> tuple[P, Made]:
        """Inside a transaction: the record cleaned input stands for, and how it was had
        (a post of this kind is always new)."""
        return self._insert(clean), "created"

    def _insert(self, clean: dict[str, Any]) -> P:
        """Build and store a new record from cleaned input (inside a transaction)."""
        record = self._build(clean)
        self._ctx.backend.insert([record])
        return record

    def _build(
        self, clean: dict[str, Any], *, slug: str | None = None, record_id: int | None = None
    ) -> P:
        """A new record from cleaned input, with id, slug, status and dates assigned.

        Bulk loads pass a ``slug`` and ``record_id`` they allocated for many records at once.
        """
        ctx = self._ctx
        now = ctx.now().astimezone(ctx.zone)
        fields = self._prepare(dict(clean), None)
        fields["status"] = self._status(clean.get("status"))
        fields["author"] = self._author(clean.get("author"))
        fields.setdefault("date", now)
        # A new record was last modified when it was published: a given publication date is
        # its modification date too, as WordPress's wp_insert_post sets it (venue_main).
        fields["modified"] = fields["date"]
        fields["id"] = record_id if record_id is not None else ctx.backend.reserve_ids("post")[0]
        if not slug:  # else a bulk load allocated it, trashed holders moved (``bulk``)
            wanted = self.slug_base(clean, fields["id"])
            slug = posts_bulk.settled_slug(
                ctx.backend, self.kind, None, fields["status"], wanted=wanted
            )
        fields["slug"] = slug
        record = self._cls(**fields)
        self._check_record(record)
        return record

    def update(self, record_id: int, **changes: Any) -> P:
        """Change only the given fields (``field=None`` or ``""`` clears a text field)."""
        ctx = self._ctx
        current = self._load_for_write(record_id)
        clean = read_input(self._cls, changes, ctx, creating=False, zone=self._zone_of(current))
        ctx.require(
            ctx.actor.can_edit(self.kind, current.author, current.status), f"edit this {self.kind}"
        )
        with ctx.backend.transaction():
            # Read again under the write lock: a change committed since the read above (by
            # another thread or process) is kept, not overwritten with the older fields, and
            # the rights and the input's zone are judged on the record as it is now (the
            # earlier checks only fail fast: an author who lost the event since may not
            # edit it, and new wall-clock dates read in its new zone).
            locked = self._load_for_write(record_id)
            if self._zone_of(locked) != self._zone_of(current):
                clean = read_input(
                    self._cls, changes, ctx, creating=False, zone=self._zone_of(locked)
                )
            current = locked
            ctx.require(
                ctx.actor.can_edit(self.kind, current.author, current.status),
                f"edit this {self.kind}",
            )
            fields = self._prepare(clean, current)
            if "status" in clean:
                fields["status"] = self._status(clean["status"])
            if "author" in clean:
                fields["author"] = self._author(clean["author"])
            renamed = "slug" in clean and clean["slug"] != current.slug
            fields["slug"] = posts_bulk.settled_slug(  # the trash's slug rules, as delete's
                ctx.backend,
                self.kind,
                current,
                fields.get("status", current.status),
                wanted=(slugify(clean["slug"]) or str(current.id)) if renamed else None,
            )
            fields["modified"] = ctx.now().astimezone(ctx.zone)
            record = attrs.evolve(current, **fields)
            self._check_record(record)
            if record.status == Status.TRASH != current.status:
                self._on_trash(current)  # trashed by an update as by ``delete``
            ctx.backend.replace(record)
            return record

    def update_by_slug(self, slug: str, /, **changes: Any) -> P:
        """``update`` for the record found by ``slug``; ``slug=...`` among the changes renames it.

        ``slug`` is positional-only so that the new slug can be passed as a change. An unknown
        slug is refused before any right is checked, like an unknown id.
        """
        return self.update(self.id_for_slug(slug), **changes)

    def delete(self, record_id: int, *, force: bool = False) -> P:
        """Move the record to the trash; ``force=True`` removes it for good.

        Returns the record as it is after trashing (or as it was before removal).
        ``force`` is read strictly (``validation.read_flag``: ``True``, ``False``, a numpy
        bool, ``"true"``/``"false"``, 1/0): a removal cannot be undone, so a value that is
        not plainly yes or no (``"no"``, ``None``) is ``InvalidParameter`` naming ``force``
        and nothing is deleted. Removing an event that others name as their ``post_parent``
        gives them its own parent (0 when it had none), as WordPress's ``wp_delete_post``
        does, in the same transaction (``Storage.remove``).
        """
        ctx = self._ctx
        forced = read_flag(force, field="force")  # before any lookup: validation first
        current = self._load_for_write(record_id)
        ctx.require(
            ctx.actor.can_edit(self.kind, current.author, current.status),
            f"delete this {self.kind}",
        )
        with ctx.backend.transaction():
            current = self._load_for_write(record_id)  # again, under the write lock
            ctx.require(  # judged on the record as it is now, as ``update`` does
                ctx.actor.can_edit(self.kind, current.author, current.status),
                f"delete this {self.kind}",
            )
            if forced:
                ctx.backend.remove(self.kind, current.id)
                return current
            if current.status == Status.TRASH:
                raise InTrash(
                    f"The {self.kind} with ID {current.id} is already in the trash; "
                    "only a forced delete (force=True, from Python) removes it for good.",
                    code=error_code(self.kind, "is-in-trash"),
                )
            trashed = attrs.evolve(
                current,
                status=Status.TRASH,
                slug=posts_bulk.settled_slug(ctx.backend, self.kind, current, Status.TRASH),
                modified=ctx.now().astimezone(ctx.zone),
            )
            self._on_trash(current)
            ctx.backend.replace(trashed)
            return trashed

    def delete_by_slug(self, slug: str, *, force: bool = False) -> P:
        """``delete`` for the record found by ``slug`` (an unknown slug is refused first)."""
        return self.delete(self.id_for_slug(slug), force=read_flag(force, field="force"))

    def update_many(
        self, ids_or_filters: object, /, *, progress: ProgressArg = None, **changes: Any
    ) -> list[P]:
        """Make the same changes to many records, in one transaction; returns the updated
        records, in the order of the ids given (a filter: in list order).

        ``ids_or_filters`` is any iterable of ids, or a mapping of ``list()`` parameters (or
        a query object) whose every match is changed. Every record is read and checked
        before the first write; an error names the record by position and id (the field
        ``ids[3]`` is the fourth one) and changes nothing. A slug names one record, so
        ``slug`` is refused here. ``progress``: see ``events_calendar.progress``.
        """
        return posts_bulk.update_many(self, ids_or_filters, changes, progress)

    def delete_many(
        self, ids_or_filters: object, /, *, force: bool = False, progress: ProgressArg = None
    ) -> list[int]:
        """Move many records to the trash (``force=True``: remove them for good), in one
        transaction; returns their ids, in the order given.

        Records are given as for ``update_many``. Every one is checked first (it exists, the
        caller may delete it, and without ``force`` it is not in the trash already); an
        error names it and changes nothing. ``force`` is read strictly, as ``delete`` reads
        it: anything but a plain yes or no is ``InvalidParameter`` and deletes nothing.
        """
        forced = read_flag(force, field="force")
        return posts_bulk.delete_many(self, ids_or_filters, forced, progress)

    # -- DataFrames (the ``dataframe`` extra) -----------------------------------------------
    def to_dataframe(self, *, progress: ProgressArg = None, **filters: Any) -> pd.DataFrame:
        """Every record ``iter(**filters)`` yields, as a pandas DataFrame with typed columns
        (see ``events_calendar.io.dataframe``); secrets such as passwords are left out."""
        from .io import dataframe  # when first used: ``import events_calendar`` stays light

        return dataframe.to_dataframe(self, filters, progress=progress)

    def from_dataframe(
        self,
        frame: pd.DataFrame,
        *,
        key: str | None = None,
        on_conflict: Literal["skip", "update"] = "skip",
        progress: ProgressArg = None,
    ) -> DataFrameReport:
        """Create or update one record per row of ``frame`` (columns: ``create`` fields, or
        a frame ``to_dataframe`` made); returns what happened to each row.

        ``key`` says which rows are records already: ``None`` (every row is new), or a column
        naming one record: ``"id"``, ``"slug"`` or a text field (``dataframe.key_columns``:
        ``"title"``, ``"website"`` ... for events), or a column of the caller's own, no field
        of the record, whose values are stored with the records made (``dataframe.own_key``,
        as an import's ``key=`` column is). A key value several records hold is
        refused before any write. A row whose key matches is skipped or updated, per
        ``on_conflict``; a row that already holds its values is ``unchanged``. Each row is
        written whole or not at all, in one transaction for the frame; a row that fails is
        reported with why and the others still go in.
        """
        from .io import dataframe

        return dataframe.from_dataframe(
            self, frame, key=key, on_conflict=on_conflict, progress=progress
        )

    # -- hooks for kinds with more rules ---------------------------------------------------
    def _prepare(self, clean: dict[str, Any], current: P | None) -> dict[str, Any]:
        """Turn cleaned input into record fields (resolving links, dates ...)."""
        return clean

    def _prepare_many(self, plans: Sequence[tuple[P, dict[str, Any]]]) -> list[dict[str, Any]]:
        """``_prepare`` for many ``(record, cleaned changes)`` pairs of one bulk change."""
        return [self._prepare(clean, current) for current, clean in plans]

    def _check_change(self, clean: dict[str, Any], current: P) -> None:
        """What ``_prepare`` would refuse about changing ``current``, checked without
        writing anything (bulk changes check every record before the first write)."""

    def _check_record(self, record: P) -> None:
        """Rules that span several fields, checked on the finished record."""

    def _on_trash(self, record: P) -> None:
        """What else changes when a record goes to the trash."""

    def _zone_of(self, record: P | None) -> Any:
        return self._ctx.zone

    # -- helpers ---------------------------------------------------------------------------
    def _status(self, requested: Status | None) -> Status:
        """The status a write really sets: refused when the caller may not ask for it (a
        contributor asking for ``private`` or ``trash``), scaled back when they may not
        publish (``publish`` becomes ``pending``)."""
        actor = self._ctx.actor
        if not actor.may_request(requested):
            assert requested is not None  # every caller may leave the status out
            raise Forbidden(
                f"Sorry, you are not allowed to make {self.kind}s {requested.value}.",
                code="rest_cannot_publish",
                anonymous=actor.anonymous,
            )
        return actor.scale_status(requested)

    def _author(self, requested: int | None) -> int:
        actor = self._ctx.actor
        if requested is None or requested == actor.user_id:
            return actor.user_id
        self._ctx.require(actor.is_editor, "set another user as the author")
        return requested

    def slug_base(self, clean: dict[str, Any], record_id: int) -> str:
        """The slug a new record asks for: the one given, else its name's, else (nothing of
        either makes a slug: ``!!!``) its id, as WordPress's ``wp_insert_post`` makes it
        (``sanitize_title($title, $post_ID)``)."""
        return slugify(clean.get("slug") or clean[self._cls.title_field]) or str(record_id)
