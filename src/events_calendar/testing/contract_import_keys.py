"""Import keys: what an imported record was called in its file, kept so that importing the
same file again finds the record instead of adding a copy; and the calendar's identity, which
tells its own iCalendar UIDs from another calendar's. Runs on the storage protocol."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from events_calendar.errors import Conflict
from events_calendar.storage import CALENDAR_IDENTITY, Backend

from .base import ContractBase

__all__ = ["ImportKeysContract"]


class ImportKeysContract(ContractBase):
    """``find_import_keys``, ``set_import_keys`` and ``import_keys`` of a backend, and
    ``calendar_identity`` and ``set_calendar_identity``."""

    @pytest.fixture
    def keys_store(self) -> Iterator[Backend]:
        backend = self.make_backend()
        yield backend
        backend.close()

    def test_import_keys_are_found_by_kind_and_key(self, keys_store: Backend) -> None:
        """A recorded key answers its record id for its kind only; unknown keys are absent."""
        keys_store.set_import_keys("event", {"uid:a@x": 3, "uid:b@x": 4})
        keys_store.set_import_keys("venue", {"uid:a@x": 9})
        assert ({"uid:a@x": 3}, {"uid:a@x": 9}) == (
            keys_store.find_import_keys("event", ["uid:a@x", "uid:z@x"]),
            keys_store.find_import_keys("venue", ["uid:a@x"]),
        )

    def test_setting_a_known_import_key_moves_it(self, keys_store: Backend) -> None:
        """A key recorded again points at the new record id."""
        keys_store.set_import_keys("event", {"csv:Ref:7": 3})
        keys_store.set_import_keys("event", {"csv:Ref:7": 5})
        assert {"csv:Ref:7": 5} == keys_store.import_keys("event")

    def test_import_keys_roll_back_with_their_transaction(self, keys_store: Backend) -> None:
        """Keys set in a failed transaction are gone, and a moved key points back."""
        keys_store.set_import_keys("event", {"uid:kept": 1})

        def failing() -> None:
            with keys_store.transaction():
                keys_store.set_import_keys("event", {"uid:kept": 2, "uid:new": 3})
                raise Conflict("undo the keys")

        with pytest.raises(Conflict, match="undo the keys"):
            failing()
        assert {"uid:kept": 1} == keys_store.import_keys("event")

    def test_many_import_keys_are_found_at_once(self, keys_store: Backend) -> None:
        """Thousands of keys (more than one statement's parameters) are set and found."""
        keys = {f"uid:{n}": n for n in range(1, 3001)}
        keys_store.set_import_keys("event", keys)
        assert keys == keys_store.find_import_keys("event", [*keys, "uid:none"])

    def test_a_calendar_has_one_identity_of_16_hex_digits(self, keys_store: Backend) -> None:
        """Made with the storage, the same at every call."""
        identity = keys_store.calendar_identity()
        assert (True, identity) == (
            bool(CALENDAR_IDENTITY.fullmatch(identity)),
            keys_store.calendar_identity(),
        )

    def test_a_taken_identity_rolls_back_with_its_transaction(self, keys_store: Backend) -> None:
        """``set_calendar_identity`` is kept when its transaction commits, undone when not."""
        own = keys_store.calendar_identity()

        def failing() -> None:
            with keys_store.transaction():
                keys_store.set_calendar_identity("0123456789abcdef")
                raise Conflict("undo the identity")

        with pytest.raises(Conflict, match="undo the identity"):
            failing()
        after_rollback = keys_store.calendar_identity()
        keys_store.set_calendar_identity("fedcba9876543210")
        assert (own, "fedcba9876543210") == (after_rollback, keys_store.calendar_identity())
        keys_store.set_calendar_identity(own)  # a shared test database keeps its own
