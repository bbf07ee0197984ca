"""Reading a request's parameters the way WordPress's REST server does.

Parameters come from the JSON body, a form body, the query string, in that order of
precedence. A query key written ``name[]`` collects its values into a list
(``a[]=1&a[]=2``); ``a=1,2`` stays a string, which the core reads as a CSV list; a repeated
plain key keeps its last value, as PHP does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request

__all__ = ["InvalidJson", "read_params"]


class InvalidJson(Exception):
    """The body claims to be JSON and is not."""


def _collect(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key.endswith("[]"):
            found.setdefault(key[:-2], [])
            if isinstance(found[key[:-2]], list):
                found[key[:-2]].append(value)
        else:
            found[key] = value
    return found


#: PHP's ``json_decode`` default depth, which WordPress uses: deeper bodies are invalid JSON.
MAX_JSON_DEPTH = 512


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a decoded JSON value (iteratively)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack.extend(
                (child, level + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


async def read_params(request: Request) -> dict[str, Any]:
    """Every parameter of the request, highest precedence last applied."""
    params = _collect(request.query_params.multi_items())
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return params
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()
    if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form: FormData = await request.form()
        params.update(_collect((k, v) for k, v in form.multi_items() if isinstance(v, str)))
    elif raw.strip():
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError) as error:
            raise InvalidJson(str(error) or "nested too deeply") from None
        if _depth(body) > MAX_JSON_DEPTH:
            raise InvalidJson(f"nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(body, dict):
            params.update(body)
    return params
