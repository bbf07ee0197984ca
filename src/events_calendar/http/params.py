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
        except ValueError as error:
            raise InvalidJson(str(error)) from None
        if isinstance(body, dict):
            params.update(body)
    return params
