"""Storage backends, chosen by URL scheme."""

from __future__ import annotations

import os

from .base import Backend
from .memory import MemoryBackend
from .sqlite import SQLiteBackend

__all__ = [
    "DEFAULT_URL",
    "Backend",
    "MemoryBackend",
    "SQLiteBackend",
    "default_url",
    "open_backend",
]

#: The database URL used wherever one is optional (unless ``$EVENTS_CALENDAR_DB`` names one).
DEFAULT_URL = "sqlite:///events.db"


def default_url() -> str:
    """``$EVENTS_CALENDAR_DB`` if set, else ``DEFAULT_URL``."""
    return os.environ.get("EVENTS_CALENDAR_DB") or DEFAULT_URL


def open_backend(url: str) -> Backend:
    """The backend a database URL names.

    ``memory://``: in process memory. ``sqlite:///relative.db``, ``sqlite:////absolute.db``:
    an SQLite file (created and migrated as needed). ``sqlite://``: a private in-memory SQLite
    database.
    """
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme == "memory":
        return MemoryBackend()
    if scheme == "sqlite":
        path = rest[1:] if rest.startswith("/") else rest
        return SQLiteBackend(path or None)
    from ..errors import InvalidParameter

    raise InvalidParameter.one(
        "url",
        f"unsupported database URL {url!r}; send 'sqlite:///path.db', 'sqlite://' or 'memory://'",
    )
