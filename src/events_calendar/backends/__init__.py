"""Storage backends, chosen by URL scheme."""

from __future__ import annotations

from .base import Backend
from .memory import MemoryBackend

__all__ = ["Backend", "MemoryBackend", "open_backend"]


def open_backend(url: str) -> Backend:
    """The backend a database URL names."""
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        return MemoryBackend()
    from ..errors import InvalidParameter

    raise InvalidParameter.one("url", f"unsupported database URL {url!r}; send 'memory://'")
