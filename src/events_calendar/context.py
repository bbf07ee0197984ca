"""What every collection of a calendar shares: storage, settings, clock and the acting user."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from datetime import datetime, tzinfo
from typing import TypeVar

import attrs

from .caching import GenerationCache
from .coerce import MAX_INT
from .dates import Clock, resolve_zone
from .errors import Forbidden, NotFound, WrongKind
from .journal_cache import JournalCache
from .permissions import Actor
from .records import RECORD_CLASSES, Kind, Record
from .settings import Settings
from .storage import Backend

__all__ = ["Context", "error_code"]

R = TypeVar("R", bound=Record)


class _RememberingLookup:
    """``validation.Lookup`` over a context, remembering what exists and the time.

    Validating thousands of rows that name the same venues and categories would otherwise ask
    storage the same question thousands of times; nothing is written during the pass, so the
    answers cannot go stale.
    """

    def __init__(self, context: Context) -> None:
        self._context = context
        self._now = context.now()
        self._exists: dict[tuple[str, int], bool] = {}
        self._users: dict[int, bool] = {}

    @property
    def zone(self) -> tzinfo:
        return self._context.zone

    def now(self) -> datetime:
        return self._now

    @property
    def unfiltered_html(self) -> bool:
        return self._context.unfiltered_html

    def exists(self, kind: Kind, record_id: int) -> bool:
        key = (kind, record_id)
        if key not in self._exists:
            self._exists[key] = self._context.exists(kind, record_id)
        return self._exists[key]

    def exist_many(self, kind: Kind, record_ids: Iterable[int]) -> dict[int, bool]:
        """``exists`` of each id, those not yet known asked in one lookup."""
        ids = list(record_ids)
        self.learn(kind, ids)
        return {record_id: self._exists[kind, record_id] for record_id in ids}

    def learn(self, kind: Kind, record_ids: Iterable[int]) -> None:
        """Ask storage about many ids of one kind at once (one lookup for them all), so that
        ``exists`` answers them from memory: what a bulk load does before each batch."""
        wanted = [i for i in set(record_ids) if (kind, i) not in self._exists]
        for record_id, readable in self._context.exist_many(kind, wanted).items():
            self._exists[kind, record_id] = readable

    def user_exists(self, user_id: int) -> bool:
        if user_id not in self._users:
            self._users[user_id] = self._context.user_exists(user_id)
        return self._users[user_id]


#: The reference's error codes that name the kind of record (``<kind>-is-in-trash`` and so on).
_KIND_WORD = {"event": "event", "venue": "venue", "organizer": "organizer"}


def error_code(kind: Kind, situation: str) -> str:
    """``error_code("venue", "is-in-trash") == "venue-is-in-trash"``."""
    return f"{_KIND_WORD.get(kind, kind)}-{situation}"


@attrs.frozen
class Context:
    """The services a collection works with, and who it acts for."""

    backend: Backend
    settings: Settings
    clock: Clock
    actor: Actor
    #: List totals per normalised filter, valid while the data generation holds; shared by
    #: every ``as_user`` view of one calendar (the filter carries what the caller may see).
    totals: GenerationCache[int] = attrs.field(factory=GenerationCache, eq=False)
    #: Linked records (venues, organizers, terms) by kind and id, kept until the change
    #: journal names them: every event page shows some, and few of them change in a write.
    linked: JournalCache[Record] = attrs.field(factory=JournalCache, eq=False)
    zone: tzinfo = attrs.field(init=False)

    @zone.default
    def _zone(self) -> tzinfo:
        return resolve_zone(self.settings.timezone, field="timezone")

    def acting_as(self, actor: Actor) -> Context:
        return attrs.evolve(self, actor=actor)

    # -- the validation.Lookup protocol --------------------------------------------------
    @property
    def unfiltered_html(self) -> bool:
        return self.actor.unfiltered_html

    def now(self) -> datetime:
        """The clock's instant to the second: stored dates have no fractions (as the
        reference's), so every backend orders them alike."""
        return self.clock.now().replace(microsecond=0)

    def exists(self, kind: Kind, record_id: int) -> bool:
        """Whether a record of ``kind`` with that id exists and the caller may read it: a
        write may link only what its author could read (a contributor linking someone's
        draft organizer by id is told there is none, as for an unknown id)."""
        return self.exist_many(kind, [record_id])[record_id]

    def exist_many(self, kind: Kind, record_ids: Iterable[int]) -> dict[int, bool]:
        """``exists`` for many ids of one kind, in one storage lookup."""
        ids = list(record_ids)
        found = self.backend.get_many(RECORD_CLASSES[kind], [i for i in ids if 0 < i <= MAX_INT])
        answers = {}
        for record_id in ids:
            record = found.get(record_id)
            author, status = getattr(record, "author", 0), getattr(record, "status", None)
            answers[record_id] = record is not None and (
                status is None or self.actor.can_read(author, status)
            )
        return answers

    def user_exists(self, user_id: int) -> bool:
        return self.backend.get_user(user_id) is not None

    def remembering(self) -> _RememberingLookup:
        """A lookup for a validation pass that writes nothing: each answer is asked once."""
        return _RememberingLookup(self)

    # -- shared checks ---------------------------------------------------------------------
    def require(self, allowed: bool, action: str) -> None:
        """Raise ``Forbidden`` (401 for anonymous callers) unless ``allowed``."""
        if not allowed:
            raise self.refusal(action)

    def refusal(self, action: str) -> Forbidden:
        """The error refusing the caller ``action`` (a phrase: "edit this event")."""
        who = "anonymous callers" if self.actor.anonymous else "your role"
        return Forbidden(f"Sorry, {who} may not {action}.", anonymous=self.actor.anonymous)

    def get_linked(
        self, cls: type[R], record_ids: Iterable[int], generation: Hashable
    ) -> dict[int, R]:
        """``backend.get_many`` through ``linked``: what was read since the last write that
        touched it is not read again. ``generation`` is the backend's, taken before; inside a
        write transaction every record is read (``journal_cache``)."""
        view = self.linked.view(self.backend, generation)
        found: dict[int, R] = {}
        missing = []
        for record_id in record_ids:
            record = None if view is None else self.linked.get((cls.kind, record_id))
            if record is None:
                missing.append(record_id)
            else:
                found[record_id] = record  # type: ignore[assignment]
        if missing:
            for record_id, record in self.backend.get_many(cls, missing).items():
                if view is not None:
                    self.linked.put((cls.kind, record_id), view, record)
                found[record_id] = record
        return found

    def load(self, cls: type[R], record_id: int) -> R:
        """The record of that class with that id, or the reference's not-found error."""
        fits = 0 <= record_id <= MAX_INT  # a larger id names nothing (and overflows SQL)
        found = self.backend.get_many(cls, [record_id]).get(record_id) if fits else None
        if found is not None:
            return found
        kind = cls.kind
        # The reference validates ids before its handlers run, so an unknown id (0 included)
        # or another kind's id is a 400 ``rest_invalid_param``.
        if kind == "event":
            if fits and self.backend.post_kind(record_id) is not None:
                raise WrongKind(
                    "The specified ID is not a valid event.",
                    code="rest_invalid_param",
                    fields={"id": "send the id of an event, not of a venue or organizer"},
                )
            raise NotFound(
                f"Event with ID {record_id} does not exist.",
                code="rest_invalid_param",
                fields={"id": "send an existing event id"},
            )
        raise NotFound(
            f"There is no {kind} with ID {record_id}.",
            code="rest_invalid_param",
            fields={"id": f"send an existing {kind} id"},
        )
