"""The one place driver errors become the library's own.

Each engine names its driver's exception classes once (``DriverErrors``) and wraps every
statement in ``translating``; nothing else in the library catches a driver exception.
"""

from __future__ import annotations

from types import TracebackType

import attrs

from ...errors import Conflict, StorageUnavailable

__all__ = ["DriverErrors", "translate", "translating"]


@attrs.frozen
class DriverErrors:
    """Which exceptions of a driver mean what."""

    #: A constraint refused the write (unique slug, foreign key, primary key).
    integrity: tuple[type[BaseException], ...]
    #: Another writer held the lock for longer than the engine waits.
    busy: tuple[type[BaseException], ...] = ()
    #: The database is gone or cannot be reached, or lacks a table of its schema (dropped
    #: under a running calendar, say): either way not usable until someone fixes it, which a
    #: caller learns from ``StorageUnavailable`` the same on every backend.
    unavailable: tuple[type[BaseException], ...] = ()


def translate(
    errors: DriverErrors, database: str, error: BaseException
) -> Conflict | StorageUnavailable | None:
    """The library's error for a driver's, or ``None`` when it is not the driver's to say.

    For hot paths (one call per statement): ``except BaseException as error:``, then raise
    what this returns ``from error``, or re-raise when it returns ``None``.
    """
    if isinstance(error, errors.integrity):
        return Conflict(f"The write breaks a storage rule: {_first_line(error)}.")
    if isinstance(error, errors.busy):
        return Conflict(
            f"{database} stayed locked by another writer; try again. ({_first_line(error)})"
        )
    if isinstance(error, errors.unavailable):
        return StorageUnavailable.of(database, _first_line(error))
    return None


class translating:
    """Run driver calls, turning the driver's errors into ``Conflict`` or
    ``StorageUnavailable`` (the driver's exception stays attached as the cause).

    A class, not a generator: every statement passes through one, and an engine keeps one
    and enters it again (it holds no state between uses), where a generator-based context
    manager cost a new generator and four calls a statement."""

    __slots__ = ("database", "errors")

    def __init__(self, errors: DriverErrors, database: str) -> None:
        self.errors = errors
        self.database = database

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if error is None:
            return
        mapped = translate(self.errors, self.database, error)
        if mapped is not None:
            raise mapped from error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
