"""Reading a request's parameters the way WordPress's REST server does.

Parameters come from the JSON body, a form body, the query string, in that order of
precedence. A query key written ``name[]`` collects its values into a list
(``a[]=1&a[]=2``); ``a=1,2`` stays a string, which the core reads as a CSV list; a repeated
plain key keeps its last value, as PHP does.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from typing import Any

import anyio.to_thread
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request

from ..errors import InvalidParameter

__all__ = ["InvalidJson", "bare_name", "is_json", "media_type", "read_params"]

#: Why a parameter whose bytes are not UTF-8 is refused (``%ff``, an encoded lone surrogate).
NOT_UTF8 = "send text as UTF-8 (percent-encoded UTF-8 bytes in a URL or form)"


class InvalidJson(Exception):
    """The body claims to be JSON and is not."""


def _collect(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """Parameters as PHP's ``parse_str`` reads a query string or form body, which is what the
    reference's endpoints see: ``a[]=1&a[]=2`` and ``a[0]=1&a[1]=2`` are lists,
    ``venue[venue]=Hall&venue[city]=Nice`` a map, and they nest
    (``organizer[0][organizer]=Org``). A map whose keys are all whole numbers is a list, in
    the order given (PHP's ``array_values``, which the reference applies to link lists). A
    name with unbalanced brackets, or nested deeper than PHP's 64 levels, is kept as written.
    """
    found: dict[str, Any] = {}
    # By ``id`` of a map: the map (so no other map takes its ``id`` if a value replaces it),
    # and the number its next ``[]`` takes.
    following: dict[int, tuple[dict[str, Any], int]] = {}
    for key, value in pairs:
        head, bracket, rest = key.partition("[")
        path = _BRACKETS.findall(bracket + rest) if head and bracket else []
        if not path or "".join(f"[{p}]" for p in path) != bracket + rest or len(path) > 64:
            found[key] = value
            continue
        node = found
        for name, after in zip([head, *path], [*path, None], strict=True):
            if after is None:
                _put(node, name, value, following=following)
                break
            child = node.get(name) if name else None
            if not isinstance(child, dict):
                child = {}
                _put(node, name, child, following=following)
            node = child
    return {name: _as_lists(value) for name, value in found.items()}


def bare_name(name: str) -> str:
    """A parameter's name without its brackets (``venue[]``, ``venue[0]``): ``_collect`` reads
    each as that parameter, as PHP does. (A name with unbalanced brackets, which ``_collect``
    keeps as written, loses them too: for the cache's judgements that errs on the safe side.)"""
    return name.partition("[")[0] or name


#: One ``[...]`` of a bracketed parameter name.
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")


def _put(
    node: dict[str, Any],
    name: str,
    value: Any,
    *,
    following: dict[int, tuple[dict[str, Any], int]],
) -> None:
    """``node[name] = value``; an empty name (``[]``) appends, after the highest whole-number
    key, as PHP does. ``following`` keeps that number for each map (keys are never removed,
    so it only grows): finding it by reading every key, as before, made ``a[]`` repeated
    quadratic, 3.2 s on the event loop for 4,000 of them."""
    _, number = following.get(id(node), (node, 0))
    if not name:
        name = str(number)
    if name.isdecimal():  # (``isdigit`` also holds for ``²``, which ``int`` refuses)
        following[id(node)] = (node, max(number, int(name) + 1))
    node[name] = value


def _as_lists(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    items = {k: _as_lists(v) for k, v in value.items()}
    return list(items.values()) if items and all(k.isdigit() for k in items) else items


#: PHP's ``json_decode`` default depth, which WordPress uses: deeper bodies are invalid JSON.
MAX_JSON_DEPTH = 512


def _depth(value: Any, *, most: int = MAX_JSON_DEPTH) -> int:
    """How deeply arrays and objects nest in a decoded JSON value, counted up to ``most + 1``.

    A level at a time, keeping only the containers: it runs on the event loop, and walking
    every value one at a time (as it did) cost about 2 µs a value, 2.9 s for the largest
    body the limits let through (``RequestLimits`` now bounds the values, too)."""
    level, layer = 0, [value] if isinstance(value, dict | list) else []
    while layer and level <= most:
        level += 1
        layer = [
            child
            for item in layer
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
    return level


#: The most fields a form body may hold (Starlette's own limit for a multipart body).
MAX_FORM_FIELDS = 1000


def _pairs(raw: bytes, *, most: int | None = None) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a query string or form body, as Starlette reads them
    (``parse_qsl`` of its Latin-1 text, blank values kept), but refusing bytes that are not
    UTF-8 (which it would turn into U+FFFD unnoticed): an ``InvalidParameter`` naming each
    such parameter. More than ``most`` pairs are refused.

    Read with ``_unquote`` rather than ``parse_qsl``, whose ``unquote`` made two objects of
    every ``%XX``: a 4 MiB field of them took 0.9 s and 320 MB more memory to read."""
    if most is not None and raw and raw.count(b"&") + 1 > most:
        raise InvalidParameter({"body": f"send at most {most:,} fields"})
    try:
        return [
            (_unquote(name), _unquote(value))
            for name, _, value in (part.partition(b"=") for part in raw.split(b"&") if part)
        ]
    except UnicodeDecodeError:
        bad = {}
        for part in raw.split(b"&"):
            name, _, value = part.partition(b"=")
            for piece in (name, value):
                try:
                    _escaped_bytes(piece).decode("utf-8")
                except UnicodeDecodeError:
                    readable = _escaped_bytes(name).decode("utf-8", "replace")
                    bad[readable.removesuffix("[]")] = NOT_UTF8
        raise InvalidParameter(bad) from None


#: A run of ASCII bytes, and of those that are not: ``urllib.parse.unquote`` decodes the
#: escapes of each ASCII run as UTF-8 and keeps the other bytes as they are (Latin-1).
_ASCII = re.compile(rb"[\x00-\x7f]+")
#: Consecutive ``%XX`` escapes, each read as ``unquote_to_bytes`` reads it.
_ESCAPES = re.compile(rb"((?:%[0-9A-Fa-f]{2})+)")
#: Bytes unescaped at once: what ``_unquote_to_bytes`` makes meanwhile is bounded by it.
_PIECE = 64 * 1024


def _unquote(raw: bytes) -> str:
    """``urllib.parse.unquote(raw.decode("latin-1").replace("+", " "), errors="strict")``,
    in time and memory in step with ``raw``: no object per escape, nor per run of bytes."""
    raw = raw.replace(b"+", b" ")
    if b"%" not in raw:
        return raw.decode("latin-1")
    if raw.isascii():
        return _unquote_to_bytes(raw).decode("utf-8")
    text = io.StringIO()
    end = 0
    for run in _ASCII.finditer(raw):
        text.write(raw[end : run.start()].decode("latin-1"))
        text.write(_unquote_to_bytes(run[0]).decode("utf-8"))
        end = run.end()
    text.write(raw[end:].decode("latin-1"))
    return text.getvalue()


def _escaped_bytes(raw: bytes) -> bytes:
    """The bytes a field's text stands for, its other bytes read as Latin-1 characters (in
    UTF-8): how a field is judged once one is found not to be UTF-8."""
    return _unquote_to_bytes(raw.replace(b"+", b" ").decode("latin-1").encode())


def _unquote_to_bytes(raw: bytes) -> bytes:
    """``urllib.parse.unquote_to_bytes(raw)``, ``_PIECE`` bytes at a time, an object per run
    of escapes (``bytes.fromhex``) rather than two per escape."""
    done = []
    start = 0
    while start < len(raw):
        end = start + _PIECE
        if end < len(raw):
            # A ``%`` in the last two bytes may begin an escape: it starts the next piece.
            # (Judged where it stands, ``%`` followed by ``%`` is a ``%``: so is one
            # followed by nothing, and the ``%`` before it reads the same in either piece.)
            cut = raw.find(b"%", end - 2, end)
            end = cut if cut > start else end
        parts = _ESCAPES.split(raw[start:end])
        parts[1::2] = [bytes.fromhex(part.replace(b"%", b"").decode()) for part in parts[1::2]]
        done.append(b"".join(parts))
        start = end
    return b"".join(done)


def media_type(content_type: str | None) -> str:
    """The media type of a ``Content-Type`` header, lower-cased, without its parameters."""
    return (content_type or "").split(";")[0].strip().lower()


def is_json(media: str) -> bool:
    """Whether a body of this media type is read as JSON: ``application/json`` or a
    ``+json`` type, as WordPress's ``wp_is_json_media_type`` says. WordPress reads no other
    body as JSON (a ``text/plain`` one, which browsers send across sites without asking,
    is not read), so neither does this server."""
    return media == "application/json" or media.endswith("+json")


#: Form bodies and query strings longer than this are read in a worker thread: reading one
#: of 4 MiB took 0.9 s, and 1,000 fields of ``x[][]…`` 64 deep 0.4 s, on the event loop,
#: where every other request waited meanwhile. Shorter ones take less than the trip there.
READ_IN_THREAD = 16 * 1024


async def _read_form(raw: bytes, *, most: int | None = None) -> dict[str, Any]:
    """The parameters of a query string or form body (``_pairs``, then ``_collect``)."""
    if len(raw) <= READ_IN_THREAD:
        return _collect(_pairs(raw, most=most))
    return await anyio.to_thread.run_sync(lambda: _collect(_pairs(raw, most=most)))


async def read_params(request: Request) -> dict[str, Any]:
    """Every parameter of the request, highest precedence last applied."""
    params = await _read_form(request.scope.get("query_string", b""))
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return params
    content_type = media_type(request.headers.get("content-type"))
    raw = await request.body()
    if content_type == "application/x-www-form-urlencoded":
        params.update(await _read_form(raw, most=MAX_FORM_FIELDS))
    elif content_type == "multipart/form-data":
        try:
            form: FormData = await request.form()
        except (MultiPartException, HTTPException) as error:  # Starlette raises the second
            # for the first inside an app: no boundary, a broken body, too many fields.
            detail = error.detail if isinstance(error, HTTPException) else error.message
            why = f"send a well-formed multipart body: {detail}"
            raise InvalidParameter({"body": why}) from None
        params.update(_collect((k, v) for k, v in form.multi_items() if isinstance(v, str)))
    elif is_json(content_type) and raw.strip():
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError) as error:
            raise InvalidJson(str(error) or "nested too deeply") from None
        if _depth(body) > MAX_JSON_DEPTH:
            raise InvalidJson(f"nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(body, dict):
            params.update(body)
    return params
