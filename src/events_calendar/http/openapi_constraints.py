"""What each argument of ``/doc`` accepts: formats, enums, patterns and ranges.

``routes_args`` holds how the reference *describes* an argument (shown by the namespace index
as the reference shows it); this module adds what the validation really accepts, so that a
request valid by ``/doc`` is one the server takes. Nothing here is a second list: each keyword
comes from the declaration the check reads (``Status``, ``listing_terms.TERM_ORDERS``,
``coerce.NON_BLANK_TEXT``, ``listing_common.MAX_SEARCH_LENGTH``, ``validation.IMAGE_EXTENSIONS``,
the record fields' ``Input`` kinds ...).

Two things no schema can say are left to the prose: which ids name a record (an id or slug
that names none is a 400 ``rest_invalid_param``, the reference's answer), and how fields
combine (an event ends on or after its start).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from ..coerce import _FALSE, _REST_BOOLEANS, _TRUE, MAX_INT, NON_BLANK_TEXT, TEXT
from ..dates import iana_zone_names
from ..listing import DATE_FILTERS
from ..listing_common import MAX_SEARCH_LENGTH, last_page
from ..listing_linked import LINKED_SEARCH_WORD
from ..listing_terms import ORDER_DIRECTIONS, TERM_ORDERS
from ..records import (
    POST_KINDS,
    RECORD_CLASSES,
    TERM_KINDS,
    Input,
    Kind,
    Organizer,
    Venue,
    input_fields,
)
from ..statuses import Status
from ..terms import NON_BLANK_FIELDS
from ..validation import _SLUG_CHARACTER, EMAIL, IMAGE_EXTENSIONS
from ..web_addresses import NEVER_IN_URL, URL_DOC_PATTERN

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["body_constraints", "json_body_constraints", "query_constraints"]

Schema = dict[str, Any]

#: The date forms ``/doc`` promises: ``dates.format_wall``'s, or a day alone (any day of any
#: month up to the 28th of years 1000 to 9999), or a Unix timestamp up to 9,999,999,999. The
#: server reads far more (PHP's ``strtotime`` forms); those are not promised.
_WALL_DATE = (
    r"^([1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"
    r"( ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])?|(0|[1-9][0-9]{0,9})(\.[0-9]+)?)$"
)
#: Unix timestamps of 1000-01-01 and 10000-01-01 UTC: the years 1000-9999 the reader takes.
_FIRST_STAMP, _PAST_LAST_STAMP = -30_610_224_000, 253_402_300_800


def _image_url() -> str:
    """A public image URL: a dotted host name (not an address, not ``.localhost``) and a path
    ending with one of ``validation.IMAGE_EXTENSIONS``; or "" for none."""
    extensions = "|".join(re.escape(e.lstrip(".")) for e in IMAGE_EXTENSIONS)
    host = r"(?!localhost\.?$)(?![^/]*\.localhost(/|$))[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]+"
    # The characters ``web_addresses`` takes in a path, and in its last segment.
    path, name = f"[^{NEVER_IN_URL}?#]", f"[^{NEVER_IN_URL}?#/]"
    return rf"^(https?://{host}/({path}*/)?{name}*\.({extensions}))?$"


def _text(pattern: re.Pattern[str], **more: Any) -> Schema:
    return {"type": "string", "pattern": pattern.pattern, **more}


def _ids(*, filter_: bool = False, minimum: int = 1) -> Schema:
    """A list of ids (a CSV list in a query, where it may not be empty; an empty list of links
    clears them); which ids exist is no property of a schema."""
    item = {"type": "integer", "minimum": minimum, "maximum": MAX_INT}
    ids: Schema = {"type": "array", "items": item}
    return {**ids, "minItems": 1} if filter_ else ids


def _id(minimum: int = 1) -> Schema:
    return {"type": "integer", "minimum": minimum, "maximum": MAX_INT}


def _links(linked: type[Venue | Organizer] | None = None) -> Schema:
    """Venue or organizer links: ids (0 stands for none, ``validation._empty_link``), one or
    a list; in a JSON body (``linked``: the kind of record linked) also objects, ``false``
    and ``null`` for none. A list inside the list is no link at all (``[[null]]``: refused)."""
    none: list[Schema] = [{"type": "string", "enum": ["", "0"]}]
    one: Schema = {"anyOf": [_id(0), *none]}
    if linked is not None:
        none.append({"type": "boolean", "enum": [False]})
        one = {"anyOf": [_id(0), *_inline(linked), *none], "nullable": True}
    return {"anyOf": [{"type": "array", "items": one}, one]}


def _inline(linked: type[Venue | Organizer]) -> list[Schema]:
    """The objects a JSON link may be (``validation._Reader.linked``): ``{"id": n}`` naming a
    record (its other keys ignored), or the fields of a new one, its name required and keys
    it does not declare ignored."""
    fields = [*input_fields(linked), "date_utc"]
    data: Schema = {
        "type": "object",
        "required": [n for n, f in input_fields(linked).items() if f.required],
        "properties": {n: json_body_constraints(linked.kind, n, creating=True) for n in fields},
        "not": {"required": ["id"]},
        "description": f"a new {linked.kind}'s fields (an existing one of that name is reused)",
    }
    by_id: Schema = {"type": "object", "required": ["id"], "properties": {"id": _id()}}
    return [by_id, data]


def _terms() -> Schema:
    """Categories or tags of a record: ids, names or slugs (a name or slug new to the
    calendar makes a term), one, a list or a CSV text; 0 or ``false`` for none, as PHP's
    ``empty()`` reads them (``validation._Reader.terms``). A name is text, and not the digits
    of an id (those name the term with that id, which must exist)."""
    name = _text(TEXT, **{"not": {"pattern": r"^\s*[+-]?[0-9]+\s*$"}})
    one = {"anyOf": [_id(), name]}
    none = {"type": "boolean", "enum": [False]}
    return {"anyOf": [{"type": "array", "items": one}, _id(0), _text(TEXT), none]}


def _flags(strings: frozenset[str]) -> Schema:
    """A flag: true or false, 1 or 0, or one of the texts the reader takes."""
    words = {"type": "string", "enum": sorted(strings)}
    return {"anyOf": [{"type": "boolean"}, {"type": "integer", "enum": [0, 1]}, words]}


#: ``Input`` kinds whose reader takes a JSON ``null`` as "none" (an empty text, no links):
#: nullable in a JSON body. A form body cannot send a null (it would be the text "null").
NULLABLE = frozenset(
    {
        Input.TEXT,
        Input.COST,
        Input.PASSWORD,
        Input.URL,
        Input.IMAGE,
        Input.CATEGORIES,
        Input.TAGS,
        Input.VENUES,
        Input.ORGANIZERS,
    }
)


@functools.cache
def _input_kinds() -> dict[Input, Schema]:
    """What each ``records.Input`` kind accepts (``validation._READERS``)."""
    return {
        Input.NAME: _text(NON_BLANK_TEXT),
        Input.TEXT: _text(TEXT),
        Input.PASSWORD: _text(TEXT),
        # A cost is a text, a number that is not negative, or a list of those
        # (``cost.parse_cost``: empty items are skipped, the rest joined).
        Input.COST: {
            "anyOf": [
                *(costs := [_text(TEXT), {"type": "number", "minimum": 0}]),
                {"type": "array", "items": {"anyOf": costs, "nullable": True}},
            ]
        },
        # A slug is made of letters and digits (``slugs.slugify``): one holding an ASCII
        # letter or digit (``validation._SLUG_CHARACTER``).
        Input.SLUG: {"type": "string", "pattern": rf"^[^\x00]*{_SLUG_CHARACTER.pattern}[^\x00]*$"},
        Input.AUTHOR: _id(),
        Input.DATETIME: {"type": "string", "pattern": _WALL_DATE},
        Input.DATETIME_UTC: {"type": "string", "pattern": _WALL_DATE},
        # Any of the IANA names (a pattern, not an enum: its 600 values would each be a case).
        # Blank is the site's zone (``validation._Reader.zone_value``: UTC).
        Input.ZONE: {
            "type": "string",
            "pattern": r"^(\s*|"
            + "|".join(n.replace("+", r"\+") for n in iana_zone_names())
            + ")$",
        },
        Input.STATUS: {"type": "string", "enum": [s.value for s in Status]},
        Input.BOOL: {"type": "boolean"},
        Input.URL: {"type": "string", "pattern": URL_DOC_PATTERN},
        Input.IMAGE: {"type": "string", "pattern": _image_url()},
        Input.CATEGORIES: _terms(),
        Input.TAGS: _terms(),
        # A venue or organizer id 0 stands for none (``validation._empty_link``).
        # A venue or organizer link: one id or a list (``validation._Reader.linked``).
        Input.VENUES: _links(),
        Input.ORGANIZERS: _links(),
        Input.PARENT_TERM: _id(0),
        Input.PARENT_EVENT: _id(0),
    }


def body_constraints(kind: Kind, name: str) -> Schema:
    """The keywords of a create or update field (``date_utc`` reads as ``DATETIME_UTC``)."""
    field = input_fields(RECORD_CLASSES[kind]).get(name)
    kind_of_input = field.input if field else Input.DATETIME_UTC
    found = dict(_input_kinds()[kind_of_input])
    # A term's texts are never empty, as in the reference (``terms.NON_BLANK_FIELDS``). No
    # field is ``nullable``: a form body cannot send a null (it would be the text "null").
    if kind in TERM_KINDS and name in NON_BLANK_FIELDS and found.get("pattern") == TEXT.pattern:
        found["pattern"] = NON_BLANK_TEXT.pattern
    if (kind, name) == ("organizer", "email"):  # ``validation._FIELD_RULES``
        found["pattern"] = f"^({EMAIL.pattern})?$"
    if kind_of_input == Input.BOOL:
        # Event flags are read as WordPress's REST layer reads a boolean; venue flags
        # for truthiness (``coerce.as_rest_bool`` and ``as_bool``).
        found = _flags(frozenset(_REST_BOOLEANS) if kind == "event" else _TRUE | _FALSE)
    return found


def json_body_constraints(kind: Kind, name: str, *, creating: bool) -> Schema:
    """``body_constraints`` for a JSON body: ``nullable`` where the reader takes ``null``
    (a term's non-blank texts only on create: ``terms._refuse_blank_texts``), links may be
    objects (``{"id": n}`` or inline data), and an image ``false`` or 0 is none (as "" is):
    JSON values a form cannot send."""
    field = input_fields(RECORD_CLASSES[kind]).get(name)
    kind_of_input = field.input if field else Input.DATETIME_UTC
    if kind_of_input in (Input.VENUES, Input.ORGANIZERS):
        found = _links(Venue if kind_of_input == Input.VENUES else Organizer)
    elif kind_of_input in (Input.TEXT, Input.PASSWORD) and kind not in TERM_KINDS:
        # A number is read as its text (``validation._Reader.text``; a term's texts and an
        # organizer's email must be text).
        text = body_constraints(kind, name)
        found = {"anyOf": [text, {"type": "number"}]} if text["pattern"] == TEXT.pattern else text
    elif kind_of_input in (Input.DATETIME, Input.DATETIME_UTC):
        # A JSON number is a Unix timestamp (``dates``): any in the years 1000-9999 the
        # reader takes (in UTC; an event's own zone may move the edges by hours).
        stamp = {
            "type": "number",
            "minimum": _FIRST_STAMP,
            "maximum": _PAST_LAST_STAMP,
            "exclusiveMaximum": True,
        }
        found = {"anyOf": [body_constraints(kind, name), stamp]}
    elif kind_of_input == Input.IMAGE:
        nothing = [{"type": "integer", "enum": [0]}, {"type": "boolean", "enum": [False]}]
        found = {"anyOf": [body_constraints(kind, name), *nothing]}
    else:
        found = body_constraints(kind, name)
    never_blank = kind in TERM_KINDS and name in NON_BLANK_FIELDS and not creating
    if kind_of_input in NULLABLE and not never_blank:
        found["nullable"] = True
    return found


def _statuses(calendar: Calendar) -> Schema:
    """``status``: callers who may filter by status list any (CSV, or ``any``); the others
    only ``publish`` (``listing_common.read_statuses``)."""
    if not calendar.actor.may_filter_status:
        return {"type": "string", "enum": [Status.PUBLISH.value]}
    values = [s.value for s in Status] + ["any"]
    return {"type": "array", "items": {"type": "string", "enum": values}, "minItems": 1}


def query_constraints(kind: Kind, name: str, calendar: Calendar) -> Schema | None:
    """The keywords of a list filter, a password or ``None`` for one any text fits."""
    search_length = {"maxLength": MAX_SEARCH_LENGTH}
    linked_search = rf"^[^\x00]*({LINKED_SEARCH_WORD.pattern})[^\x00]*$"
    common: dict[str, Schema] = {
        "page": {"type": "integer", "minimum": 1, "maximum": last_page(calendar.settings)},
        "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_INT},
        "status": _statuses(calendar),
        "password": _text(TEXT),
        "search": {"type": "string", "pattern": linked_search, **search_length}
        if kind in ("venue", "organizer")
        else _text(NON_BLANK_TEXT, **search_length),
    }
    if kind == "event":
        by_name: dict[str, Schema] = {
            **{name: {"type": "string", "pattern": _WALL_DATE} for name in DATE_FILTERS},
            "strict_dates": {"type": "string", "minLength": 1},
            "categories": _ids(filter_=True),
            "tags": _ids(filter_=True),
            "venue": _ids(filter_=True),
            "organizer": _ids(filter_=True),
            "include": _ids(filter_=True),
            "post_parent": _id(),
            "featured": {"type": "boolean"},
            # Events Calendar Pro's geolocation: checked, then filtering nothing (``listing``).
            "geoloc": {"type": "boolean"},
            "geoloc_lat": {"type": "number"},
            "geoloc_lng": {"type": "number"},
            # ``ticketed=true`` asks for tickets, which this calendar does not sell (400).
            "ticketed": {"type": "boolean", "enum": [False]},
        }
    elif kind in POST_KINDS:
        by_name = {"event": _id()}
    else:
        by_name = {
            "include": _ids(filter_=True),
            "exclude": _ids(filter_=True),
            "parent": _id(),
            "post": _id(),
            "event": _id(),
            "order": {"type": "string", "enum": list(ORDER_DIRECTIONS)},
            "orderby": _text(
                NON_BLANK_TEXT,
                description="Sort collection by term attribute: "
                f"{', '.join(TERM_ORDERS)} (any other sorts by name)",
            ),
            "hide_empty": {"type": "boolean"},
            "slug": _text(NON_BLANK_TEXT),
        }
    found = by_name.get(name, common.get(name))
    return None if found is None else dict(found)
