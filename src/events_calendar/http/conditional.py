"""Conditional GETs (RFC 9110 section 13): whether a client's copy is still current.

Anonymous answers (the feed's included) carry ``ETag`` and ``Last-Modified``; a client
polling sends the tag back as ``If-None-Match`` and gets ``304 Not Modified`` while nothing
changed. The callers judge by the tag alone: a one-second ``Last-Modified`` cannot tell apart
two answers built in the same second. The response cache asks the same question of the
answers it keeps, and gives the answers it keeps their validators (``validators``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime

__all__ = ["CACHE_CONTROL", "last_modified", "not_modified", "strong_etag", "validators"]

#: Anonymous reads may be stored by any cache, which must ask again (conditionally) before
#: each reuse: an answer is current only until the next write, which no cache can foresee.
CACHE_CONTROL = "no-cache"


def strong_etag(body: bytes) -> str:
    """A strong entity tag for ``body``: a digest of its bytes."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def last_modified(changed: datetime) -> str:
    """``Last-Modified`` for an answer that changed at ``changed``: the whole second before it.

    RFC 9110 (section 8.8.2.1) forbids a ``Last-Modified`` later than the answer's ``Date``,
    and uvicorn writes ``Date`` from a clock it reads once a second, so ``Date`` may still
    say the second before ``changed``. A second earlier is also the safe side for
    ``If-Modified-Since``: a client is sent the answer again, never told a newer one is its.
    """
    second = changed.astimezone(UTC).replace(microsecond=0)
    return format_datetime(second - timedelta(seconds=1), usegmt=True)


def validators(body: bytes, now: datetime) -> tuple[tuple[str, str], ...]:
    """The headers that let a client revalidate ``body``, built at ``now``."""
    return (
        ("ETag", strong_etag(body)),
        ("Last-Modified", last_modified(now)),
        ("Cache-Control", CACHE_CONTROL),
    )


def not_modified(request: Mapping[str, str], response: Mapping[str, str]) -> bool:
    """Whether a GET with these request headers may be answered 304 for this response.

    ``If-None-Match`` decides when it is sent (``*`` or one of its tags, compared weakly);
    otherwise ``If-Modified-Since`` does, against ``Last-Modified``. A response without the
    validator asked about is always sent in full.
    """
    tags = request.get("if-none-match")
    if tags is not None:
        etag = response.get("etag")
        if etag is None:
            return False
        given = {_weak(tag) for tag in tags.split(",")}
        return "*" in given or _weak(etag) in given
    since, modified = request.get("if-modified-since"), response.get("last-modified")
    if since is None or modified is None:
        return False
    try:
        return parsedate_to_datetime(modified) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):  # a date that is no date: the condition is ignored
        return False


def _weak(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag
