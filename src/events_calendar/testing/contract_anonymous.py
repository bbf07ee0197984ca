"""Access contract: anonymous callers and subscribers may not write."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    NotFound,
)

from .contract_access_base import (
    ALL_KINDS,
    POST_KINDS,
    AccessContractBase,
    collection,
    create,
    forbidden,
    name_change,
)
from .contract_record_base import snapshot

__all__ = ["AnonymousContract"]


class AnonymousContract(AccessContractBase):
    """Anonymous and subscriber writes are refused (401/403) and change nothing."""

    # == anonymous callers ====================================================================
    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_create_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous create is ``Forbidden`` with status 401 and stores nothing."""
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            create(anon, kind, "Anon")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_update_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous update is ``Forbidden`` (401) and changes nothing."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).update(record.id, **name_change(kind))
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_delete_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous delete is ``Forbidden`` (401) and changes nothing."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).delete(record.id)
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_update_of_unknown_id_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """The id is validated before the right to write is checked, as the reference
        validates arguments before permissions (fact sheet section 2): a 400, not a 401."""
        with pytest.raises(NotFound, match="999999") as info:
            collection(anon, kind).update(999999, **name_change(kind))
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_delete_of_unknown_id_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Deleting an unknown id anonymously is ``NotFound`` (400 ``rest_invalid_param``), as
        in the reference's VenueDeletionCest and CategoryDeletionCest (fact sheet section 2)."""
        with pytest.raises(NotFound, match="999999") as info:
            collection(anon, kind).delete(999999)
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_update_of_unknown_id_is_not_found(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A caller who may write this kind learns that the id does not exist."""
        contributor = self.user_cal(cal, "contributor")
        with pytest.raises(NotFound, match="999999"):
            collection(contributor, kind).update(999999, **name_change(kind))

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    def test_anonymous_update_by_slug_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous update through a slug is ``Forbidden`` (401)."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).update_by_slug(record.slug, phone="0")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    def test_anonymous_delete_by_slug_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous delete through a slug is ``Forbidden`` (401)."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).delete_by_slug(record.slug)
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    # == subscribers ==========================================================================
    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_subscriber_cannot_create(self, cal: ec.Calendar, kind: str) -> None:
        """A subscriber's create is ``Forbidden`` with status 403."""
        subscriber = self.user_cal(cal, "subscriber")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            create(subscriber, kind, "Mine")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_subscriber_cannot_edit(self, cal: ec.Calendar, kind: str) -> None:
        """A subscriber may not edit a published record."""
        record = create(cal, kind, "Public")
        subscriber = self.user_cal(cal, "subscriber")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            collection(subscriber, kind).update(record.id, **name_change(kind))
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)
