"""Conditional GETs (RFC 9110 section 13): whether a client's copy is still current.

The feed sends ``ETag`` and ``Last-Modified``; a calendar application polling it sends them
back as ``If-None-Match`` and ``If-Modified-Since`` and gets ``304 Not Modified`` while nothing
changed. The response cache asks the same question of the answers it keeps.
"""

from __future__ import annotations

from collections.abc import Mapping
from email.utils import parsedate_to_datetime

__all__ = ["not_modified"]


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
