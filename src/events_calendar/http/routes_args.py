"""How the reference describes each argument of its routes: description, type, items, format,
default, in tables keyed by argument name per route kind, in the reference's display order.

``routes_spec`` decides which arguments an endpoint takes (from the record and query
declarations) and reads their descriptions here; a declared argument missing from its table is
a ``LookupError`` there. Defaults that depend on the calendar or the clock are ``Computed``
markers, resolved per request by ``routes_spec.resolve_default``.
"""

from __future__ import annotations

import enum
from typing import Any

from ..records import POST_KINDS, Kind

__all__ = ["NOUNS", "Computed", "body_table", "integer_arg", "list_table", "text_arg"]


class Computed(enum.Enum):
    """A default computed per request from the calendar, its clock or the mount point."""

    NAMESPACE = "namespace"
    PER_PAGE = "per_page"
    WINDOW_START = "window_start"
    WINDOW_END = "window_end"


NOUNS: dict[Kind, tuple[str, str]] = {
    "event": ("event", "events"),
    "venue": ("venue", "venues"),
    "organizer": ("organizer", "organizers"),
    "category": ("event category", "event categories"),
    "tag": ("event tag", "event tags"),
}
_INT_LIST = {"items": {"type": "integer"}}


def text_arg(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", **more, "description": description}


def _flag(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def integer_arg(description: str) -> dict[str, Any]:
    return {"type": "integer", "description": description}


def _paging(kind: Kind) -> dict[str, dict[str, Any]]:
    return {
        "page": {"default": 1, "description": "The archive page to return", "type": "integer"},
        "per_page": {
            "default": Computed.PER_PAGE,
            "description": f"The number of {NOUNS[kind][1]} to return on each page",
            "type": "integer",
        },
    }


def _event_list_table() -> dict[str, dict[str, Any]]:
    pro = "Requires Events Calendar Pro. Events should be filtered by"
    day_note = (
        "Dates set using the start_date/end_date, starts_*/ends_* are set to start at the "
        "specified times. The default behavior is to include the entire days."
    )
    table: dict[str, dict[str, Any]] = {
        "start_date": {
            "default": Computed.WINDOW_START,
            "description": "Events that start on the specified date",
        },
        "end_date": {
            "default": Computed.WINDOW_END,
            "description": "Events that end on the specified date",
        },
    }
    for edge, verb in (("starts", "start"), ("ends", "end")):
        for side in ("before", "after"):
            table[f"{edge}_{side}"] = {
                "description": f"Events that {verb} {side} the specified date"
            }
    assigned = "Events should be assigned one of the specified"
    table.update(
        {
            "strict_dates": {"default": "false", "description": day_note},
            "search": {
                "description": "Events should contain the specified string in the title or "
                "description",
                "type": "string",
            },
            "categories": {"description": f"{assigned} categories slugs or IDs", **_INT_LIST},
            "tags": {"description": f"{assigned} tags slugs or IDs", **_INT_LIST},
            "venue": {"description": f"{assigned} venue IDs", **_INT_LIST},
            "organizer": {"description": f"{assigned} organizer IDs", **_INT_LIST},
            "featured": _flag("Events should be filtered by their featured status"),
            "status": {"format": "string", "description": "The event post status"},
            "geoloc": _flag(f"{pro} whether their venue has geolocation data"),
            "geoloc_lat": {
                "format": "double",
                "description": f"{pro} their venue latitude location, must also provide geoloc_lng",
            },
            "geoloc_lng": {
                "format": "double",
                "description": f"{pro} their venue longitude location, must also provide "
                "geoloc_lat",
            },
            "include": {
                "description": "Include events with one of the post IDs specified in the array "
                "of CSV list, date filters will be ignored.",
                **_INT_LIST,
            },
            "post_parent": integer_arg(
                "Events should be filtered by their post_parent being the specified one."
            ),
            "ticketed": _flag("Filter events with or without tickets."),
        }
    )
    return {**_paging("event"), **table}


def _linked_list_table(kind: Kind) -> dict[str, dict[str, Any]]:
    things = NOUNS[kind][1].capitalize()
    return {
        **_paging(kind),
        "search": {
            "description": f"{things} should contain the specified string in the title, "
            "description or custom fields",
            "type": "string",
        },
        "event": {"description": f"{things} should be related to this event", "type": "integer"},
        "has_events": {"description": f"{things} should have events associated to them"},
        "only_with_upcoming": {
            "description": f"{things} should have upcoming events associated to them",
            "default": False,
        },
        # sic: the reference describes both kinds' status filter as the organizer's
        "status": {"format": "string", "description": "The organizer post status"},
    }


def _term_list_table(kind: Kind) -> dict[str, dict[str, Any]]:
    limit = "Limit result set to"
    return {
        **_paging(kind),
        "search": {"description": "Limit results to those matching a string", "type": "string"},
        "exclude": {"description": "Ensure result set exclude specific IDs", **_INT_LIST},
        "include": {"description": f"{limit} specific IDs", **_INT_LIST},
        "order": {"description": "Order sort attribute ascending or descending", "type": "string"},
        "orderby": {"description": "Sort collection by term attribute", "type": "string"},
        "hide_empty": {
            "description": "Whether to hide terms not assigned to any posts",
            "type": "boolean",
            "default": "1",
        },
        "parent": {
            "description": f"{limit} terms assigned to a specific parent",
            "type": "integer",
        },
        "post": {"description": f"{limit} terms assigned to a specific post", "type": "integer"},
        "event": {
            "description": f'{limit} terms assigned to a specific event (an alias of the "post" '
            "parameter)",
            "type": "integer",
        },
        "slug": {"description": f"{limit} terms with a specific slug", "type": "string"},
    }


def _event_body_table() -> dict[str, dict[str, Any]]:
    def linked(description: str) -> dict[str, Any]:
        return {"default": None, **_INT_LIST, "description": description}

    return {
        # ``password`` first: on update by id the reference lists it right after ``id``
        "password": text_arg("The event password"),
        "author": integer_arg("The event author ID"),
        "date": text_arg("The event publication date"),
        "date_utc": text_arg("The event publication date (UTC time zone)"),
        "title": text_arg("The event title"),
        "description": text_arg("The event description"),
        "slug": text_arg("The event slug"),
        "excerpt": text_arg("The event excerpt"),
        "status": text_arg("The event post status"),
        "timezone": text_arg("The event time zone"),
        "all_day": {"default": False, **_flag("Whether the event lasts the whole day or not")},
        "start_date": text_arg("The event start date and time"),
        "end_date": text_arg("The event end date and time"),
        "image": text_arg("The event featured image ID or URL"),
        "cost": {"description": "The event cost"},
        "website": {"default": None, "description": "The event website URL"},
        "show_map": _flag("Whether the event should show a map or not"),
        "show_map_link": _flag("Whether the event should show a map link or not"),
        "hide_from_listings": _flag("Whether events should be hidden in the calendar view or not"),
        "sticky": _flag("Whether the event should be sticky in the calendar view or not"),
        "featured": _flag("Whether the event should be featured on the site or not"),
        "categories": linked("The event category ID or name"),
        "tags": linked("The event tag ID or name"),
        "venue": linked("The event venue IDs or data"),
        "organizer": linked("The event organizer IDs or data"),
    }


def _venue_body_table() -> dict[str, dict[str, Any]]:
    def optional(what: str) -> dict[str, Any]:
        return text_arg(what, default=None)

    shown = "Whether events linked to the venue should show a map"
    return {
        "author": integer_arg("The venue author ID"),
        "date": text_arg("The venue publication date"),
        "date_utc": text_arg("The venue publication date (UTC time zone)"),
        "venue": text_arg("The venue name"),
        "slug": text_arg("The venue slug"),  # ours: the reference has no venue slug argument
        "description": optional("The venue description"),
        "status": text_arg("The venue post status"),
        "show_map": optional(f"{shown} or not"),
        "show_map_link": optional(f"{shown} link or not"),
        "address": optional("The venue address"),
        "city": optional("The venue city"),
        "country": optional("The venue country"),
        "province": optional("The venue province"),
        "state": optional("The venue state"),
        "zip": optional("The venue ZIP code"),
        "phone": optional("The venue phone number"),
        "stateprovince": optional("The venue state and province"),
        "website": optional("The venue website URL"),
        "image": optional("The organizer featured image ID or URL"),  # sic
    }


def _organizer_body_table() -> dict[str, dict[str, Any]]:
    def optional(what: str, kind: str = "string") -> dict[str, Any]:
        return {"type": kind, "default": None, "description": f"The organizer {what}"}

    return {
        "author": optional("author ID", "integer"),
        "date": optional("publication date"),
        "date_utc": optional("publication date (UTC time zone)"),
        "organizer": optional("name"),
        "slug": optional("slug"),  # ours, as the next one
        "description": optional("description"),
        "status": optional("post status"),
        "phone": optional("phone number"),
        "website": optional("website"),
        "email": optional("e-mail address"),
        "image": optional("featured image ID or URL"),
    }


def _term_body_table(kind: Kind) -> dict[str, dict[str, Any]]:
    noun = NOUNS[kind][0]
    return {
        "name": text_arg(f"The {noun} name"),
        "description": text_arg(f"The {noun} description"),
        "slug": text_arg(f"The {noun} slug"),
        "parent": integer_arg(f"The {noun} slug"),  # sic
    }


def list_table(kind: Kind) -> dict[str, dict[str, Any]]:
    """How the reference describes the list arguments of ``kind``, in its order."""
    if kind == "event":
        return _event_list_table()
    if kind in POST_KINDS:
        return _linked_list_table(kind)
    return _term_list_table(kind)


def body_table(kind: Kind) -> dict[str, dict[str, Any]]:
    """How the reference describes the create/update fields of ``kind``, in its order."""
    if kind == "event":
        return _event_body_table()
    if kind == "venue":
        return _venue_body_table()
    if kind == "organizer":
        return _organizer_body_table()
    return _term_body_table(kind)
