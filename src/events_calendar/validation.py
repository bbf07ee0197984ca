"""Checking create and update input against the record declarations.

``read_input`` walks the writable fields a record class declares (``records.input_fields``) and
reads each given value with the reader for its ``Input`` kind. Every problem is collected before
anything is raised, so one error names every bad field at once, as the reference's
``rest_invalid_param`` does; missing required fields are reported first and on their own
(``rest_missing_callback_param``). Nothing here writes: linked records given as names or inline
data come back as plain values for the calendar to resolve inside its transaction.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any, Protocol
from urllib.parse import unquote

from .coerce import (
    REST_BOOLEAN_WHY,
    as_bool,
    as_int,
    as_list,
    as_rest_bool,
    clean_text,
    plain,
    plain_fields,
)
from .cost import parse_cost
from .dates import parse_datetime, resolve_zone, to_utc, zone_name
from .errors import InvalidParameter, MissingParameter
from .markup import sanitize
from .records import Input, Kind, Organizer, Record, Venue, input_fields
from .slugs import is_stored_slug, slugify
from .statuses import Status
from .web_addresses import host_of, path_of, read_web_url

__all__ = [
    "EMAIL",
    "IMAGE_EXTENSIONS",
    "LinkedData",
    "Lookup",
    "read_flag",
    "read_id",
    "read_input",
    "read_name",
    "read_slug",
    "refuse_end_before_start",
    "refuse_missing",
    "stored_problems",
]

#: What a slug must hold (``_Reader.slug``), besides its slugifying to something.
_SLUG_CHARACTER = re.compile(r"[A-Za-z0-9]")
#: An inline venue/organizer given on an event: the cleaned fields of a record to create.
LinkedData = dict[str, Any]

#: The texts WordPress's ``rest_is_boolean`` accepts, and what they mean.

#: What an image URL's path may end with.
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg", ".bmp")


class Lookup(Protocol):
    """What validation needs to know about the calendar: its zone, its clock, what exists."""

    @property
    def zone(self) -> tzinfo: ...

    def now(self) -> datetime: ...

    def exists(self, kind: Kind, record_id: int) -> bool: ...

    def exist_many(self, kind: Kind, record_ids: Iterable[int]) -> Mapping[int, bool]:
        """``exists`` of each id, in one storage lookup."""
        ...

    def user_exists(self, user_id: int) -> bool: ...

    @property
    def unfiltered_html(self) -> bool:
        """Whether text keeps any HTML; otherwise ``markup.sanitize`` cleans it."""
        ...


class _Invalid(Exception):
    """Internal: one field's problem (and its stable code, if any), collected by
    ``read_input``."""

    def __init__(self, why: str, *, code: str | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.code = code


def read_input(
    cls: type[Record],
    data: Mapping[str, Any],
    lookup: Lookup,
    *,
    creating: bool,
    zone: tzinfo | None = None,
) -> dict[str, Any]:
    """Clean ``data`` for a create (``creating``) or a partial update of a ``cls`` record.

    ``zone`` is the zone dates are read in when ``data`` names no ``timezone`` (the record's own
    zone on update). Returns only the fields given, cleaned; raises ``MissingParameter`` or
    ``InvalidParameter`` and nothing else. numpy and pandas values are read as the plain values
    they stand for (``coerce.plain``): ``NaN``, ``pd.NA`` and ``pd.NaT`` are ``None``
    (a required field given so is missing: ``refuse_missing``).
    """
    given, data = data, plain_fields(data)
    fields = input_fields(cls)
    extra = {"date_utc"} if "date" in fields else set()
    unknown = sorted(set(data) - set(fields) - extra)
    if unknown:
        raise InvalidParameter(
            {
                name: f"{cls.__name__} has no field {name!r}; send only {', '.join(fields)}"
                for name in unknown
            }
        )
    refuse_missing(cls, given, creating=creating)

    problems: dict[str, str] = {}
    codes: dict[str, str] = {}
    clean: dict[str, Any] = {}
    reader = _Reader(lookup, zone or lookup.zone, rest_booleans=cls.kind == "event")
    if "timezone" in data:  # dates are read in the zone given alongside them
        try:
            clean["timezone"] = reader.zone_value(data["timezone"])
            reader.zone = resolve_zone(clean["timezone"])
        except _Invalid as bad:
            problems["timezone"] = bad.why
    utc_date: datetime | None = None
    for name, value in data.items():
        linked = name in fields and fields[name].input in _LINKED
        if not linked and not _clean(value):
            problems[name] = "send valid text: no NUL characters and no lone surrogates"
        if name in clean or name in problems:
            continue
        kind = fields[name].input if name in fields else Input.DATETIME
        try:
            if name == "date_utc":
                utc_date = reader.utc_time(value, name)
            else:
                clean[name] = _value(reader, cls.kind, kind, name, value)
        except _Invalid as bad:
            problems[name] = bad.why
            if bad.code:
                codes[name] = bad.code
        except InvalidParameter as bad:
            problems.update(bad.fields)
            codes.update(bad.codes)
    if "date" in clean and utc_date is not None and _days_apart(clean["date"], utc_date):
        problems["date_utc"] = "send the same instant as date: at most a day apart from it"
    if problems:
        raise InvalidParameter(problems, codes=codes)
    if "date" in clean and utc_date is not None:
        clean["date"] = _as_sent(clean["date"], utc_date)
    elif utc_date is not None:
        clean["date"] = utc_date.astimezone(lookup.zone)
    elif "date" in clean:  # publication dates are shown on the calendar's clock, like "now"
        clean["date"] = clean["date"].astimezone(lookup.zone)
    return clean


def refuse_missing(cls: type[Record], data: Mapping[str, Any], *, creating: bool) -> None:
    """Raise ``MissingParameter`` naming every field a ``cls`` record needs that ``data`` (as
    the caller sent it, before ``coerce.plain``) leaves without a value.

    On create, a required field is missing when it is not given or given as ``None``, ``NaN``,
    ``NaT`` or ``pd.NA``, as WordPress treats a required argument sent as ``null``. On update
    a field left out keeps its value, and one given as ``None`` or numpy's or pandas' missing
    value (what a DataFrame cell holds where it has none) is missing: no record may be
    without it. (The HTTP adapter answers JSON's ``null`` there as the reference does,
    ``rest_invalid_param``, before the core is asked: ``http.call.Call.fields``.)
    """
    missing = [
        name
        for name, f in input_fields(cls).items()
        if f.required
        and (
            plain(data.get(name)) is None
            if creating
            else name in data and plain(data[name]) is None
        )
    ]
    if missing:
        raise MissingParameter(missing)


def _value(reader: _Reader, record_kind: Kind, kind: Input, name: str, value: object) -> Any:
    """One field's value read by its input kind, checked by the field's own rule, and
    sanitised where it may hold markup; raises ``_Invalid`` or ``InvalidParameter``."""
    return _values(reader, record_kind, kind, name, [value])[0]


def _values(
    reader: _Reader, record_kind: Kind, kind: Input, name: str, values: list[object]
) -> list[Any]:
    """``_value`` of each of many values of one field (read in ``reader.zone``), a step at a
    time for all of them (bulk loads read a batch a column at a time); raises ``_Invalid`` or
    ``InvalidParameter`` for the first bad one, without saying which it was."""
    read = _READERS[kind]
    found = [read(reader, value, name) for value in values]
    rule = _FIELD_RULES.get((record_kind, name))
    if rule is not None:
        for item in found:
            rule(item)
    if kind in _MARKUP_INPUTS and not reader.lookup.unfiltered_html:
        title = kind is Input.NAME
        # Trimmed again once cleaned, as texts are trimmed when read: ``Hall <script>``
        # must be ``Hall``, the name a duplicate check compares, not ``Hall `` beside it.
        found = [_trimmed(sanitize(name, item, title=title)) for item in found]
        if title and not all(found):  # names are never blank
            raise _Invalid("send a name that is more than markup: none is left once it is removed")
    return found


def _trimmed(value: Any) -> Any:
    """A cleaned text without the spaces the markup it lost stood between (others as given)."""
    return value.strip() if isinstance(value, str) else value


def stored_problems(record: Record) -> dict[str, str]:
    """Each field of a stored ``record`` that no create or update could have stored, with
    the reason that write would give; empty for a record the calendar could hold.

    A restore copies records as a backup has them, past ``read_input`` (``io.backup_checks``
    asks this of each), so the fields whose rule is more than their type are read again by
    the reader a write reads them with: names (not blank), slugs (as made: see
    ``slugs.is_stored_slug``), websites and images (an http(s) address, an image the public
    can load), and a field's own rule (an organizer's email). Texts are not: markup is kept
    or cleaned by the writer's rights, so any text may be stored. A zone is checked as the
    record is made (``Event``); links, ids and the end's order are the backup's own checks.
    """
    problems: dict[str, str] = {}
    for name, field in input_fields(type(record)).items():
        check = _STORED_CHECKS.get(field.input)
        rule = _FIELD_RULES.get((record.kind, name))
        value = getattr(record, name)
        try:
            if check is not None:
                check(value)
            if rule is not None:
                rule(value)
        except _Invalid as bad:
            problems[name] = bad.why
    return problems


def _stored_slug(value: str) -> None:
    if not is_stored_slug(value):
        raise _Invalid("not a slug as the calendar makes them, such as 'summer-gala'")


def refuse_end_before_start(start: datetime, end: datetime) -> None:
    """Raise ``InvalidParameter`` naming ``end_date`` when an event's ``end`` is before its
    ``start`` (aware datetimes: the instants are compared, whatever their zones). The one
    place this rule is written: the event collection applies it to every create and update,
    a backup's restore to every event it holds (``io.backup_checks``)."""
    if to_utc(end) < to_utc(start):  # in one zone, ``<`` compares wall times, folds unseen
        raise InvalidParameter.one("end_date", "send an end on or after the start")


def read_id(value: object, *, field: str = "id") -> int:
    """The record id a caller names (an int, a numpy integer, a whole float such as pandas
    gives for an integer column with gaps, a string of digits).

    A missing value (``None``, ``NaN``, ``pd.NA``) is ``MissingParameter``; anything that is
    not a whole number (a bool, ``2.5``, ``"abc"``) is ``InvalidParameter``. Ids that name no
    record are for the caller to refuse. Every id the Python API takes on its own (``get``,
    ``update``, the ids of ``update_many``) is read here.
    """
    value = plain(value)
    if value is None:
        raise MissingParameter([field])
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    number = as_int(value)
    if number is None:
        raise InvalidParameter.one(field, "send a record id: a whole number such as 42")
    return number


def read_flag(value: object, *, field: str) -> bool:
    """A yes-or-no argument of a call (``force`` of a delete), read strictly.

    What ``coerce.as_rest_bool`` reads (a bool, a numpy bool, 0 or 1, the texts ``true``,
    ``false``, ``1``, ``0``), and nothing else: a value read for truthiness would turn
    ``force="no"`` or ``force="false "`` into a deletion for good, which cannot be undone.
    Anything else (``"no"``, ``""``, ``None``, ``NaN``, a list) is ``InvalidParameter``
    naming ``field``, with the code ``invalid_boolean`` that event flags get.
    """
    read = as_rest_bool(plain(value))
    if read is None:
        raise InvalidParameter({field: REST_BOOLEAN_WHY}, codes={field: "invalid_boolean"})
    return read


def read_slug(value: object) -> str:
    """The slug a caller names (``read_name``)."""
    return read_name(value, field="slug", example="'summer-gala'")


def read_name(value: object, *, field: str, example: str) -> str:
    """The text a caller names a record by (a slug, a user's login), checked before any
    storage is asked: a missing value is ``MissingParameter``, a non-text one
    ``InvalidParameter``, each naming ``field``. (A number handed to a database as the text
    it looks for fails there, and each database fails its own way.)"""
    value = plain(value)
    if value is None:
        raise MissingParameter([field])
    if not isinstance(value, str):
        raise InvalidParameter.one(field, f"send a {field} as text, such as {example}")
    return value


def _days_apart(local: datetime, utc: datetime) -> bool:
    """Whether the wall clocks of ``date`` and ``date_utc`` are a day or more apart: no UTC
    offset joins them (``_as_sent`` could not keep both)."""
    return abs(local.replace(tzinfo=None) - utc.replace(tzinfo=None)) >= timedelta(days=1)


def _as_sent(local: datetime, utc: datetime) -> datetime:
    """The publication date when ``date`` and ``date_utc`` are sent together: each is kept as
    sent, as WordPress stores ``post_date`` and ``post_date_gmt`` apart. The result shows the
    wall clock of ``date`` and is the instant of ``date_utc`` (a fixed UTC offset joins them).
    """
    wall = local.replace(tzinfo=None)
    return wall.replace(tzinfo=timezone(wall - utc.astimezone(UTC).replace(tzinfo=None)))


class _Reader:
    """Reads one field's value by its ``Input`` kind.

    ``rest_booleans``: read flags as WordPress's REST layer reads a ``boolean`` argument (true,
    false, 1, 0 and those words as text), which is what the reference does for event flags
    (``featured: "yes"`` is a 400 in ``ev_bool_yes``). Venue flags are strings the reference
    reads for truthiness, so they keep the looser reading of ``coerce.as_bool``.
    """

    def __init__(self, lookup: Lookup, zone: tzinfo, *, rest_booleans: bool = False) -> None:
        self.lookup = lookup
        self.zone = zone
        self.rest_booleans = rest_booleans

    def read(self, kind: Input, value: object, name: str) -> Any:
        return _READERS[kind](self, value, name)

    @staticmethod
    def name(value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise _Invalid("send a non-empty text")
        return value.strip()

    @staticmethod
    def text(value: object) -> str:
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise _Invalid("send a text")
        return str(value).strip()

    @staticmethod
    def slug(value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise _Invalid("send a non-empty slug such as 'summer-gala'")
        slug = slugify(value)
        # An ASCII letter or digit, as /doc states: "é" alone would be transliterated to
        # "e", but no pattern can say which letters are, so none is taken without one.
        if not slug or not _SLUG_CHARACTER.search(value):
            raise _Invalid("send a slug with at least one letter or digit")
        return slug

    def author(self, value: object) -> int:
        user_id = as_int(value)
        if user_id is None or not self.lookup.user_exists(user_id):
            raise _Invalid("send the id of an existing user")
        return user_id

    def wall_time(self, value: object, name: str) -> datetime:
        return parse_datetime(value, zone=self.zone, now=self.lookup.now(), field=name)

    def utc_time(self, value: object, name: str) -> datetime:
        utc = resolve_zone("UTC")
        return parse_datetime(value, zone=utc, now=self.lookup.now(), field=name)

    def zone_value(self, value: object) -> str:
        """A zone's name; an empty text is the calendar's zone, as the reference reads an
        empty ``timezone`` as the site's."""
        if not isinstance(value, str):
            raise _Invalid("send an IANA time zone name such as 'Europe/Paris', or 'UTC+2'")
        if not value.strip():
            return zone_name(self.lookup.zone)
        try:
            return zone_name(resolve_zone(value.strip()))
        except InvalidParameter as bad:
            raise _Invalid(next(iter(bad.fields.values()))) from None

    @staticmethod
    def status(value: object) -> Status:
        try:
            return Status(str(value))
        except ValueError:
            allowed = ", ".join(s.value for s in Status)
            raise _Invalid(f"send one of {allowed}") from None

    @staticmethod
    def boolean(value: object) -> bool:
        if value is None:  # None, NaN, pd.NA (``coerce.plain``): empty, which is no
            return False
        read = as_bool(value)
        if read is None:
            raise _Invalid("send true or false")
        return read

    @staticmethod
    def rest_boolean(value: object) -> bool:
        if value is None:  # as ``boolean``; JSON's ``null`` is refused by the HTTP adapter
            return False
        read = as_rest_bool(value)
        if read is None:
            raise _Invalid(REST_BOOLEAN_WHY, code="invalid_boolean")
        return read

    @staticmethod
    def url(value: object) -> str:
        if value is None or value == "":
            return ""
        if not isinstance(value, str):
            raise _Invalid("send an absolute http(s) URL, or '' to clear it")
        url = read_web_url(value)
        if url is None:
            raise _Invalid("send an absolute http(s) URL such as 'https://example.org', or ''")
        return url

    @staticmethod
    def image(value: object) -> str:
        if value is None or value == "" or value == 0:
            return ""
        if isinstance(value, str) and not value.strip().isdigit():
            url = _Reader.url(value)
            if not _public_host(host_of(url)):
                raise _Invalid(
                    "send the URL of an image the public can load; this one points at this "
                    "machine or a private network"
                )
            if path_of(url).lower().endswith(IMAGE_EXTENSIONS):
                return url
        raise _Invalid(
            "send the URL of an image file (.jpg, .png, .gif, .webp ...); "
            "this calendar has no media library, so attachment ids are not accepted"
        )

    def terms(self, kind: Kind, value: object) -> list[int | str]:
        """Term ids (which must exist) and names or slugs (resolved or created later)."""
        if value is None or value == "" or value == [] or value == 0:
            return []
        items = as_list(value, split_items=False)  # an item is one name, commas and all
        if items is None:
            raise _Invalid(f"send a list of {kind} ids, names or slugs")
        ids = _Ids(self.lookup, kind)
        found: list[int | str] = []
        for item in _distinct(items):  # an item given again reads as it did the first time
            with ids.reporting_first():
                number = as_int(item)  # an int, a whole float (a pandas column), digits
                if number is None and not isinstance(item, str):
                    raise _Invalid(f"send a list of {kind} ids, names or slugs, not {item!r}")
                digits = str(item).strip().lstrip("+-")
                if number is None and digits.isascii() and digits.isdigit():
                    raise _Invalid(f"there is no {kind} with id {item}; send an existing id")
                if number is not None:
                    ids.check(number, f"there is no {kind} with id {number}; send an existing id")
                    found.append(number)
                elif isinstance(item, str) and item.strip():
                    found.append(self.term_name(item.strip()))
        ids.settle()
        return list(dict.fromkeys(found))

    def term_name(self, name: str) -> str:
        """A term named on a record, as a term's own ``name`` is read: an event may create
        it (``TermCollection.resolve``), so markup the caller may not write is removed, and
        a name that is only markup is refused, as on the term routes."""
        if self.lookup.unfiltered_html:
            return name
        kept = sanitize("name", name, title=True).strip()
        if not kept:
            raise _Invalid("send a name that is more than markup: none is left once it is removed")
        return kept

    def linked(self, cls: type[Venue | Organizer], value: object) -> list[int | LinkedData]:
        """Existing ids, ``{"id": n}`` or inline data for a new (or same-named) record."""
        kind = cls.kind
        if _empty_link(value):
            return []
        if isinstance(value, Mapping):
            items: list[object] = [value]
        else:
            listed = as_list(value)
            if listed is None:
                raise _Invalid(f"send {kind} ids, or {kind} data as an object")
            items = listed
        ids = _Ids(self.lookup, kind)
        found: list[int | LinkedData] = []
        read: dict[Hashable, int] = {}  # the id each id given so far was read as
        for item in items:
            if _empty_link(item, nested=True):
                continue
            with ids.reporting_first():
                if isinstance(item, Mapping):
                    if "id" in item:
                        item = item["id"]
                    else:
                        found.append(self._inline(cls, item))
                        continue
                key = _key(item)
                if key is not None and key in read:  # asked already, in the same words
                    found.append(read[key])
                    continue
                number = as_int(item)
                named = number if isinstance(item, float) and number is not None else repr(item)
                why = f"there is no {kind} with id {named}; send an existing id"
                if number is None:
                    raise _Invalid(why)
                ids.check(number, why)
                if key is not None:
                    read[key] = number
                found.append(number)
        ids.settle()
        return found

    def _inline(self, cls: type[Venue | Organizer], item: Mapping[Any, Any]) -> LinkedData:
        """The cleaned fields of a new (or same-named) venue or organizer given inline.

        Keys a venue or organizer does not declare are ignored, as the reference ignores
        unknown arguments (e.g. ``stateProvince``)."""
        known = {*input_fields(cls), "date_utc"}
        data = {k: v for k, v in item.items() if k in known}
        try:
            return read_input(cls, data, self.lookup, creating=True)
        except (InvalidParameter, MissingParameter) as bad:
            raise _Invalid(f"inline {cls.kind} data is not valid: {bad.message}") from None

    def parent(self, kind: Kind, value: object) -> int:
        number = as_int(value)
        if number is None or number < 0 or (number and not self.lookup.exists(kind, number)):
            raise _Invalid(f"send the id of an existing {kind}, or 0 for none")
        return number


#: How many ids of one field ``_Ids`` looks up at once: a record names a few, and a list
#: of thousands (a hostile one) costs a lookup per thousand distinct ids, up to the first
#: that names no record.
_IDS_AT_ONCE = 1_000


class _Ids:
    """The ids one field names, each checked once, in batches (``exist_many``), in the
    order given.

    ``check`` queues an id with the error that names it; ``settle`` looks up the queue and
    raises the error of the first id there that names no record. A field's problems are
    reported first come first: a problem found while reading an item (``reporting_first``)
    gives way to one of an id queued before that item, as when each id was looked up as it
    came.
    """

    def __init__(self, lookup: Lookup, kind: Kind) -> None:
        self.lookup = lookup
        self.kind = kind
        self.checked: set[int] = set()
        self.queued: dict[int, str] = {}  # id -> the error naming it, first given first

    def check(self, number: int, why: str) -> None:
        if number not in self.checked and number not in self.queued:
            self.queued[number] = why
            if len(self.queued) >= _IDS_AT_ONCE:
                self.settle()

    def settle(self) -> None:
        """Look up the queued ids; raise ``_Invalid`` for the first that names no record."""
        queued, self.queued = self.queued, {}
        if not queued:
            return
        exist = self.lookup.exist_many(self.kind, list(queued))
        self.checked.update(queued)
        for number, why in queued.items():
            if not exist[number]:
                raise _Invalid(why)

    @contextmanager
    def reporting_first(self) -> Iterator[None]:
        """Reading one item: its problem is raised after those of the ids queued before."""
        try:
            yield
        except _Invalid:
            self.settle()
            raise


def _key(item: object) -> Hashable | None:
    """What tells ``item`` apart from other items of a list (its type and value; ``1``,
    ``1.0``, ``True`` and ``"1"`` are four), or ``None`` when it cannot be a key."""
    try:
        key = (type(item), item)
        hash(key)
    except TypeError:
        return None
    return key


def _distinct(items: Iterable[object]) -> Iterator[object]:
    """``items`` without those given before (by ``_key``), in the order given; items that
    cannot be keys are all kept."""
    seen: set[Hashable] = set()
    for item in items:
        key = _key(item)
        if key is None:
            yield item
        elif key not in seen:
            seen.add(key)
            yield item


#: Inputs whose reader checks the text it keeps itself (``_Reader.linked``): an inline
#: venue or organizer is read as a record (its text checked there), and the keys it does not
#: declare are ignored, whatever they hold, as the reference ignores unknown arguments.
_LINKED = frozenset({Input.VENUES, Input.ORGANIZERS})


def _clean(value: object) -> bool:
    """Whether every text in ``value`` (a text, or lists and objects of them) is
    ``coerce.clean_text``: storable by every backend and presentable as JSON."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not clean_text(item):
                return False
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True


def _public_host(host: str) -> bool:
    """Whether visitors can load a URL on that host: not ``localhost``, not a loopback,
    private, link-local or reserved address.

    The reference fetches an image URL and refuses one it cannot load (ev_image_url,
    ``http://127.0.0.1:9/...``); this calendar keeps the URL without fetching it, and
    refuses the addresses no visitor could load it from.

    The host is read as a browser reads it (the URL standard's host parser): percent-escapes
    decoded, compatibility forms folded (fullwidth digits, ideographic full stops), and an
    IPv4 address in any of its forms (``2130706433``, ``0x7f000001``, ``0177.0.0.1``,
    ``127.1``), each of which a browser loads from the loopback. A host name is not resolved:
    one whose DNS answer is a private address is taken (compatibility.md).
    """
    name = unicodedata.normalize("NFKC", unquote(host)).lower().replace("\u3002", ".")
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return False
    if _NUMBER.fullmatch(name.rpartition(".")[2]):  # the standard's "ends in a number"
        number = _ipv4(name.split("."))
        return number is not None and ipaddress.ip_address(number).is_global
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return bool(name)  # a host name
    return address.is_global


#: A part of an IPv4 address as the URL standard reads one: decimal, ``0x`` hex, ``0`` octal.
_NUMBER = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")


def _ipv4(parts: list[str]) -> int | None:
    """The IPv4 address (as a number) that 1 to 4 parts spell, the last one filling the bytes
    the others leave; ``None`` when they spell none (a browser refuses such a URL)."""
    if not 1 <= len(parts) <= 4 or not all(_NUMBER.fullmatch(part) for part in parts):
        return None
    numbers = [
        int(p[2:] or "0", 16) if p[:2].lower() == "0x" else int(p, 8 if p[0] == "0" else 10)
        for p in parts
    ]
    *first, last = numbers
    if any(n > 255 for n in first) or last >= 256 ** (5 - len(numbers)):
        return None
    return last + sum(n << (8 * (3 - at)) for at, n in enumerate(first))


def _empty_link(value: object, *, nested: bool = False) -> bool:
    """Whether ``value`` names no linked record: an empty value, or a list of them. A list
    inside the list is no link at all (``[[null]]``), so it is refused, not read as none."""
    if value is None or value in ("", 0, "0", False):
        return True
    if isinstance(value, list | tuple) and not nested:
        return all(_empty_link(item, nested=True) for item in value)
    return False


#: WordPress's ``is_email``, in one expression: a local part of the characters it allows, an
#: ``@``, and a domain of at least two dot-separated labels.
EMAIL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def _email(value: str) -> None:
    if value and not EMAIL.fullmatch(value):
        raise _Invalid("send an email address such as 'info@example.org', or '' to clear it")


#: Checks of one field of one kind beyond its input kind's.
_FIELD_RULES: dict[tuple[Kind, str], Callable[[Any], None]] = {("organizer", "email"): _email}

#: How a stored value of each input kind whose rule is more than its type is checked
#: (``stored_problems``): by the reader a write uses, raising ``_Invalid``.
_STORED_CHECKS: dict[Input, Callable[[Any], object]] = {
    Input.NAME: _Reader.name,
    Input.SLUG: _stored_slug,
    Input.URL: lambda value: value is None or _Reader.url(value),  # None: an unset website
    Input.IMAGE: _Reader.image,
}

#: Input kinds whose text may hold HTML to sanitise.
_MARKUP_INPUTS = frozenset({Input.NAME, Input.TEXT})

#: How each input kind is read (built once: bulk loads read millions of values).
_READERS: dict[Input, Callable[[_Reader, object, str], Any]] = {
    Input.NAME: lambda r, v, _: r.name(v),
    Input.TEXT: lambda r, v, _: r.text(v),
    Input.SLUG: lambda r, v, _: r.slug(v),
    Input.AUTHOR: lambda r, v, _: r.author(v),
    Input.DATETIME: lambda r, v, name: r.wall_time(v, name),
    Input.DATETIME_UTC: lambda r, v, name: r.utc_time(v, name),
    Input.ZONE: lambda r, v, _: r.zone_value(v),
    Input.STATUS: lambda r, v, _: r.status(v),
    Input.BOOL: lambda r, v, _: r.rest_boolean(v) if r.rest_booleans else r.boolean(v),
    Input.URL: lambda r, v, _: r.url(v),
    Input.IMAGE: lambda r, v, _: r.image(v),
    Input.COST: lambda r, v, name: parse_cost(v, field=name)[0],
    Input.PASSWORD: lambda r, v, _: r.text(v),
    Input.CATEGORIES: lambda r, v, _: r.terms("category", v),
    Input.TAGS: lambda r, v, _: r.terms("tag", v),
    Input.VENUES: lambda r, v, _: r.linked(Venue, v),
    Input.ORGANIZERS: lambda r, v, _: r.linked(Organizer, v),
    Input.PARENT_TERM: lambda r, v, _: r.parent("category", v),
    Input.PARENT_EVENT: lambda r, v, _: r.parent("event", v),
}
