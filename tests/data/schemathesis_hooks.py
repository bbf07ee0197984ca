"""Schemathesis hooks: generated ids name records the served calendar has.

An id or slug that names no record (in the path, or a filter or body field that refers to one)
is the reference's 400 ``rest_invalid_param``, which the golden replay keeps; which ids exist
is no property of a schema. So, in every schema-valid (positive) case, this module replaces
each such value with one of a record that exists, of the right kind, chosen by the generated
value (``existing[value % len(existing)]``): generation stays random and shrinks as before,
only the universe of ids is the calendar's. Negative cases are left alone: they must be
refused whatever the ids.

The records are read from the served API when the schema is loaded (its ``servers`` URL, lists
read anonymously: the published records), and kept current as the run writes: a record a
response shows is added (created) or updated (its slug, or moved to the trash), one deleted
is dropped. Users have no list route; ``EVENTS_CALENDAR_ST_USERS`` names the ids of existing
users (comma-separated), for ``author`` fields.

The same hook makes sent fields agree where no schema can say they must (``_combine``: an
event ends on or after its start, ``date_utc`` is ``date``'s instant; a category is never its
own ancestor; a term name is one no earlier request sent, as term names are unique), and
leaves out the filters ``/doc`` says accept no value, for which schemathesis sends ``null``.

Load with ``SCHEMATHESIS_HOOKS=schemathesis_hooks`` and this directory on ``PYTHONPATH``.
"""

from __future__ import annotations

import datetime
import json
import os
import urllib.error
import urllib.request
import zlib
from typing import Any

import schemathesis
from schemathesis import Case, HookContext, Response

from events_calendar.coerce import NON_BLANK_TEXT

#: The kind of record each collection holds.
KINDS = {
    "events": "event",
    "venues": "venue",
    "organizers": "organizer",
    "categories": "category",
    "tags": "tag",
}
#: Query parameters that name records, per collection listed: parameter -> kind.
QUERY_IDS: dict[str, dict[str, str]] = {
    "events": {
        "categories": "category",
        "tags": "tag",
        "venue": "venue",
        "organizer": "organizer",
        "include": "event",
        "post_parent": "event",
    },
    "venues": {"event": "event"},
    "organizers": {"event": "event"},
    "categories": {
        "include": "category",
        "exclude": "category",
        "parent": "category",
        "post": "event",
        "event": "event",
    },
    "tags": {"include": "tag", "exclude": "tag", "post": "event", "event": "event"},
}
#: Body fields that name records (or users), per kind written: field -> kind.
BODY_IDS: dict[str, dict[str, str]] = {
    "event": {
        "author": "user",
        "categories": "category",
        "tags": "tag",
        "venue": "venue",
        "organizer": "organizer",
    },
    "venue": {"author": "user"},
    "organizer": {"author": "user"},
    "category": {"parent": "category"},
    "tag": {},
}

#: Event fields a JSON body may fill with a new record's fields instead of an id.
INLINE = ("venue", "organizer")
_DAY = datetime.timedelta(days=1)
SENT_NAMES: list[str] = []
#: category id -> its parent's id (0: none).
PARENTS: dict[int, int] = {}
#: kind -> {id: slug} of the records that exist (users: slug unused).
EXISTING: dict[str, dict[int, str]] = {kind: {} for kind in (*KINDS.values(), "user")}


#: The namespace root of the served API (from the schema's ``servers``).
ROOT: list[str] = []
#: What a record of each kind needs to be created (``_replenish``).
NEW_RECORD: dict[str, dict[str, Any]] = {
    "event": {"title": "Made by the hook", "start_date": "2031-06-15", "end_date": "2031-06-15"},
    "venue": {"venue": "Made by the hook"},
    "organizer": {"organizer": "Made by the hook"},
    "category": {"name": "Made by the hook"},
    "tag": {"name": "Made by the hook"},
}


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - our own server
        return json.load(response)


def _send(method: str, path: str, authorization: str, body: Any = None) -> tuple[int, Any]:
    """``method path`` as the case's caller; (status, decoded body)."""
    request = urllib.request.Request(  # noqa: S310 - our own server
        ROOT[0] + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": authorization, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, None


def _read_calendar(root: str) -> None:
    """Every published record of every kind, page by page."""
    extra = {
        "events": "&start_date=1970-01-01&end_date=2999-12-31",
        "categories": "&hide_empty=false",
        "tags": "&hide_empty=false",
    }
    for collection, kind in KINDS.items():
        page = 1
        while True:
            url = f"{root}/{collection}?per_page=50&page={page}{extra.get(collection, '')}"
            try:
                body = _get(url)
            except urllib.error.HTTPError:  # past the last page
                break
            for record in body[collection]:
                _remember(kind, record)
            if page >= body["total_pages"]:
                break
            page += 1
    for user in os.environ.get("EVENTS_CALENDAR_ST_USERS", "").split(","):
        if user.strip():
            EXISTING["user"][int(user)] = ""


def _remember(kind: str, record: dict[str, Any]) -> None:
    if not record.get("slug"):  # not one a path can name
        EXISTING[kind].pop(record["id"], None)
        return
    EXISTING[kind][record["id"]] = record["slug"]
    if kind == "category":
        PARENTS[record["id"]] = int(record.get("parent") or 0)


def _no_cycle(record_id: Any, parent: Any) -> Any:
    """``parent``, or 0 where it is ``record_id`` or one of its descendants (a category
    cannot be its own ancestor: a 400, as in the reference)."""
    seen, above = set(), parent
    while isinstance(above, int) and above and above not in seen:
        if above == record_id:
            return 0
        seen.add(above)
        above = PARENTS.get(above, 0)
    return parent


@schemathesis.hook
def before_load_schema(context: HookContext, raw_schema: dict[str, Any]) -> None:
    ROOT.append(raw_schema["servers"][0]["url"].rstrip("/"))
    _read_calendar(ROOT[0])


def _replenish(kind: str, authorization: str) -> None:
    """A signed-in run may delete every record of a kind; then a new one is made, so that
    ids and slugs can still name one (a caller who may not create changes nothing)."""
    if any(EXISTING[kind].values()) or kind == "user":
        return
    collection = next(c for c, k in KINDS.items() if k == kind)
    body = dict(NEW_RECORD[kind])
    if "name" in body:
        SENT_NAMES.append(body["name"])
        body["name"] = f"{body['name']} {len(SENT_NAMES)}"
    status, record = _send("POST", f"/{collection}", authorization, body)
    if status == 201:
        _remember(kind, record)


def _still_there(collection: str, kind: str, path: dict[str, Any], authorization: str) -> bool:
    """Whether the record ``path`` names is there for the caller; one found gone (400: the
    run's writes trashed, renamed or deleted it as a side effect) is forgotten. Any other
    answer (credentials refused ...) changes nothing."""
    by = f"by-slug/{path['slug']}" if "slug" in path else str(path["id"])
    status, _ = _send("GET", f"/{collection}/{by}", authorization)
    if status != 400:
        return True
    for record_id, slug in list(EXISTING[kind].items()):
        if record_id == path.get("id") or slug == path.get("slug"):
            EXISTING[kind].pop(record_id)
    return False


def _path_ids(collection: str, kind: str, path: dict[str, Any], authorization: str) -> None:
    """Make ``path``'s id or slug name an existing record; signed in, one checked to be there
    (the run's writes change records behind the hook's back), a kind emptied replenished."""
    given = dict(path)
    for _ in range(10):
        if authorization:
            _replenish(kind, authorization)
        if "id" in path:
            path["id"] = _existing_id(kind, given["id"])
        if "slug" in path:
            path["slug"] = _existing_slug(kind, given["slug"])
        if not authorization or _still_there(collection, kind, path, authorization):
            return


def _index(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return abs(value)
    return zlib.crc32(str(value).encode("utf-8", "surrogatepass"))


def _id_shaped(value: Any) -> bool:
    """Whether ``value`` has the shape of an id: a natural number (0: none, for links), or its
    digits as text. Anything else is a negative case's mutation, sent as generated so that it
    is still refused for what it is (a number too large for an id is replaced too: the case
    is then revalidated as the schema-valid request it became)."""
    if isinstance(value, str):
        return value.isascii() and value.isdigit()
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _existing_id(kind: str, value: Any) -> Any:
    ids = sorted(EXISTING[kind])
    return ids[_index(value) % len(ids)] if ids and _id_shaped(value) else value


def _existing_ids(kind: str, value: Any) -> Any:
    """One existing id per generated id (in a list, a CSV text, ``{"id": n}``, or one value)."""
    if isinstance(value, list):
        return [_existing_ids(kind, item) for item in value]
    if isinstance(value, dict) and "id" in value:
        return {**value, "id": _existing_id(kind, value["id"])}
    if isinstance(value, str) and "," in value:
        return ",".join(str(_existing_id(kind, item)) for item in value.split(","))
    return _existing_id(kind, value)


def _existing_slug(kind: str, value: Any) -> Any:
    slugs = sorted(s for s in EXISTING[kind].values() if s)
    shaped = isinstance(value, str) and NON_BLANK_TEXT.match(value)  # /doc's path slug
    return slugs[_index(value) % len(slugs)] if slugs and shaped else value


def _agreeing_inline(value: Any) -> Any:
    """A JSON link with the new records it holds (objects without ``id``) made to agree as
    a record's fields are, and their authors existing users; copies, never the given ones."""
    if isinstance(value, list):
        return [_agreeing_inline(item) for item in value]
    if not isinstance(value, dict) or "id" in value:
        return value
    fields = dict(value)
    if "author" in fields:
        fields["author"] = _existing_id("user", fields["author"])
    _combine(fields)
    return fields


def _collection(case: Case) -> str | None:
    """``events`` for ``/events/{id}`` and the feed ``/events.ics`` (the events' filters)."""
    first = case.operation.path.strip("/").split("/")[0].removesuffix(".ics")
    return first if first in KINDS else None


def _instant(value: Any) -> datetime.datetime | None:
    """A documented date form (a wall time, a day, a Unix timestamp), read naively; ``None``
    for anything else (a negative case's mutation, left as generated)."""
    try:
        if isinstance(value, int | float) or str(value).replace(".", "", 1).isdigit():
            stamp = datetime.datetime.fromtimestamp(float(value), datetime.UTC)
            return stamp.replace(tzinfo=None)
        return datetime.datetime.fromisoformat(str(value))
    except (ValueError, OverflowError, OSError):
        return None


def _combine(body: dict[str, Any]) -> None:
    """Fields that must agree, which no schema can say: an event ends on or after its start
    (one sent alone takes the other's value, the stored one being unknown here), and
    ``date_utc`` sent with ``date`` is the same instant (sent as the same text)."""
    start, end = body.get("start_date"), body.get("end_date")
    first, last = _instant(start), _instant(end)
    if (start is None) != (end is None) or (first and last and last - first < _DAY):
        body["start_date"] = body["end_date"] = start if start is not None else end
    if body.get("date") is not None and body.get("date_utc") is not None:
        body["date_utc"] = body["date"]


@schemathesis.hook
def before_call(context: HookContext, case: Case, kwargs: dict[str, Any]) -> None:
    """Just before a request is sent (so against the records that exist then: cases are
    generated ahead, and the run's deletes remove records), its ids are made to name existing
    records and its fields to agree.

    Every case, negative ones too, value by value: a negative case mutates one value and
    sends the others valid, and its mutation may fail to break the schema (an empty string
    matching an optional pattern), which makes the whole request schema-valid. Only values
    shaped as ``/doc`` takes them are replaced (``_id_shaped``, ``NON_BLANK_TEXT``), so a
    mutated one is sent as generated; schemathesis revalidates what a hook changed before it
    chooses its checks.
    """
    collection = _collection(case)
    if collection is None:
        return
    kind = KINDS[collection]
    # Changed on copies: schemathesis may hand one container to cases of several operations
    # (an event's slug once reached a venue's path through a shared dict).
    if case.path_parameters:
        case.path_parameters = dict(case.path_parameters)
    path = case.path_parameters or {}
    if isinstance(case.query, dict):
        case.query = dict(case.query)
    if isinstance(case.body, dict):
        case.body = dict(case.body)
    authorization = (case.headers or {}).get("Authorization", "")
    if "id" in path or "slug" in path:
        _path_ids(collection, kind, path, authorization)
    for names, given in ((QUERY_IDS[collection], case.query), (BODY_IDS[kind], case.body)):
        if not isinstance(given, dict):
            continue
        for name, named_kind in names.items():
            if name in given and given[name] is not None:
                if authorization:
                    _replenish(named_kind, authorization)
                given[name] = _existing_ids(named_kind, given[name])
    if isinstance(case.body, dict):
        _combine(case.body)
        for name in INLINE:
            if name in case.body:
                case.body[name] = _agreeing_inline(case.body[name])
    body = case.body if isinstance(case.body, dict) else {}
    if kind == "category" and _id_shaped(body.get("parent")):
        body["parent"] = _no_cycle(path.get("id"), body["parent"])
    if kind in ("category", "tag") and isinstance(body.get("name"), str):
        # A term's name is unique among its siblings (400 ``term_exists`` otherwise, as in
        # the reference): each request sends a name no earlier one did.
        SENT_NAMES.append(body["name"])
        body["name"] = f"{body['name']} {len(SENT_NAMES)}"


@schemathesis.hook
def after_call(context: HookContext, case: Case, response: Response) -> None:
    """Keep ``EXISTING`` current with what the run's writes did."""
    collection = _collection(case)
    if collection is None or case.method == "GET":
        return
    kind = KINDS[collection]
    if not 200 <= response.status_code < 300:
        return
    try:
        record = response.json()
    except ValueError:
        return
    if not isinstance(record, dict) or not isinstance(record.get("id"), int):
        return
    # Only published records are chosen: a caller without credentials (``ignored_auth``
    # replays a write without them) reads no other, and an unreadable record is a 400 before
    # any right is checked, as in the reference. Terms have no status.
    gone = case.method == "DELETE" and kind in ("category", "tag")
    if gone or record.get("status", "publish") != "publish":
        EXISTING[kind].pop(record["id"], None)
    else:
        _remember(kind, record)
