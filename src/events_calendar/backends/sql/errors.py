"""The one place driver errors become the library's own.

Each engine names its driver's exception classes once (``DriverErrors``) and wraps every
statement in ``translating``; nothing else in the library catches a driver exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import attrs

from ...errors import Conflict, StorageUnavailable

__all__ = ["DriverErrors", "translating"]


@attrs.frozen
class DriverErrors:
    """Which exceptions of a driver mean what."""

    #: A constraint refused the write (unique slug, foreign key, primary key).
    integrity: tuple[type[BaseException], ...]
    #: Another writer held the lock for longer than the engine waits.
    busy: tuple[type[BaseException], ...] = ()
    #: The database is gone or cannot be reached.
    unavailable: tuple[type[BaseException], ...] = ()


@contextmanager
def translating(errors: DriverErrors, database: str) -> Iterator[None]:
    """Run a statement, turning the driver's errors into ``Conflict`` or
    ``StorageUnavailable`` (the driver's exception stays attached as the cause)."""
    try:
        yield
    except errors.integrity as error:
        raise Conflict(f"The write breaks a storage rule: {_first_line(error)}.") from error
    except errors.busy as error:
        raise Conflict(
            f"{database} stayed locked by another writer; try again. ({_first_line(error)})"
        ) from error
    except errors.unavailable as error:
        raise StorageUnavailable.of(database, _first_line(error)) from error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
