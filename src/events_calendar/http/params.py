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
from urllib.parse import parse_qsl, unquote_to_bytes

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request

from ..errors import InvalidParameter

__all__ = ["InvalidJson", "read_params"]

#: Why a parameter whose bytes are not UTF-8 is refused (``%ff``, an encoded lone surrogate).
NOT_UTF8 = "send text as UTF-8 (percent-encoded UTF-8 bytes in a URL or form)"


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


#: The most fields a form body may hold (Starlette's own limit for a multipart body).
MAX_FORM_FIELDS = 1000


def _pairs(raw: bytes, *, most: int | None = None) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a query string or form body, as Starlette reads them, but
    refusing bytes that are not UTF-8 (which it would turn into U+FFFD unnoticed): an
    ``InvalidParameter`` naming each such parameter. More than ``most`` pairs are refused."""
    text = raw.decode("latin-1")
    try:
        return parse_qsl(
            text, keep_blank_values=True, encoding="utf-8", errors="strict", max_num_fields=most
        )
    except UnicodeDecodeError:
        bad = {}
        for part in text.split("&"):
            name, _, value = part.partition("=")
            for piece in (name, value):
                try:
                    unquote_to_bytes(piece.replace("+", " ")).decode("utf-8")
                except UnicodeDecodeError:
                    readable = unquote_to_bytes(name.replace("+", " "))
                    bad[readable.decode("utf-8", "replace").removesuffix("[]")] = NOT_UTF8
        raise InvalidParameter(bad) from None
    except ValueError:  # more fields than ``most``
        raise InvalidParameter({"body": f"send at most {most:,} fields"}) from None


async def read_params(request: Request) -> dict[str, Any]:
    """Every parameter of the request, highest precedence last applied."""
    params = _collect(_pairs(request.scope.get("query_string", b"")))
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return params
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()
    if content_type == "application/x-www-form-urlencoded":
        params.update(_collect(_pairs(raw, most=MAX_FORM_FIELDS)))
    elif content_type == "multipart/form-data":
        try:
            form: FormData = await request.form()
        except (MultiPartException, HTTPException) as error:  # Starlette raises the second
            # for the first inside an app: no boundary, a broken body, too many fields.
            detail = error.detail if isinstance(error, HTTPException) else error.message
            why = f"send a well-formed multipart body: {detail}"
            raise InvalidParameter({"body": why}) from None
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
