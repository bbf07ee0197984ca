"""Import keys: what an imported record was called in its file, kept so that importing the
same file again finds the record instead of adding a copy. Runs on the storage protocol."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from events_calendar.errors import Conflict
from events_calendar.storage import Backend

from .base import ContractBase

__all__ = ["ImportKeysContract"]


class ImportKeysContract(ContractBase):
    """``find_import_keys``, ``set_import_keys`` and ``import_keys`` of a backend."""

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
