"""What a backup must hold before it is restored: a calendar a backend could have stored.

A restore into an empty calendar (``transfer.restore``) copies records as they are, past the
checks every other write makes, and the backends would each meet a bad record in their own
way (one storing it, another failing on a constraint, a third on a driver error). So the
whole backup is checked first, with the rules the calendar applies elsewhere, and a bad one
is refused as one ``UnreadableFile`` naming each problem's place (``event 4: end_date: ...``)
before anything is written, whatever the backend.

Checked: every text is ``coerce.clean_text`` (no NUL character, no lone surrogate); each
record's fields hold what a create or update could have stored, read by the readers writes
use (``validation.stored_problems``: a name not blank, a slug as slugs are made, a website
or image an http(s) address, an organizer's email an address); ids are positive, fit a
database integer and are unique per family (posts, terms, users, credentials); slugs are
unique per kind; an event ends no earlier than it starts
(``validation.refuse_end_before_start``); an event's links, its parent and a category's
parent name records of the backup, and no category is its own ancestor; a former slug
names a record of its kind; logins and secret digests are unique, and a credential's user
is one of the backup's. Not checked: an author that names no user (``users.remove`` leaves
a removed user's records so, and a backup holds them as they are), import keys (a key of a
deleted record stays, unused), and texts beyond ``clean_text`` (markup is kept or cleaned
by the rights of whoever wrote it, so any text may be stored). The converter has read each
record into its declared types (dates, flags, statuses, a known time zone) before.

The sequences are not refused but raised (``BackupSnapshot``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from ..coerce import MAX_INT, clean_text
from ..errors import InvalidParameter
from ..records import Category, Credential, Event, Kind, Record, User
from ..users import login_problem
from ..validation import refuse_end_before_start, stored_problems

__all__ = ["FAMILY_KINDS", "backup_problems"]

#: The kinds whose records share an id sequence.
FAMILY_KINDS: dict[str, tuple[Kind, ...]] = {
    "post": ("venue", "organizer", "event"),
    "term": ("category", "tag"),
}
#: An event's links: the field and the kind it names.
_LINKS: tuple[tuple[str, Kind], ...] = (
    ("categories", "category"),
    ("tags", "tag"),
    ("venue", "venue"),
    ("organizer", "organizer"),
)
_TEXT_WHY = "not valid text: it holds a NUL character or a lone surrogate"


def backup_problems(
    records: Mapping[Kind, list[Record]],
    aliases: Mapping[Kind, Mapping[str, int]],
    keys: Mapping[Kind, Mapping[str, int]],
    users: list[User],
    credentials: list[Credential],
) -> list[str]:
    """Every problem of a backup's contents, each as ``"<place>: <field>: <why>"``, in file
    order (records by kind, then former slugs, import keys, users, credentials); empty for
    a backup a calendar could hold."""
    ids = {kind: {r.id for r in found} for kind, found in records.items()}
    problems: list[str] = []
    for kinds in FAMILY_KINDS.values():
        problems += _unique_ids((f"{kind} {r.id}", r.id) for kind in kinds for r in records[kind])
    for kind, found in records.items():
        slugs: dict[str, int] = {}
        for record in found:
            place = f"{kind} {record.id}"
            problems += _texts(place, record)
            problems += (f"{place}: {name}: {why}" for name, why in stored_problems(record).items())
            owner = slugs.setdefault(record.slug, record.id)
            if owner != record.id:
                problems.append(f"{place}: slug: {kind} {owner} has this slug too")
            if isinstance(record, Event):
                problems += _event(place, record, ids)
        if kind == "category":
            problems += _category_parents(found, ids["category"])
    for kind, pairs in aliases.items():
        for slug, record_id in pairs.items():
            place = f"slug_aliases.{kind}.{slug!r}"
            if not clean_text(slug):
                problems.append(f"{place}: {_TEXT_WHY}")
            elif record_id not in ids[kind]:
                problems.append(f"{place}: names no {kind} of the backup ({record_id})")
    problems += [
        f"import_keys.{kind}: {_TEXT_WHY}"
        for kind, pairs in keys.items()
        if not all(clean_text(key) for key in pairs)
    ]
    problems += _unique_ids((f"user {u.id}", u.id) for u in users)
    problems += _users(users)
    problems += _unique_ids((f"credential {c.id}", c.id) for c in credentials)
    problems += _credentials(credentials, {u.id for u in users})
    return problems


def _unique_ids(places: Iterable[tuple[str, int]]) -> Iterator[str]:
    """Each place (``"<kind> <id>"``, of one id family) whose id is not positive, too large
    for a database integer, or another's of the family."""
    seen: dict[int, str] = {}
    for place, record_id in places:
        if not 0 < record_id <= MAX_INT:
            yield f"{place}: id: not a positive id a database can hold (1 to {MAX_INT})"
        elif record_id in seen:
            other = "another" if seen[record_id] == place else seen[record_id]
            yield f"{place}: id: {other} has this id too"
        else:
            seen[record_id] = place


def _texts(place: str, item: Any) -> Iterator[str]:
    """Each text field of a record, user or credential that ``clean_text`` refuses."""
    for field in attrs.fields(type(item)):
        value = getattr(item, field.name)
        if field.init and isinstance(value, str) and not clean_text(value):
            yield f"{place}: {field.name}: {_TEXT_WHY}"


def _event(place: str, event: Event, ids: Mapping[Kind, set[int]]) -> Iterator[str]:
    try:
        refuse_end_before_start(event.start_date, event.end_date)
    except InvalidParameter as bad:
        yield from (f"{place}: {name}: {why}" for name, why in bad.fields.items())
    for name, kind in _LINKS:
        linked: tuple[int, ...] = getattr(event, name)
        missing = [i for i in linked if i not in ids[kind]]
        if missing:
            yield f"{place}: {name}: names no {kind} of the backup ({_listed(missing)})"
        if len(set(linked)) < len(linked):
            yield f"{place}: {name}: names a {kind} twice"
    if event.post_parent and event.post_parent not in ids["event"]:
        yield f"{place}: post_parent: names no event of the backup ({event.post_parent})"


def _category_parents(found: list[Record], categories: set[int]) -> Iterator[str]:
    """Each category whose parent is not one of the backup's, and each cycle of parents,
    once, at its lowest id (a tree has none: ``terms`` refuses moving a category under its
    own descendant)."""
    parent = {c.id: c.parent for c in found if isinstance(c, Category)}
    for term_id, parent_id in parent.items():
        if parent_id and parent_id not in categories:
            yield f"category {term_id}: parent: names no category of the backup ({parent_id})"
    walked: set[int] = set()
    for start in sorted(parent):
        path: dict[int, None] = {}  # in walking order
        term_id = start
        while term_id in parent and term_id not in walked and term_id not in path:
            path[term_id] = None
            term_id = parent[term_id]
        if term_id in path:
            cycle = sorted(list(path)[list(path).index(term_id) :])
            yield f"category {cycle[0]}: parent: " + (
                "is the category itself; a category tree has a root"
                if len(cycle) == 1
                else f"the categories {_listed(cycle)} are each other's parents (a cycle); "
                "a category tree has a root"
            )
        walked.update(path)


def _users(users: list[User]) -> Iterator[str]:
    logins: dict[str, int] = {}
    for user in users:
        place = f"user {user.id}"
        yield from _texts(place, user)
        problem = login_problem(user.login)
        if problem is not None:
            yield f"{place}: login: {problem}"
        owner = logins.setdefault(user.login, user.id)
        if owner != user.id:
            yield f"{place}: login: user {owner} has this login too"


def _credentials(credentials: list[Credential], users: set[int]) -> Iterator[str]:
    digests: dict[str, int] = {}
    for credential in credentials:
        place = f"credential {credential.id}"
        yield from _texts(place, credential)
        if credential.user_id not in users:
            yield f"{place}: user_id: names no user of the backup ({credential.user_id})"
        owner = digests.setdefault(credential.secret_hash, credential.id)
        if owner != credential.id:
            yield f"{place}: secret_hash: credential {owner} has this digest too"


def _listed(ids: Iterable[int]) -> str:
    return ", ".join(str(i) for i in ids)
