"""Record contract: categories and tags, created, read, updated and deleted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
    MissingParameter,
    NotFound,
    NotHierarchical,
    SlugTaken,
    TermExists,
)

from .base import ContractBase
from .contract_record_base import (
    TERM_KINDS,
    link_field,
    links,
    make_event,
    snapshot,
    terms,
)

__all__ = ["TermContract"]


class TermContract(ContractBase):
    """Categories and tags: fields, slugs, duplicates, parents, deletes, counts."""

    # == categories and tags ==================================================================
    def test_category_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """A category keeps its name, slug, description and parent; its count starts at 0."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(
            name="Jazz", slug="jazz-music", description="Swing and bebop", parent=music.id
        )
        assert ("Jazz", "jazz-music", "Swing and bebop", music.id, 0) == (
            jazz.name,
            jazz.slug,
            jazz.description,
            jazz.parent,
            jazz.count,
        )

    def test_tag_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """A tag keeps its name, slug and description; tags are flat."""
        tag = cal.tags.create(name="Family Friendly", slug="family", description="For all")
        assert ("Family Friendly", "family", "For all", 0, 0) == (
            tag.name,
            tag.slug,
            tag.description,
            tag.parent,
            tag.count,
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_reads_back_equal(self, cal: ec.Calendar, kind: str) -> None:
        """What ``create`` returns is what ``get`` reads back."""
        term = terms(cal, kind).create(name="Outdoor", description="Open air")
        assert term == terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_slug_is_made_from_the_name(self, cal: ec.Calendar, kind: str) -> None:
        """The slug drops punctuation and joins words with dashes."""
        assert "rock-roll" == terms(cal, kind).create(name="Rock & Roll").slug

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_taken_slug_gets_a_number(self, cal: ec.Calendar, kind: str) -> None:
        """A term whose slug would clash with another's gets ``-2`` appended."""
        terms(cal, kind).create(name="Sports", slug="sport-events")
        assert "sport-events-2" == terms(cal, kind).create(name="Sport Events").slug

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_get_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A term is found by its slug, or by a text that slugifies to it, in its own kind."""
        rock = terms(cal, kind).create(name="Rock & Roll")
        other = "tag" if kind == "category" else "category"
        terms(cal, other).create(name="Rock & Roll Night", slug="rock-roll-night")
        assert [rock, rock] == [
            terms(cal, kind).get_by_slug("rock-roll"),
            terms(cal, kind).get_by_slug("Rock Roll"),
        ]
        with pytest.raises(NotFound, match=f"no {kind} with the slug 'rock-roll-night'") as info:
            terms(cal, kind).get_by_slug("rock-roll-night")
        assert ("rest_invalid_param", ["slug"]) == (info.value.code, list(info.value.fields))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_renamed_term_is_found_by_its_new_slug_only(self, cal: ec.Calendar, kind: str) -> None:
        """Terms keep no former slugs: after a slug change the old one finds nothing."""
        term = terms(cal, kind).create(name="Outdoor")
        terms(cal, kind).update(term.id, slug="open-air")
        assert term.id == terms(cal, kind).get_by_slug("open-air").id
        with pytest.raises(NotFound):
            terms(cal, kind).get_by_slug("outdoor")

    def test_categories_and_tags_share_one_id_sequence(self, cal: ec.Calendar) -> None:
        """Categories and tags draw distinct ids from one sequence."""
        category = cal.categories.create(name="Music")
        tag = cal.tags.create(name="Music")
        assert category.id != tag.id

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_without_name_is_missing(self, cal: ec.Calendar, kind: str) -> None:
        """A term needs a name: ``MissingParameter`` naming ``name``."""
        before = snapshot(cal)
        with pytest.raises(MissingParameter, match="name") as info:
            terms(cal, kind).create(description="no name")
        assert ("rest_missing_callback_param", 400, ["name"]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_with_empty_name_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty name is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="name") as info:
            terms(cal, kind).create(name="")
        assert ["name"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize(
        ("kind", "where"), [("category", "with this parent"), ("tag", "in this taxonomy")]
    )
    def test_duplicate_term_name_is_term_exists(
        self, cal: ec.Calendar, kind: str, where: str
    ) -> None:
        """A second term with the same name is ``TermExists`` carrying the existing id."""
        first = terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(TermExists, match=f"already exists {where}") as info:
            terms(cal, kind).create(name="Music")
        error = info.value
        assert ("term_exists", 400, first.id, {"term_id": first.id}) == (
            error.code,
            error.http_status,
            error.term_id,
            error.data,
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_duplicate_term_name_ignores_case(self, cal: ec.Calendar, kind: str) -> None:
        """Term names are compared ignoring case."""
        first = terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(TermExists, match="already exists") as info:
            terms(cal, kind).create(name="MUSIC")
        assert first.id == info.value.term_id
        assert before == snapshot(cal)

    def test_same_category_name_under_another_parent(self, cal: ec.Calendar) -> None:
        """Categories with one name may live under different parents."""
        music = cal.categories.create(name="Music")
        dance = cal.categories.create(name="Dance")
        cal.categories.create(name="Modern", parent=music.id)
        modern = cal.categories.create(name="Modern", parent=dance.id)
        assert (dance.id, 4) == (
            modern.parent,
            cal.categories.list(hide_empty=False).total,
        )

    def test_category_with_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """A parent that is not an existing category is refused."""
        tag = cal.tags.create(name="Outdoor")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.create(name="Orphan", parent=tag.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_unknown_term_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown term id is ``NotFound`` (400 ``rest_invalid_param``)."""
        with pytest.raises(NotFound, match=f"no {kind} with ID 999999") as info:
            terms(cal, kind).get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )

    def test_tag_id_is_not_a_category(self, cal: ec.Calendar) -> None:
        """A term id of the other taxonomy is not found."""
        tag = cal.tags.create(name="Outdoor")
        with pytest.raises(NotFound, match="no category"):
            cal.categories.get(tag.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_changes_only_given_fields(self, cal: ec.Calendar, kind: str) -> None:
        """A term update changes the fields given and keeps the others."""
        term = terms(cal, kind).create(name="Workshops", description="Old")
        updated = terms(cal, kind).update(term.id, description="Hands-on sessions")
        assert ("Workshops", "workshops", "Hands-on sessions") == (
            updated.name,
            updated.slug,
            updated.description,
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """What ``update`` returns is what ``get`` reads back."""
        term = terms(cal, kind).create(name="Workshops")
        updated = terms(cal, kind).update(term.id, name="Workshops & Classes", slug="classes")
        assert updated == terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_renames(self, cal: ec.Calendar, kind: str) -> None:
        """Name and slug can be changed together."""
        term = terms(cal, kind).create(name="Workshops")
        updated = terms(cal, kind).update(term.id, name="Workshops & Classes", slug="classes")
        assert ("Workshops & Classes", "classes") == (updated.name, updated.slug)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_rename_to_sibling_name_is_term_exists(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming a term to a sibling's name is ``TermExists`` and changes nothing."""
        music = terms(cal, kind).create(name="Music")
        other = terms(cal, kind).create(name="Sports")
        before = snapshot(cal)
        with pytest.raises(TermExists, match="already exists") as info:
            terms(cal, kind).update(other.id, name="music")
        assert music.id == info.value.term_id
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_to_another_terms_slug_is_refused(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A slug asked for by an update that another term holds is ``SlugTaken``
        (``duplicate_term_slug``, as ``wp_update_term`` answers) and changes nothing; it
        used to be numbered (``music-2``) without a word. The term's own slug, in another
        spelling, is no clash."""
        terms(cal, kind).create(name="Music")
        other = terms(cal, kind).create(name="Sports")
        before = snapshot(cal)
        with pytest.raises(SlugTaken, match="\u201cmusic\u201d is already in use") as info:
            terms(cal, kind).update(other.id, slug="Music")
        assert (("duplicate_term_slug", ["slug"]), before, "sports") == (
            (info.value.code, list(info.value.fields)),
            snapshot(cal),
            terms(cal, kind).update(other.id, slug="SPORTS").slug,
        )

    def test_a_category_moved_under_another_parent_makes_a_taken_slug_unique(
        self, cal: ec.Calendar
    ) -> None:
        """Moving a category under another parent with a slug another term holds gives it
        the parent's slug after it, as WordPress's ``wp_unique_term_slug`` does there."""
        cal.categories.create(name="Music")
        parent = cal.categories.create(name="Live")
        other = cal.categories.create(name="Sounds")
        moved = cal.categories.update(other.id, slug="music", parent=parent.id)
        assert ("music-live", parent.id) == (moved.slug, moved.parent)

    @pytest.mark.parametrize("change", [{"parent": 1}, {"parent": 0}, {"parent": None}])
    def test_a_tag_takes_no_parent(self, cal: ec.Calendar, change: dict[str, object]) -> None:
        """Tags are not nested: a parent on a tag write, any value, is ``NotHierarchical``
        (``rest_taxonomy_not_hierarchical``) and writes nothing."""
        tag = cal.tags.create(name="Outdoor")
        before = snapshot(cal)
        refused = []
        writes: list[Callable[[], object]] = [
            lambda: cal.tags.create(name="Indoor", **change),
            lambda: cal.tags.update(tag.id, name="Outside", **change),
        ]
        for write in writes:
            with pytest.raises(NotHierarchical) as info:
                write()
            refused.append((info.value.code, list(info.value.fields)))
        assert ([("rest_taxonomy_not_hierarchical", ["parent"])] * 2, before) == (
            refused,
            snapshot(cal),
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_keeps_its_own_name(self, cal: ec.Calendar, kind: str) -> None:
        """Sending a term's own name again is not a duplicate."""
        term = terms(cal, kind).create(name="Music")
        assert "Music" == terms(cal, kind).update(term.id, name="Music").name

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_unknown_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating an unknown term is ``NotFound``."""
        terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            terms(cal, kind).update(999999, name="Ghost")
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)
        assert before == snapshot(cal)

    def test_category_reparent(self, cal: ec.Calendar) -> None:
        """A category can move under another parent."""
        music = cal.categories.create(name="Music")
        sports = cal.categories.create(name="Sports")
        rock = cal.categories.create(name="Rock", parent=music.id)
        assert sports.id == cal.categories.update(rock.id, parent=sports.id).parent

    def test_category_back_to_top_level(self, cal: ec.Calendar) -> None:
        """``parent=0`` makes a category top-level."""
        music = cal.categories.create(name="Music")
        rock = cal.categories.create(name="Rock", parent=music.id)
        assert 0 == cal.categories.update(rock.id, parent=0).parent

    def test_category_cannot_be_its_own_parent(self, cal: ec.Calendar) -> None:
        """A category may not be its own parent."""
        music = cal.categories.create(name="Music")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.update(music.id, parent=music.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_category_cannot_move_under_its_descendant(self, cal: ec.Calendar) -> None:
        """Moving a category under one of its descendants (a cycle) is refused."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        bebop = cal.categories.create(name="Bebop", parent=jazz.id)
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.update(music.id, parent=bebop.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_category_update_with_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """Re-parenting under an unknown category is refused."""
        music = cal.categories.create(name="Music")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent"):
            cal.categories.update(music.id, parent=999999)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_returns_the_term_as_it_was(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting returns the term as it was, its count included."""
        term = terms(cal, kind).create(name="Outdoor", description="Open air")
        make_event(cal, "Picnic", **links(link_field(kind), [term.id]))
        deleted = terms(cal, kind).delete(term.id)
        assert (term, 1) == (deleted, deleted.count)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_is_permanent(self, cal: ec.Calendar, kind: str) -> None:
        """A deleted term is gone: reading it is ``NotFound``."""
        term = terms(cal, kind).create(name="Temporary")
        terms(cal, kind).delete(term.id)
        with pytest.raises(NotFound, match=str(term.id)):
            terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_twice_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting a deleted term is ``NotFound`` (400 ``rest_invalid_param``)."""
        term = terms(cal, kind).create(name="Temporary")
        terms(cal, kind).delete(term.id)
        before = snapshot(cal)
        with pytest.raises(NotFound, match=str(term.id)) as info:
            terms(cal, kind).delete(term.id)
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_events_lose_a_deleted_term(self, cal: ec.Calendar, kind: str) -> None:
        """Events no longer carry a deleted term and keep their other terms."""
        gone = terms(cal, kind).create(name="Gone")
        kept = terms(cal, kind).create(name="Kept")
        event = make_event(cal, "Picnic", **links(link_field(kind), [gone.id, kept.id]))
        terms(cal, kind).delete(gone.id)
        assert (kept.id,) == getattr(cal.events.get(event.id), link_field(kind))

    def test_deleting_a_category_moves_its_children_up(self, cal: ec.Calendar) -> None:
        """The children of a deleted category move to its parent, as WordPress does."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        bebop = cal.categories.create(name="Bebop", parent=jazz.id)
        cal.categories.delete(jazz.id)
        assert music.id == cal.categories.get(bebop.id).parent

    def test_deleting_a_top_category_makes_children_top_level(self, cal: ec.Calendar) -> None:
        """Children of a deleted top-level category become top-level."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        cal.categories.delete(music.id)
        assert 0 == cal.categories.get(jazz.id).parent

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_count_is_the_number_of_published_events(self, cal: ec.Calendar, kind: str) -> None:
        """``count`` counts published events only (not drafts, pending or private ones)."""
        term = terms(cal, kind).create(name="Music")
        field = link_field(kind)
        make_event(cal, "One", **links(field, [term.id]))
        make_event(cal, "Two", **links(field, [term.id]))
        for status in ("draft", "pending", "private"):
            make_event(cal, status, status=status, **links(field, [term.id]))
        assert 2 == terms(cal, kind).get(term.id).count

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_count_drops_when_an_event_is_trashed(self, cal: ec.Calendar, kind: str) -> None:
        """Trashing an event lowers the count of its terms."""
        term = terms(cal, kind).create(name="Music")
        event = make_event(cal, "One", **links(link_field(kind), [term.id]))
        cal.events.delete(event.id)
        assert 0 == terms(cal, kind).get(term.id).count
