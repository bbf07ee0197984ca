"""JSON responses: the one serialiser and content type every answer of the adapter uses."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

try:  # orjson is part of the ``http`` extra; the standard library is the fallback
    import orjson

    def dumps(data: Any) -> bytes:
        return orjson.dumps(data)

    def serialised(data: Any) -> Any:
        return orjson.Fragment(orjson.dumps(data))
except ImportError:  # pragma: no cover - exercised only without the extra
    import json

    def dumps(data: Any) -> bytes:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()

    def serialised(data: Any) -> Any:
        return data


serialised.__doc__ = """``data`` as a part of a later answer, serialised now: ``dumps`` of an answer
that holds it writes the same bytes. A kept part (``fragments``) is then one object that the
garbage collector does not walk, where the object was a tree of dicts and lists: a server
keeping 8,192 events' objects walked ~150,000 more containers in each full collection (130-200
ms pauses that stalled every request)."""

__all__ = ["dumps", "json_response", "serialised"]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(
        dumps(body),
        status_code=status,
        headers=headers,
        media_type="application/json; charset=UTF-8",
    )
