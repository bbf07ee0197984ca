"""Errors on the wire: the reference's payload ``{"code", "message", "data": {"status", ...}}``.

The core raises domain errors that know their code and their HTTP status (``http_status``);
this module reads the status (``status_of``) and adds the reference's wording. Bodies
match the reference word for word, because its clients compare codes and sometimes messages;
our fuller explanation (which field, what to send instead) travels beside it in the
``X-Events-Calendar-Hint`` header, so nothing a client of the reference reads changes.

It imports no web framework, so the backend contract suite can ask it for statuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import (
    CalendarError,
    Forbidden,
    InvalidParameter,
    MissingParameter,
    TermExists,
)

__all__ = ["HINT_HEADER", "error_body", "no_route_body", "status_of"]

HINT_HEADER = "X-Events-Calendar-Hint"


def status_of(error: CalendarError) -> int:
    """The HTTP status the adapter answers ``error`` with: the one the error declares."""
    return error.http_status


#: The reference's message for each of its own codes, where the wording is fixed.
_REFERENCE_MESSAGES = {
    "rest_forbidden": "Sorry, you are not allowed to do that.",
    "event-is-in-trash": "The event is already trashed",
    "venue-is-in-trash": "The venue is already trashed",
    "organizer-is-in-trash": "The organizer is already trashed",
    "event-not-accessible": "The requested event is not accessible",
    "venue-not-accessible": "The requested venue is not accessible",
    "organizer-not-accessible": "The requested organizer is not accessible",
    "event-no-longer-available": "This event is no longer available",
    "event-password-protected": "The requested event is not accessible without a password",
    "event-archive-page-not-found": "The requested event archive page does not exist",
    "venue-archive-page-not-found": "The requested venue archive page does not exist",
    "organizer-archive-page-not-found": "The requested organizer archive page does not exist",
}

#: WordPress's words for a duplicate term: categories are unique per parent, tags per taxonomy.
_TERM_EXISTS = {
    "category": "A term with the name provided already exists with this parent.",
    "tag": "A term with the name provided already exists in this taxonomy.",
}


def _param_problem(name: str, code: str | None) -> tuple[str, dict[str, Any] | None]:
    """The reference's message for one bad parameter, and its ``details`` entry if it has one.

    Plain validation failures are "Invalid parameter." with no details; a value of the wrong
    type and a refused add-on filter carry WordPress's nested error (ev_bool_yes,
    evlist_ticketed_true).
    """
    if code == "invalid_boolean":
        message = f"{name} is not of type boolean."
        return message, {"code": "rest_invalid_type", "message": message, "data": {"param": name}}
    if code == "event-tickets-not-active":
        message = "Event Tickets plugin is not activated."
        return message, {"code": code, "message": message, "data": {"status": 400}}
    return "Invalid parameter.", None


#: The codes of the problems WordPress finds only in its second pass over the arguments
#: (``sanitize_params``: a value of the wrong type), after every validator has passed.
_SECOND_STAGE = frozenset({"invalid_boolean"})


def _first_stage(fields: Sequence[str], codes: dict[str, str]) -> list[str]:
    """The bad fields the reference names in one answer. It checks arguments in two passes
    (``has_valid_params``, then ``sanitize_params`` for their types) and answers the first
    that fails, so a type error shows only when no validator failed: ``title: ""`` with
    ``all_day: "q"`` names ``title`` alone. The core reports every problem at once; the hint
    header still lists them all."""
    first = [f for f in fields if codes.get(f) not in _SECOND_STAGE]
    return first or list(fields)


def no_route_body() -> dict[str, Any]:
    return {
        "code": "rest_no_route",
        "message": "No route was found matching the URL and request method.",
        "data": {"status": 404},
    }


def _in_declared_order(fields: Sequence[str], declared: Sequence[str]) -> list[str]:
    """``fields`` in the order the route declares its arguments, as WordPress checks them
    (the core reports them in the order the request gave them). A nested field
    (``venue.website``) goes where its argument (``venue``) is; any field the route does
    not declare goes last, in the order given."""
    position = {name: i for i, name in enumerate(declared)}
    last = len(position)
    return sorted(fields, key=lambda field: position.get(field.split(".")[0], last))


def error_body(
    error: CalendarError, declared: Sequence[str] = ()
) -> tuple[int, dict[str, Any], str]:
    """(status, body, hint) for a core error; ``declared`` is the route's arguments, in the
    order its errors name bad or missing ones."""
    hint = "; ".join(f"{name}: {why}" for name, why in error.fields.items()) or error.message
    if isinstance(error, MissingParameter):
        names = _in_declared_order(list(error.fields), declared)
        return (
            400,
            {
                "code": error.code,
                "message": f"Missing parameter(s): {', '.join(names)}",
                "data": {"status": 400, "params": names},
            },
            hint,
        )
    if isinstance(error, TermExists):
        return (
            400,
            {
                "code": error.code,
                "message": _TERM_EXISTS.get(error.kind, error.message),
                "data": {"status": 400, "term_id": error.term_id},
                "additional_data": [error.term_id, error.term_id],
            },
            hint,
        )
    if error.code == "rest_invalid_param" and error.fields:
        codes = error.codes if isinstance(error, InvalidParameter) else {}
        params: dict[str, str] = {}
        details: dict[str, Any] = {}
        for field in _in_declared_order(_first_stage(list(error.fields), codes), declared):
            name = field.split(".")[-1]
            params[name], detail = _param_problem(name, codes.get(field))
            if detail is not None:
                details[name] = detail
        return (
            400,
            {
                "code": "rest_invalid_param",
                "message": f"Invalid parameter(s): {', '.join(params)}",
                "data": {"status": 400, "params": params, "details": details or []},
            },
            hint,
        )
    status = status_of(error)
    if isinstance(error, Forbidden | InvalidParameter) or error.code in _REFERENCE_MESSAGES:
        message = _REFERENCE_MESSAGES.get(error.code, error.message)
    else:
        message = error.message
    return status, {"code": error.code, "message": message, "data": {"status": status}}, hint
