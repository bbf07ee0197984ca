"""Collections of terms (event categories and tags).

Terms differ from posts: no status, no trash (deleting removes for good, as the reference forces
it), no by-slug routes (``get_by_slug`` is the Python API's alone), no former slugs, names
unique among siblings, and a ``count`` of published events.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import attrs

from . import posts_bulk
from .coerce import MAX_INT, plain_fields
from .context import Context
from .display import plural
from .errors import InvalidParameter, NotFound, NotHierarchical, SlugTaken, TermExists
from .listing import term_filter
from .listing_stream import ITER_BATCH, given_query, keyset_batches, whole_query
from .lookups import child_terms, free_slug, slug_taken, term_ids
from .progress import ProgressArg, tracking
from .queries import Page, TermFilter, TermQuery
from .records import Category, Tag
from .slugs import slugify
from .validation import read_flag, read_id, read_input, read_slug, refuse_missing

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["NON_BLANK_FIELDS", "TermCollection"]

T = TypeVar("T", Category, Tag)

#: The term arguments the reference declares as non-empty strings when present.
NON_BLANK_FIELDS = ("name", "description", "slug")


def _read_term(
    cls: type[Category | Tag], data: Mapping[str, Any], ctx: Context, *, creating: bool
) -> dict[str, Any]:
    """``read_input`` for a term, and a sent name, description or slug must be non-empty
    text, on create and on update.

    The reference validates these arguments as non-empty strings, so an empty description is a
    400 there, where a venue's or an event's empty description clears it. On create a ``None``
    counts as not sent (a missing name is then ``MissingParameter``). Every field is checked
    before any is refused, as WordPress runs every argument's check: a blank description
    and an unknown parent are named together (the parent went unsaid)."""
    bad = {
        name: "send a non-empty text"
        for name in NON_BLANK_FIELDS
        if name in data
        and not (creating and data[name] is None)
        and not (isinstance(data[name], str) and data[name].strip())
    }
    try:
        clean = read_input(cls, data, ctx, creating=creating)
    except InvalidParameter as more:
        raise InvalidParameter({**more.fields, **bad}, codes=more.codes) from None
    if bad:
        raise InvalidParameter(bad)
    return clean


def _require_force(force: object) -> None:
    """A term delete's ``force``: read strictly, and only ``True`` (terms have no trash)."""
    if not read_flag(force, field="force"):
        raise InvalidParameter.one(
            "force",
            "categories and tags have no trash: send force=True (the default) to delete "
            "them for good",
        )


class TermCollection(Generic[T]):
    """Categories (``cal.categories``) or tags (``cal.tags``)."""

    def __init__(self, cls: type[T], context: Context) -> None:
        self._cls: type[T] = cls
        self._ctx = context
        self.kind: Literal["category", "tag"] = "category" if cls is Category else "tag"

    def get(self, term_id: int) -> T:
        """The term with that id (terms are public)."""
        term_id = read_id(term_id)
        found = (
            self._ctx.backend.get_many(self._cls, [term_id]).get(term_id)
            if 0 <= term_id <= MAX_INT
            else None
        )
        if found is None:
            raise NotFound(
                f"There is no {self.kind} with ID {term_id}.",
                code="rest_invalid_param",
                fields={"id": f"send an existing {self.kind} id"},
            )
        return found

    def get_by_slug(self, slug: str) -> T:
        """The term whose slug is ``slug``, read as slugs are made (``slugify``), as the
        term list's ``slug`` filter reads it: ``Rock & Roll`` finds ``rock-roll``.

        Terms keep no former slugs (WordPress keeps ``_wp_old_slug`` for posts only), so a
        renamed term is found by its new slug alone. There is no HTTP route for it: the
        reference has none, and ``GET /categories?slug=...`` answers the same question.
        """
        text = read_slug(slug)
        backend = self._ctx.backend
        for candidate in dict.fromkeys((text, slugify(text))):
            found = backend.find_slug(self.kind, candidate) if candidate else None
            if found is not None:
                return self.get(found)
        raise NotFound(
            f"There is no {self.kind} with the slug {text!r}.",
            code="rest_invalid_param",
            fields={"slug": f"send the slug of an existing {self.kind}"},
        )

    def paths(self, terms: Iterable[Category | Tag]) -> dict[int, list[str]]:
        """Each term's slugs from its root category down to itself (its archive path).

        Ancestors are loaded one level at a time with one ``get_many`` per level for all the
        terms together, never one lookup per ancestor per term. Tags are flat: their path is
        their own slug.
        """
        terms = list(terms)
        known: dict[int, Category | Tag] = {t.id: t for t in terms}
        wanted = {t.parent for t in terms if isinstance(t, Category) and t.parent} - known.keys()
        while wanted:
            found = self._ctx.backend.get_many(Category, sorted(wanted))
            known.update(found)
            wanted = {
                t.parent for t in found.values() if isinstance(t, Category) and t.parent
            } - known.keys()
        paths: dict[int, list[str]] = {}
        for term in terms:
            path, seen, current = [term.slug], {term.id}, term
            while isinstance(current, Category) and current.parent not in seen:
                parent = known.get(current.parent)
                if parent is None:
                    break
                path.insert(0, parent.slug)
                seen.add(parent.id)
                current = parent
            paths[term.id] = path
        return paths

    def list(self, query: TermQuery | None = None, **params: Any) -> Page[T]:
        """One page of terms (interface section 4.4); a page past the end is empty."""
        ctx = self._ctx
        query = given_query(TermQuery, query, params)
        flt = term_filter(self.kind, query, ctx.backend, ctx.settings, ctx.actor)
        items, total = ctx.backend.query(self._cls, flt)
        return Page.of(items, total or 0, flt, kind=self.kind)

    def iter(
        self,
        query: TermQuery | Mapping[str, Any] | None = None,
        *,
        progress: ProgressArg = None,
        batch_size: int = ITER_BATCH,
        **params: Any,
    ) -> Iterator[T]:
        """Every term ``list()`` would list with these filters, in its order, streamed with
        keyset paging (see ``EventCollection.iter``)."""
        ctx = self._ctx
        query = whole_query(TermQuery, query, params)
        flt = term_filter(self.kind, query, ctx.backend, ctx.settings, ctx.actor)

        def fetch(current: TermFilter) -> list[T]:
            return ctx.backend.query(self._cls, current, count=False)[0]

        noun = "categories" if self.kind == "category" else "tags"
        batches = keyset_batches(
            fetch, flt, flt.sort_key, size=batch_size, progress=progress, unit=noun
        )
        return (term for batch in batches for term in batch)

    def to_dataframe(self, *, progress: ProgressArg = None, **filters: Any) -> pd.DataFrame:
        """Every term ``iter(**filters)`` yields, as a pandas DataFrame with typed columns."""
        from .io import dataframe  # when first used: ``import events_calendar`` stays light

        return dataframe.to_dataframe(self, filters, progress=progress)

    def create(self, **data: Any) -> T:
        """Create a term; a sibling with the same name is a ``TermExists`` error."""
        ctx, data = self._ctx, plain_fields(data)
        tag_parent = self._tag_parent(data)
        clean = _read_term(self._cls, data, ctx, creating=True)  # validation first (fact sheet 2)
        ctx.require(ctx.actor.can_create(self.kind), f"create {self.kind} terms")
        if tag_parent:
            raise NotHierarchical()
        with ctx.backend.transaction():
            return self._insert(clean)

    def _insert(self, clean: dict[str, Any]) -> T:
        self._refuse_duplicate(clean["name"], clean.get("parent", 0), None)
        term_id = self._ctx.backend.reserve_ids("term")[0]
        slug = self._unique_slug(
            slugify(clean.get("slug") or clean["name"]) or str(term_id),
            parent=clean.get("parent", 0),
        )
        term = self._cls(id=term_id, slug=slug, **{k: v for k, v in clean.items() if k != "slug"})
        self._ctx.backend.insert([term])
        return term

    def update(self, term_id: int, **changes: Any) -> T:
        """Change only the given fields."""
        ctx = self._ctx
        current = self.get(term_id)  # an unknown id, then bad input, before the right to edit
        refuse_missing(self._cls, changes, creating=False)  # a name of NaN: missing, as create
        changes = plain_fields(changes)
        tag_parent = self._tag_parent(changes)
        clean = _read_term(self._cls, changes, ctx, creating=False)
        ctx.require(ctx.actor.can_create(self.kind), f"edit {self.kind} terms")
        if tag_parent:
            raise NotHierarchical()
        with ctx.backend.transaction():
            current = self.get(term_id)  # again, under the write lock: no update is lost
            if "name" in clean or "parent" in clean:
                self._refuse_duplicate(
                    clean.get("name", current.name), clean.get("parent", current.parent), current.id
                )
            if clean.get("parent") == current.id or self._is_descendant(
                clean.get("parent"), current.id
            ):
                raise InvalidParameter.one(
                    "parent", "send a category that is not this one or one of its sub-categories"
                )
            if "slug" in clean and clean["slug"] != current.slug:
                clean["slug"] = self._updated_slug(clean, current)
            term = attrs.evolve(current, **clean)
            ctx.backend.replace(term)
            return self.get(term_id)

    def delete(self, term_id: int, *, force: bool = True) -> T:
        """Remove the term for good (terms have no trash); returns it as it was.

        Events lose the term. The children of a deleted category move up to its parent, as
        WordPress's ``wp_delete_term`` moves them, so a tree keeps its shape one level up
        instead of scattering the grandchildren to the top level.

        ``force`` is there for the signature posts share, and must be ``True``: a term has no
        trash to move to, so ``force=False`` is refused (``InvalidParameter`` naming
        ``force``, as WordPress's term routes answer ``rest_trash_not_supported``) rather
        than taken as a removal; it was removed all the same. It is read strictly
        (``validation.read_flag``), so a ``force="no"`` is refused too.
        """
        ctx = self._ctx
        _require_force(force)
        current = self.get(term_id)  # an unknown id is refused before the right to delete
        ctx.require(ctx.actor.can_create(self.kind), f"delete {self.kind} terms")
        backend = ctx.backend
        with backend.transaction():
            current = self.get(term_id)  # again, under the write lock: its parent as it is now
            children = backend.get_many(Category, child_terms(backend, self.kind, [current.id]))
            for child in children.values():
                backend.replace(attrs.evolve(child, parent=current.parent))
            backend.remove(self.kind, current.id)
        return current

    def delete_many(
        self, ids_or_filters: object, /, *, force: bool = True, progress: ProgressArg = None
    ) -> builtins.list[int]:
        """Remove many terms for good (as ``delete`` does each), in one transaction; returns
        their ids in the order given.

        Terms are given as any iterable of ids or a mapping of ``list()`` filters (see
        ``PostCollection.update_many``). Every id is checked first; an unknown one is
        ``NotFound`` naming it (the field ``ids[3]`` is the fourth) and removes nothing.
        ``force`` is read as ``delete`` reads it (``True``, the default, or refused).
        """
        _require_force(force)
        ctx = self._ctx
        ctx.require(ctx.actor.can_create(self.kind), f"delete {self.kind} terms")
        with ctx.backend.transaction():
            targets = posts_bulk.target_ids(self, ids_or_filters, single="delete")
            for _ in posts_bulk.loaded(self, targets):  # every id known before the first removal
                pass
            ids = [term_id for _, term_id in targets]
            with tracking(progress, total=len(ids), unit=plural(self.kind)) as advance:
                for done, term_id in enumerate(ids, start=1):
                    self.delete(term_id)
                    advance(done)
        return ids

    def ids_for(self, items: Iterable[int | str]) -> tuple[int, ...]:
        """Ids for a list of ids, slugs and names; missing names are created (inside the
        caller's transaction), as the reference creates unknown categories and tags.

        An item that is not text is an id, read as ``get`` reads one (``validation.read_id``):
        a numpy integer from an array or Series, or a whole float, is the id it holds.
        """
        items = [
            item if isinstance(item, str) else read_id(item, field=f"items[{number}]")
            for number, item in enumerate(items)
        ]
        found = self.resolve([i for i in items if isinstance(i, str)])
        return tuple(dict.fromkeys(i if isinstance(i, int) else found[i] for i in items))

    def resolve(self, keys: Iterable[str]) -> dict[str, int]:
        """The term id for each slug or name, creating the missing ones (inside the caller's
        transaction): two storage queries for any number of keys, plus an insert (and after
        the first, a lookup) for each new one."""
        keys = list(dict.fromkeys(keys))
        backend = self._ctx.backend
        found = term_ids(backend, self.kind, keys)
        created = False
        for key in keys:
            if key not in found:
                # A name given twice in two cases ("Jazz", then "jazz") names the term made
                # for the first, as it would had that one been stored before.
                again = term_ids(backend, self.kind, [key]) if created else {}
                found[key] = again[key] if key in again else self._insert({"name": key}).id
                created = True
        return found

    def _refuse_duplicate(self, name: str, parent: int, own_id: int | None) -> None:
        backend = self._ctx.backend
        same = backend.get_many(self._cls, backend.find_names(self.kind, [name]).get(name, []))
        for term in same.values():
            if term.id != own_id and term.parent == parent:
                # Categories are unique per parent, flat tags per taxonomy.
                where = "with this parent" if self.kind == "category" else "in this taxonomy"
                raise TermExists(
                    f"A {self.kind} named {name!r} already exists {where}; use another name "
                    f"or the existing {self.kind} (id {term.id}).",
                    term_id=term.id,
                    kind=self.kind,
                )

    def _is_descendant(self, candidate: int | None, ancestor: int) -> bool:
        if not candidate or self.kind != "category":
            return False
        frontier = {ancestor}
        seen: set[int] = set()
        while frontier:
            frontier = set(child_terms(self._ctx.backend, self.kind, frontier)) - seen
            if candidate in frontier:
                return True
            seen |= frontier
        return False

    def _tag_parent(self, given: dict[str, Any]) -> bool:
        """Whether ``given`` names a parent for a tag, which takes none. It is taken out of
        ``given``: the other fields are checked first, and the caller's rights, as WordPress's
        term routes do before they refuse it."""
        if self.kind != "tag" or "parent" not in given:
            return False
        del given["parent"]
        return True

    def _updated_slug(self, clean: dict[str, Any], current: T) -> str:
        """The slug an update asks for, as stored. Another term's slug is refused
        (``SlugTaken``), as ``wp_update_term`` refuses it, unless the update also moves the
        term under another parent, where WordPress makes it unique as a create does."""
        wanted = slugify(clean["slug"]) or str(current.id)
        moved = clean.get("parent", current.parent) != current.parent
        if (
            wanted != current.slug
            and not moved
            and slug_taken(self._ctx.backend, self.kind, wanted)
        ):
            raise SlugTaken(wanted)
        if wanted == current.slug:
            return wanted
        return self._unique_slug(wanted, parent=clean.get("parent", current.parent))

    def _unique_slug(self, slug: str, *, parent: int) -> str:
        """``slug`` if no term of this kind has it, else as WordPress's
        ``wp_unique_term_slug`` makes it unique: under a ``parent`` category, the parent's
        slug goes after it (``jazz-music``), then the grandparent's, and so up until one is
        free or the root is reached; only then is it numbered (``jazz-music-2``)."""
        backend = self._ctx.backend
        if parent and slug_taken(backend, self.kind, slug):
            found = backend.get_many(Category, [parent]).get(parent)
            ancestors = reversed(self.paths([found])[parent]) if found is not None else ()
            for ancestor in ancestors:
                slug = slugify(f"{slug}-{ancestor}")
                if not slug_taken(backend, self.kind, slug):
                    break
        return free_slug(backend, self.kind, slug)
