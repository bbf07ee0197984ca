"""List answers: the envelope, links to the neighbouring pages, the total headers, and the
effective query each list echoes into ``rest_url``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.responses import Response

from ..coerce import is_truthy
from ..dates import format_wall, repeat_offset
from ..queries import EventFilter, EventQuery, LinkedQuery, Page, TermQuery
from ..records import Event, Kind
from .call import Call

__all__ = ["envelope", "event_query_params", "linked_query_params", "term_query_params"]


def envelope(
    call: Call,
    kind: Kind,
    key: str,
    items: list[Any],
    page: Page[Any],
    params: list[tuple[str, str]],
    *,
    terms: bool = False,
) -> Response:
    """The list envelope, links to the neighbouring pages, and the total headers."""
    without_page = [(k, v) for k, v in params if k != "page"]
    rest_url = call.urls.listing(kind, params if not terms else without_page)
    body: dict[str, Any] = {}
    more = page.page < page.total_pages
    next_url = call.urls.listing(kind, [*without_page, ("page", str(page.page + 1))])
    if page.page == 2:
        previous_url = call.urls.listing(kind, without_page)
    else:
        previous_url = call.urls.listing(kind, [*without_page, ("page", str(page.page - 1))])
    if terms:
        body.update(
            {
                "rest_url": rest_url,
                "total": page.total,
                "total_pages": page.total_pages,
                key: items,
            }
        )
        if items and more:
            body["next_rest_url"] = next_url
        if page.page > 1:  # a term page past the end still links back (clist_page_beyond)
            body["previous_rest_url"] = previous_url
    else:
        body.update({key: items, "rest_url": rest_url})
        if items and more:
            body["next_rest_url"] = next_url
        if items and page.page > 1:
            body["previous_rest_url"] = previous_url
        body.update({"total": page.total, "total_pages": page.total_pages})
    return call.respond(
        200,
        body,
        {"X-TEC-Total": str(page.total), "X-TEC-TotalPages": str(page.total_pages)},
    )


def _default_status(call: Call) -> str:
    return "any" if call.cal.actor.may_filter_status else "publish"


def event_query_params(call: Call, page: Page[Event]) -> list[tuple[str, str]]:
    """The effective query, echoed into ``rest_url``: every filter is kept.

    ``ticketed=false`` filters nothing and is left out, as the reference leaves it out
    (evlist_ticketed_false); a true ``geoloc``, which filters nothing either, is echoed with
    empty coordinates, as the reference echoes it (evlist_geoloc). A bound in the second
    pass of an hour the calendar's zone repeats carries its UTC offset, so that it reads back
    as the same instant (a wall time alone is the first pass).
    """
    flt = page.filter
    assert isinstance(flt, EventFilter)
    zone = call.cal.zone
    given = call.only(EventQuery)

    def stamp(value: Any) -> str | None:
        if value is None:
            return None
        local = value.astimezone(zone)  # the second pass of a repeated hour needs its offset
        return format_wall(local) + repeat_offset(local)

    status = given.get("status")
    if status is None:
        status = _default_status(call)
    pairs: list[tuple[str, Any]] = [
        ("page", page.page),
        ("per_page", page.per_page),
        ("start_date", stamp(flt.start_min)),
        ("end_date", stamp(flt.end_max)),
        *(_GEOLOC if is_truthy(given.get("geoloc")) else ()),
        ("search", given.get("search")),
        ("categories", _csv(given.get("categories"))),
        ("tags", _csv(given.get("tags"))),
        ("status", _csv(status)),
        ("post_parent", given.get("post_parent")),
        ("include", _csv(given.get("include"))),
        ("starts_before", stamp(flt.start_before)),
        ("starts_after", stamp(flt.start_after)),
        ("ends_before", stamp(flt.end_before)),
        ("ends_after", stamp(flt.end_after)),
        ("strict_dates", given.get("strict_dates")),
        ("venue", _csv(given.get("venue"))),
        ("organizer", _csv(given.get("organizer"))),
        ("featured", None if flt.featured is None else int(flt.featured)),
    ]
    return _echoed(pairs)


#: What the reference writes into ``rest_url`` for ``geoloc=true`` (coordinates or not).
_GEOLOC: tuple[tuple[str, Any], ...] = (("geoloc", 1), ("geoloc_lat", ""), ("geoloc_lng", ""))


def linked_query_params(call: Call, page: Page[Any]) -> list[tuple[str, str]]:
    """The effective venue or organizer query, echoed into ``rest_url``."""
    given = call.only(LinkedQuery)
    pairs = [
        ("page", page.page),
        ("per_page", page.per_page),
        ("search", given.get("search")),
        ("event", given.get("event")),
        ("has_events", given.get("has_events")),
        ("only_with_upcoming", given.get("only_with_upcoming")),
        ("status", _csv(given.get("status") or _default_status(call))),
    ]
    return _echoed(pairs)


def term_query_params(call: Call) -> list[tuple[str, str]]:
    """The term query as given (less ``page``), echoed into ``rest_url``."""
    return _echoed((k, _csv(v)) for k, v in call.only(TermQuery).items() if k != "page")


def _echoed(pairs: Iterable[tuple[str, Any]]) -> list[tuple[str, str]]:
    """Parameters as the reference's ``add_query_arg`` writes them (PHP's
    ``http_build_query``): a list or map given in brackets (``only_with_upcoming[]=1``, read
    as PHP reads it) goes back in brackets, one pair per item, never as Python's ``['1']``."""
    found: list[tuple[str, str]] = []
    for name, value in pairs:
        if isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            found.extend(_echoed((f"{name}[{key}]", item) for key, item in items))
        elif value is not None:
            found.append((name, str(value)))
    return found


def _csv(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return value
