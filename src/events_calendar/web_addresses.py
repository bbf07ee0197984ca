"""What a website or image address may be: one pattern, read by the validator and stated in /doc.

The rule is a regular expression rather than ``urllib.parse.urlsplit``: ``urlsplit`` accepts
tabs and control characters inside an address, raises a bare ``ValueError`` on an unclosed
``[`` or on a host that Unicode normalisation turns into ``/`` or ``#``, and cannot be written
into an OpenAPI ``pattern``. One expression is both what the server takes and what ``/doc``
promises, so a client generating addresses from ``/doc`` is never refused, and one sending
anything else always is.
"""

from __future__ import annotations

import re

__all__ = ["NEVER_IN_URL", "URL_DOC_PATTERN", "host_of", "path_of", "read_web_url"]

#: Blanks trimmed around an address (ASCII only: the same set in Python and ECMAScript).
_BLANK = r" \t\n\r\f\v"
#: Characters no part of an address holds: blanks and control characters (``\x85`` and
#: ``\ufeff`` spelled out, as Python and ECMAScript disagree on whether ``\s`` holds them),
#: and ``"``, ``<``, ``>`` and ``\``, which RFC 3986 does not allow unencoded: a quote or an
#: angle bracket breaks out of an ``href`` a client writes the address into (WordPress's
#: ``esc_url_raw`` strips them), and browsers read a backslash as a slash, so
#: ``http://127.0.0.1\@example.com/`` is a loopback address to them and ``example.com`` to
#: a reader that splits at the ``@``.
NEVER_IN_URL = r'\s\x00-\x1f\x7f\x85\ufeff"<>\\'
#: ``http(s)://`` (any case), a host (with its user and port, if any; no IPv6 brackets), then
#: optionally a path, query or fragment. Plain groups only: the pattern is also ECMAScript.
_URL = rf"[Hh][Tt][Tt][Pp][Ss]?://([^{NEVER_IN_URL}/?#\[\]]+)([/?#][^{NEVER_IN_URL}]*)?"
_MATCH = re.compile(_URL)
_TRIM = re.compile(rf"[{_BLANK}]*(.*?)[{_BLANK}]*", re.DOTALL)

#: The OpenAPI ``pattern`` of a website or image field: an address, blanks around it, or
#: blanks alone (which clear the field, as ``""`` does).
URL_DOC_PATTERN = rf"^[{_BLANK}]*({_URL}[{_BLANK}]*)?$"


def read_web_url(text: str) -> str | None:
    """``text`` trimmed, ``""`` for blanks alone, or ``None`` when it is no absolute http(s)
    address."""
    trimmed = _TRIM.fullmatch(text).group(1)  # type: ignore[union-attr]  # .* always matches
    if not trimmed:
        return ""
    return trimmed if _MATCH.fullmatch(trimmed) else None


def host_of(url: str) -> str:
    """The host name of an address ``read_web_url`` took, lower-cased, without user or port."""
    match = _MATCH.fullmatch(url)
    netloc = match.group(1) if match else ""
    return netloc.rpartition("@")[2].partition(":")[0].lower()


def path_of(url: str) -> str:
    """The path of an address ``read_web_url`` took (no query or fragment), ``""`` if none."""
    match = _MATCH.fullmatch(url)
    rest = (match.group(2) if match else None) or ""
    return re.split(r"[?#]", rest, maxsplit=1)[0]
