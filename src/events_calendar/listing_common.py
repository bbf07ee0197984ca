"""What every list query shares: paging, collected problems, statuses, ids and flags.

Each ``*_filter`` function (``listing``, ``listing_linked``, ``listing_terms``) validates a query
for an actor and returns the normalised filter (see ``queries``). Every invalid parameter is
reported at once in one ``InvalidParameter``, gathered by ``Problems``. Paging follows the
reference: ``page`` and ``per_page`` must be positive integers and ``per_page`` is clamped to the
maximum setting.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from .coerce import (
    MAX_INT,
    REST_BOOLEAN_WHY,
    as_id_list,
    as_int,
    as_list,
    as_rest_bool,
    clean_text,
)
from .errors import InvalidParameter
from .permissions import Actor
from .records import RECORD_CLASSES, Event, Kind
from .settings import Settings
from .statuses import Status
from .storage import Storage

__all__ = [
    "Bad",
    "Paging",
    "Problems",
    "event_id",
    "existing_ids",
    "flag",
    "last_page",
    "number",
    "paging",
    "read_statuses",
    "search_text",
]


@attrs.frozen
class Paging:
    page: int
    per_page: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


class Problems:
    """Collects every bad parameter of one query before raising."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.codes: dict[str, str] = {}

    def check(self, name: str, read: Callable[[], Any]) -> Any:
        try:
            return read()
        except InvalidParameter as bad:
            self.fields.update(bad.fields or {name: bad.message})
            self.codes.update(bad.codes)
        except Bad as bad:
            self.fields[name] = bad.why
            if bad.code is not None:
                self.codes[name] = bad.code
        return None

    def raise_if_any(self) -> None:
        if self.fields:
            raise InvalidParameter(self.fields, codes=self.codes)


class Bad(Exception):
    """One parameter's problem: why, and the stable code of that kind of problem if any."""

    def __init__(self, why: str, *, code: str | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.code = code


def _positive(value: object, what: str) -> int:
    number = as_int(value)
    if number is None or number < 1:
        raise Bad(f"send a positive whole number of {what}")
    return number


def paging(page: object, per_page: object, settings: Settings, problems: Problems) -> Paging:
    # A missing value (``None``, ``NaN``, ``pd.NA``: ``coerce.plain``) is a page not given,
    # the first, as a missing ``per_page`` is the default size.
    got_page = problems.check("page", lambda: 1 if page is None else _positive(page, "pages"))
    got_per_page = problems.check(
        "per_page",
        lambda: settings.per_page if per_page is None else _positive(per_page, "records"),
    )
    size = min(got_per_page or settings.per_page, settings.max_per_page)
    if got_page is not None and got_page > last_page(settings):  # its offset names no record
        problems.check("page", lambda: _positive(None, f"pages up to {last_page(settings)}"))
        got_page = None
    return Paging(got_page or 1, size)


def last_page(settings: Settings) -> int:
    """The largest ``page`` a list accepts: one whose offset fits a 64-bit integer at the
    largest page size, so that the bound (which ``/doc`` states) does not depend on
    ``per_page``."""
    return MAX_INT // settings.max_per_page


def read_statuses(value: object, actor: Actor) -> frozenset[Status]:
    if value is None:
        return actor.default_statuses()
    items = as_list(value)
    if not items:
        raise Bad("send one or more statuses such as 'publish'")
    if not actor.may_filter_status:
        if items != [Status.PUBLISH.value]:
            raise Bad("only 'publish' may be listed without signing in as a contributor or up")
        return frozenset({Status.PUBLISH})
    found: set[Status] = set()
    for item in items:
        if item == "any":
            found |= actor.default_statuses()
            continue
        try:
            found.add(Status(str(item)))
        except ValueError:
            raise Bad(f"send statuses among {', '.join(s.value for s in Status)}") from None
    return frozenset(found)


#: The longest search text, for every kind: a search is a few words, and each extra word or
#: character costs every row a comparison (a 60 KB search used to burn 1.4 s of CPU).
MAX_SEARCH_LENGTH = 500
#: The most words a search is split into; past it the whole text is one term, as WordPress
#: does for events (``parse_search``'s nine terms), for venues and organizers too.
MAX_SEARCH_WORDS = 9


def search_text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Bad("send a non-empty search text")
    if len(value) > MAX_SEARCH_LENGTH:
        raise Bad(f"send a search text of at most {MAX_SEARCH_LENGTH} characters")
    if not clean_text(value):
        raise Bad("send a search text without NUL characters")
    return value


def existing_ids(backend: Storage, kind: Kind, value: object) -> frozenset[int] | None:
    if value is None:
        return None
    ids = as_id_list(value)
    if ids is None or not ids:
        raise Bad(f"send one or more {kind} ids")
    known = backend.get_many(RECORD_CLASSES[kind], ids)
    missing = [i for i in ids if i not in known]
    if missing:
        raise Bad(f"there is no {kind} with id {missing[0]}; send existing {kind} ids")
    return frozenset(ids)


def event_id(backend: Storage, value: object, actor: Actor | None = None) -> int:
    """An event id a filter names: one the caller may read in full (an event they may not
    read is answered as an unknown id, so the filter cannot tell its terms or links)."""
    number = as_int(value)
    if number is None or number < 1 or backend.post_kind(number) != "event":
        raise Bad("send the id of an existing event")
    if actor is not None:
        event = backend.get_many(Event, [number])[number]
        if not actor.can_read_event(event.author, event.status, password=event.password):
            raise Bad("send the id of an existing event")
    return number


def flag(value: object) -> bool | None:
    """A filter the REST layer types ``boolean`` (``featured``, ``geoloc``, ``hide_empty``),
    read as it reads one: ``yes`` or an empty text is refused as a value of the wrong type."""
    if value is None:
        return None
    read = as_rest_bool(value)
    if read is None:
        raise Bad(REST_BOOLEAN_WHY, code="invalid_boolean")
    return read


def number(value: object) -> float | None:
    """A finite number, as the reference's ``is_numeric`` check reads one (``"39.78"``,
    ``-89.65``); ``None`` when not given."""
    if value is None:
        return None
    try:
        if isinstance(value, bool) or (isinstance(value, str) and "_" in value):
            raise ValueError(value)
        read = float(value)  # type: ignore[arg-type]  # str, int, float, numpy numbers
    except (TypeError, ValueError):
        raise Bad("send a number") from None
    if not math.isfinite(read):
        raise Bad("send a finite number")
    return read
