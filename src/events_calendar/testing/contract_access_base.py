"""The helpers every access contract part shares: records of any kind, callers of any role."""

from __future__ import annotations

from typing import Any

import events_calendar as ec
from events_calendar.errors import Forbidden

from .base import ContractBase
from .contract_record_base import make_event

__all__ = [
    "ALL_KINDS",
    "POST_KINDS",
    "ROLES",
    "AccessContractBase",
    "collection",
    "create",
    "forbidden",
    "ids",
    "list_all",
    "name_change",
]

POST_KINDS = ("event", "venue", "organizer")
ALL_KINDS = (*POST_KINDS, "category", "tag")
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")


def collection(cal: ec.Calendar, kind: str) -> Any:
    """The collection of ``kind`` on ``cal``."""
    return {
        "event": cal.events,
        "venue": cal.venues,
        "organizer": cal.organizers,
        "category": cal.categories,
        "tag": cal.tags,
    }[kind]


def create(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    """Create a record of ``kind`` named ``name`` (events get a date in 2027)."""
    if kind == "event":
        return make_event(cal, name, **fields)
    if kind in ("category", "tag"):
        return collection(cal, kind).create(name=name, **fields)
    return collection(cal, kind).create(**{kind: name}, **fields)


def name_change(kind: str) -> dict[str, str]:
    """A harmless update for ``kind``."""
    return {"title" if kind == "event" else "description": "Changed"}


def list_all(cal: ec.Calendar, kind: str, **params: Any) -> Any:
    """One page listing records of a post kind (events over every date)."""
    if kind == "event":
        params = {"start_date": "1970-01-01", "end_date": "2099-12-31", **params}
    return collection(cal, kind).list(per_page=50, **params)


def ids(records: Any) -> list[int]:
    return [record.id for record in records]


def forbidden(error: Forbidden) -> tuple[str, int]:
    return (error.code, error.http_status)


class AccessContractBase(ContractBase):
    """The fixtures of ``ContractBase``, and callers acting under a role."""

    def user_cal(self, cal: ec.Calendar, role: str, login: str | None = None) -> ec.Calendar:
        """``cal`` acting for a new user with ``role``."""
        return self.as_role(cal, role, login)
