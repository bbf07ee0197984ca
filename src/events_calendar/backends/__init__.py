"""Storage backends, found by URL scheme through a lazy registry.

Each scheme names the module and class that serve it; the module is imported only when a URL
of that scheme is opened, so ``import events_calendar`` imports no database driver (nor
sqlite-utils, which imports pandas when it is installed).
"""

from __future__ import annotations

import importlib
import os

from ..errors import InvalidParameter, StorageUnavailable
from ..storage import Backend

__all__ = ["DEFAULT_URL", "ENV", "SCHEMES", "default_url", "open_backend"]

#: The database URL used wherever one is optional (unless ``$EVENTS_CALENDAR_DB`` names one).
DEFAULT_URL = "sqlite:///events.db"
#: The variable naming the database wherever a URL is optional.
ENV = "EVENTS_CALENDAR_DB"

#: URL scheme -> "module:class"; the class is built with ``from_url(url)``.
SCHEMES: dict[str, str] = {
    "memory": "events_calendar.backends.memory:MemoryBackend",
    "sqlite": "events_calendar.backends.sqlite:SQLiteBackend",
    "postgresql": "events_calendar.backends.postgres:PostgresBackend",
    "postgres": "events_calendar.backends.postgres:PostgresBackend",
}


def default_url() -> str:
    """``$EVENTS_CALENDAR_DB`` if set, else ``DEFAULT_URL``.

    Set but empty or blank (``EVENTS_CALENDAR_DB="$UNSET"``), it is ``InvalidParameter``
    naming it, not read as unset: that would open or create another database than the one
    meant, as an empty ``--db`` would."""
    url = os.environ.get(ENV)
    if url is None:
        return DEFAULT_URL
    if not url.strip():
        raise InvalidParameter.one(
            ENV,
            "it is set but empty; set it to a database URL (sqlite:///FILE, "
            f"postgresql://..., memory://), or unset it for {DEFAULT_URL}",
        )
    return url


def open_backend(url: str) -> Backend:
    """The backend a database URL names, opened (and migrated as needed).

    ``memory://``: in process memory. ``sqlite:///relative.db``, ``sqlite:////absolute.db``:
    an SQLite file. ``sqlite://``: a private in-memory SQLite database.
    ``postgresql://user@host:port/db``: a PostgreSQL database (the ``postgres`` extra).
    """
    scheme = url.partition("://")[0].lower()
    target = SCHEMES.get(scheme) if "://" in url else None
    if target is None:
        raise InvalidParameter.one(
            "url",
            f"unsupported database URL {url!r}; send 'sqlite:///path.db', 'sqlite://', "
            "'memory://' or 'postgresql://user@host:port/db'",
        )
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:  # the scheme's driver: an optional extra
        raise StorageUnavailable.of(
            f"{scheme}://",
            f"the {missing.name} module is missing; install the extra: "
            f"pip install 'events-calendar[{scheme.removesuffix('ql')}]'",
        ) from None
    backend: Backend = getattr(module, class_name).from_url(url)
    return backend
