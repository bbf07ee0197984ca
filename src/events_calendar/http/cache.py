"""A response cache for anonymous reads, invalidated by any write.

Most traffic to a public calendar is the same few anonymous reads (the default event list,
popular events). Their answers depend only on the request, the stored data and the day, so an
answer can be served again until any write commits: every entry remembers the backend's
``generation()`` when it was made and is used only while that has not changed. Writes from
other processes count too (SQLite's ``data_version``).

What is never cached: requests with credentials or a ``password`` parameter, and requests whose
answer depends on the time of day rather than the day (relative date phrases such as
``now``/``+2 hours``, ``only_with_upcoming``). The day itself is part of the key, because the
default list window moves at midnight in the calendar's zone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from ..caching import GenerationCache

__all__ = ["CachedResponse", "ResponseCache", "cacheable"]

#: Date parameters whose value, when it is a plain calendar date or time, fixes the answer.
_DATE_PARAMS = frozenset(
    {"start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"}
)
_ABSOLUTE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?")
_CLOCK_PARAMS = frozenset({"only_with_upcoming"})


def cacheable(query: Mapping[str, str], has_credentials: bool) -> bool:
    """Whether an anonymous GET with this query may be answered from the cache."""
    if has_credentials or "password" in query:
        return False
    if any(name in query for name in _CLOCK_PARAMS):
        return False
    return all(
        _ABSOLUTE.fullmatch(value.strip())
        for name, value in query.items()
        if name.rstrip("[]") in _DATE_PARAMS
    )


@attrs.frozen
class CachedResponse:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


#: Responses of anonymous reads, kept per data generation (``caching.GenerationCache``).
ResponseCache = GenerationCache[CachedResponse]
