"""Permission rules that never reach storage, run once on the in-memory backend.

These tests came out of the backend contract suite (``events_calendar.testing``): each caller is
refused, or its input is, before any storage call (a recording backend saw none), so running them
once per backend only repeated them. Refusals whose point is that storage stays unchanged stay
in the contract.
"""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import Forbidden, InvalidParameter, MissingParameter
from events_calendar.http.errors import status_of
from events_calendar.testing.contract_access_base import (
    ALL_KINDS,
    POST_KINDS,
    AccessContractBase,
    collection,
    list_all,
)
from events_calendar.testing.contract_event_base import EventContractBase


class TestAccessRules(AccessContractBase):
    """Anonymous callers: bad input reported first, unpublished status filters refused."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_create_with_bad_input_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Missing required fields are reported before the anonymous caller is refused."""
        with pytest.raises(MissingParameter):
            collection(anon, kind).create()

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_other_status_filter_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Anonymous callers asking for any other status get ``InvalidParameter``."""
        with pytest.raises(InvalidParameter, match="status") as info:
            list_all(anon, kind, status="draft")
        assert ("rest_invalid_param", 400, ["status"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )


class TestEventPermissionRules(EventContractBase):
    """Anonymous callers may not create events, one by one or in bulk."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()

    def test_anonymous_callers_may_not_create_events(self, anon: ec.Calendar) -> None:
        """Creating anonymously is refused with rest_forbidden (everr_anon)."""
        with pytest.raises(Forbidden, match="may not create") as caught:
            self.add_event(anon, title="Anon Event")
        assert "rest_forbidden" == caught.value.code
        assert 401 == status_of(caught.value)

    def test_bulk_create_needs_permission(self, anon: ec.Calendar) -> None:
        """Anonymous callers may not bulk-create."""
        with pytest.raises(Forbidden) as caught:
            anon.events.bulk_create(self.event_rows(1))
        assert "rest_forbidden" == caught.value.code
