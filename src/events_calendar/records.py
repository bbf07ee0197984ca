"""The five record kinds, declared once.

Each record is a frozen attrs class. Its fields are the single declaration every other layer
derives from: validation reads the ``input`` metadata to know what a caller may send (and what is
required on create), the storage layers map fields to columns, the HTTP adapter to JSON keys and
OpenAPI schemas. Server-managed values that follow from other fields (UTC instants, the time zone
abbreviation, cost details) are ``init=False`` fields computed from their source, so they can never
disagree with it.

Dates are aware datetimes: an event's ``start_date``/``end_date`` carry the event's own zone (the
wall clock the organiser typed), ``utc_start_date``/``utc_end_date`` the same instants in UTC.
Links to other records are tuples of ids; the calendar resolves them to records when asked.
"""

from __future__ import annotations

import enum
import functools
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal

import attrs

from .cost import CostDetails, parse_cost
from .dates import zone_abbr
from .display import record_table
from .statuses import Role, Status

__all__ = [
    "KINDS",
    "POST_KINDS",
    "TERM_KINDS",
    "Category",
    "Credential",
    "Event",
    "Input",
    "InputField",
    "Kind",
    "Organizer",
    "Record",
    "Tag",
    "User",
    "Venue",
    "input_fields",
    "interface_fields",
]

Kind = Literal["event", "venue", "organizer", "category", "tag"]
POST_KINDS: tuple[Kind, ...] = ("event", "venue", "organizer")
TERM_KINDS: tuple[Kind, ...] = ("category", "tag")
KINDS: tuple[Kind, ...] = POST_KINDS + TERM_KINDS


class Input(enum.Enum):
    """How a writable field's input is read and checked (see ``validation``)."""

    NAME = "name"  # non-empty text (titles, names)
    TEXT = "text"  # free text; "" allowed
    SLUG = "slug"
    AUTHOR = "author"  # an existing user id
    DATETIME = "datetime"  # any accepted date form, read in the record's zone
    DATETIME_UTC = "datetime_utc"  # any accepted date form, read in UTC
    ZONE = "zone"
    STATUS = "status"
    BOOL = "bool"
    URL = "url"  # absolute http(s) URL, or "" to clear
    IMAGE = "image"  # attachment id or image URL
    COST = "cost"
    PASSWORD = "password"  # noqa: S105 - an input kind, not a secret
    CATEGORIES = "categories"
    TAGS = "tags"
    VENUES = "venues"
    ORGANIZERS = "organizers"
    PARENT_TERM = "parent_term"  # an existing category id, 0 for none
    PARENT_EVENT = "parent_event"  # an existing event id, 0 for none


@attrs.frozen
class InputField:
    """What a caller may send for one field."""

    name: str
    input: Input
    required: bool


def _in(kind: Input, *, required: bool = False, default: Any = attrs.NOTHING, **kw: Any) -> Any:
    return attrs.field(default=default, metadata={"input": kind, "required": required}, **kw)


def input_fields(cls: type[Record]) -> dict[str, InputField]:
    """The writable fields of a record class, in declaration order (computed once per class;
    treat the answer as read-only)."""
    found = _INPUT_FIELDS.get(cls)
    if found is None:
        found = _INPUT_FIELDS[cls] = {
            f.name: InputField(f.name, f.metadata["input"], f.metadata["required"])
            for f in attrs.fields(cls)
            if "input" in f.metadata
        }
    return found


_INPUT_FIELDS: dict[type, dict[str, InputField]] = {}


def interface_fields(cls: type[Record], *, by_id: bool) -> dict[str, InputField]:
    """The writable fields the interface (spec section 2) accepts in a create or update body;
    ``by_id`` for an update addressed by id, which takes a few more."""
    skip = cls.outside_interface | (frozenset() if by_id else cls.update_by_id_only)
    return {name: f for name, f in input_fields(cls).items() if name not in skip}


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@functools.lru_cache(maxsize=4096)
def _cost_details(cost: str) -> CostDetails:
    """An event's cost details, remembered per cost text: a calendar holds few distinct
    costs, and reading a million events parsed the same ones a million times."""
    return parse_cost(cost)[1]


@attrs.frozen(kw_only=True)
class _Post:
    """Fields every post kind (event, venue, organizer) shares, as WordPress posts do."""

    kind: ClassVar[Kind]
    title_field: ClassVar[str]
    #: Writable fields the interface (spec section 2) does not list for this kind: the Python
    #: API takes them; the HTTP API ignores them, as the reference ignores unknown arguments.
    outside_interface: ClassVar[frozenset[str]] = frozenset()
    #: Fields the interface accepts only on an update by id (spec section 2.1: ``password``).
    update_by_id_only: ClassVar[frozenset[str]] = frozenset()

    id: int = 0
    author: int = _in(Input.AUTHOR, default=0)
    status: Status = _in(Input.STATUS, default=Status.PUBLISH, converter=Status)
    date: datetime = _in(Input.DATETIME, default=_EPOCH)
    date_utc: datetime = attrs.field(
        init=False, default=attrs.Factory(lambda self: self.date.astimezone(UTC), takes_self=True)
    )
    modified: datetime = _EPOCH
    modified_utc: datetime = attrs.field(
        init=False,
        default=attrs.Factory(lambda self: self.modified.astimezone(UTC), takes_self=True),
    )
    slug: str = _in(Input.SLUG, default="")
    description: str = _in(Input.TEXT, default="")
    excerpt: str = _in(Input.TEXT, default="")
    image: str = _in(Input.IMAGE, default="")

    @property
    def name(self) -> str:
        """The record's display name, whatever its kind calls it."""
        return str(getattr(self, self.title_field))

    def _repr_html_(self) -> str:
        """The record as a field/value table in Jupyter (a password only as "(set)")."""
        return record_table(self)


@attrs.frozen(kw_only=True)
class Event(_Post):
    """A calendar event."""

    kind: ClassVar[Kind] = "event"
    title_field: ClassVar[str] = "title"
    outside_interface: ClassVar[frozenset[str]] = frozenset({"post_parent"})
    update_by_id_only: ClassVar[frozenset[str]] = frozenset({"password"})

    title: str = _in(Input.NAME, required=True)
    start_date: datetime = _in(Input.DATETIME, required=True)
    end_date: datetime = _in(Input.DATETIME, required=True)
    timezone: str = _in(Input.ZONE, default="UTC")
    all_day: bool = _in(Input.BOOL, default=False)
    cost: str = _in(Input.COST, default="")
    website: str | None = _in(Input.URL, default=None)
    show_map: bool = _in(Input.BOOL, default=False)
    show_map_link: bool = _in(Input.BOOL, default=False)
    hide_from_listings: bool = _in(Input.BOOL, default=False)
    sticky: bool = _in(Input.BOOL, default=False)
    featured: bool = _in(Input.BOOL, default=False)
    categories: tuple[int, ...] = _in(Input.CATEGORIES, default=(), converter=tuple)
    tags: tuple[int, ...] = _in(Input.TAGS, default=(), converter=tuple)
    venue: tuple[int, ...] = _in(Input.VENUES, default=(), converter=tuple)
    organizer: tuple[int, ...] = _in(Input.ORGANIZERS, default=(), converter=tuple)
    post_parent: int = _in(Input.PARENT_EVENT, default=0)
    password: str = _in(Input.PASSWORD, default="", repr=False)
    #: True on a password-protected event returned to a caller without the password: its
    #: content fields are blanked and must not be shown as real values.
    locked: bool = attrs.field(default=False, eq=False)

    utc_start_date: datetime = attrs.field(
        init=False,
        default=attrs.Factory(lambda self: self.start_date.astimezone(UTC), takes_self=True),
    )
    utc_end_date: datetime = attrs.field(
        init=False,
        default=attrs.Factory(lambda self: self.end_date.astimezone(UTC), takes_self=True),
    )
    timezone_abbr: str = attrs.field(
        init=False, default=attrs.Factory(lambda self: zone_abbr(self.start_date), takes_self=True)
    )
    cost_details: CostDetails = attrs.field(
        init=False, default=attrs.Factory(lambda self: _cost_details(self.cost), takes_self=True)
    )


@attrs.frozen(kw_only=True)
class Venue(_Post):
    """A place where events happen."""

    kind: ClassVar[Kind] = "venue"
    title_field: ClassVar[str] = "venue"
    outside_interface: ClassVar[frozenset[str]] = frozenset({"slug", "excerpt"})

    venue: str = _in(Input.NAME, required=True)
    address: str = _in(Input.TEXT, default="")
    city: str = _in(Input.TEXT, default="")
    country: str = _in(Input.TEXT, default="")
    province: str = _in(Input.TEXT, default="")
    state: str = _in(Input.TEXT, default="")
    zip: str = _in(Input.TEXT, default="")
    phone: str = _in(Input.TEXT, default="")
    stateprovince: str = _in(Input.TEXT, default="")
    website: str = _in(Input.URL, default="")
    show_map: bool = _in(Input.BOOL, default=True)
    show_map_link: bool = _in(Input.BOOL, default=True)


@attrs.frozen(kw_only=True)
class Organizer(_Post):
    """A person or body that runs events."""

    kind: ClassVar[Kind] = "organizer"
    title_field: ClassVar[str] = "organizer"
    outside_interface: ClassVar[frozenset[str]] = frozenset({"slug", "excerpt"})

    organizer: str = _in(Input.NAME, required=True)
    phone: str = _in(Input.TEXT, default="")
    website: str = _in(Input.URL, default="")
    email: str = _in(Input.TEXT, default="")


@attrs.frozen(kw_only=True)
class _Term:
    """Fields both term kinds share. ``count`` is the number of published events using it."""

    kind: ClassVar[Kind]
    title_field: ClassVar[str] = "name"
    outside_interface: ClassVar[frozenset[str]] = frozenset()
    update_by_id_only: ClassVar[frozenset[str]] = frozenset()

    id: int = 0
    name: str = _in(Input.NAME, required=True)
    slug: str = _in(Input.SLUG, default="")
    description: str = _in(Input.TEXT, default="")
    count: int = attrs.field(default=0, eq=False)

    def _repr_html_(self) -> str:
        """The term as a field/value table in Jupyter."""
        return record_table(self)


@attrs.frozen(kw_only=True)
class Category(_Term):
    """An event category; categories form a tree through ``parent``."""

    kind: ClassVar[Kind] = "category"

    parent: int = _in(Input.PARENT_TERM, default=0)


@attrs.frozen(kw_only=True)
class Tag(_Term):
    """An event tag (flat)."""

    kind: ClassVar[Kind] = "tag"

    @property
    def parent(self) -> int:
        """Tags are flat; the property keeps term handling uniform."""
        return 0


Record = Event | Venue | Organizer | Category | Tag

RECORD_CLASSES: dict[Kind, type[Record]] = {
    "event": Event,
    "venue": Venue,
    "organizer": Organizer,
    "category": Category,
    "tag": Tag,
}


@attrs.frozen(kw_only=True)
class User:
    """Someone who can sign in; the role decides what they may do."""

    id: int = 0
    login: str
    role: Role = attrs.field(converter=Role)
    display_name: str = ""
    email: str = ""


@attrs.frozen(kw_only=True)
class Credential:
    """An application password or bearer token; only a hash of the secret is kept."""

    id: int = 0
    user_id: int
    kind: Literal["password", "token"]
    secret_hash: str = attrs.field(repr=False)
    label: str = ""
    created: datetime = _EPOCH
