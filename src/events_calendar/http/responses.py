"""JSON responses: the one serialiser and content type every answer of the adapter uses."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

try:  # orjson is part of the ``http`` extra; the standard library is the fallback
    import orjson

    def dumps(data: Any) -> bytes:
        return orjson.dumps(data)
except ImportError:  # pragma: no cover - exercised only without the extra
    import json

    def dumps(data: Any) -> bytes:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


__all__ = ["dumps", "json_response"]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(
        dumps(body),
        status_code=status,
        headers=headers,
        media_type="application/json; charset=UTF-8",
    )
