"""The ``Calendar`` facade: one object that holds every business rule, over any backend."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from datetime import datetime, tzinfo
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from .backends import default_url, open_backend
from .context import Context
from .dates import Clock, SystemClock
from .errors import InvalidParameter
from .events import EventCollection
from .linked import LinkedCollection
from .permissions import Actor
from .records import Category, Organizer, Tag, User, Venue
from .settings import Settings, settings_of
from .storage import Backend
from .terms import TermCollection
from .users import UserDirectory

if TYPE_CHECKING:
    from .io.report import ImportReport
    from .progress import ProgressArg

__all__ = ["Calendar", "connect"]

#: ``as_user`` views kept per calendar (each a context and six collection objects).
_KEPT_VIEWS = 256


class Calendar:
    """An events calendar: ``events``, ``venues``, ``organizers``, ``categories``, ``tags``
    and ``users``, each a collection with create/get/update/delete/list.

    A calendar made by ``connect()`` acts with full access, for scripts and notebooks;
    ``as_user()`` returns the same calendar acting under a user's role rules (or anonymously).
    """

    events: EventCollection
    """Events: ``create``, ``get``, ``get_by_slug``, ``update``, ``delete``, ``list``, and
    ``bulk_create`` for imports; creating an event can create its venue and terms too."""
    venues: LinkedCollection[Venue]
    """Venues, which events link to by id (or create inline by name)."""
    organizers: LinkedCollection[Organizer]
    """Organizers, which events link to by id (or create inline by name)."""
    categories: TermCollection[Category]
    """Event categories: a tree (``parent``); a category filter includes its descendants."""
    tags: TermCollection[Tag]
    """Event tags: flat terms, found by id, slug or name."""
    users: UserDirectory
    """Users, roles and their secrets (application passwords and bearer tokens)."""

    def __init__(
        self,
        backend: Backend,
        *,
        settings: Settings | Mapping[str, Any] | None = None,
        clock: Clock | None = None,
        actor: Actor | None = None,
    ) -> None:
        self._bind(
            Context(
                backend,
                settings_of(settings),
                clock or SystemClock(),
                actor or Actor.full_access(),
            )
        )
        self._views: dict[User | None, Calendar] = {}

    def _bind(self, ctx: Context) -> None:
        self._context = ctx
        self.venues = LinkedCollection(Venue, ctx)
        self.organizers = LinkedCollection(Organizer, ctx)
        self.categories = TermCollection(Category, ctx)
        self.tags = TermCollection(Tag, ctx)
        self.events = EventCollection(
            ctx,
            venues=self.venues,
            organizers=self.organizers,
            categories=self.categories,
            tags=self.tags,
        )
        self.users = UserDirectory(ctx)

    @property
    def backend(self) -> Backend:
        """The storage underneath, for what the calendar API does not cover: copying a whole
        calendar (``transfer.copy_calendar``), SQLite's statement tracer."""
        return self._context.backend

    @property
    def settings(self) -> Settings:
        """The settings this calendar was opened with (paging, time zone, batch size)."""
        return self._context.settings

    @property
    def actor(self) -> Actor:
        """Who this calendar acts for, with the role rules that apply to them."""
        return self._context.actor

    @property
    def zone(self) -> tzinfo:
        """The calendar's time zone (``Settings.timezone``)."""
        return self._context.zone

    @property
    def user(self) -> User | None:
        """Who this calendar acts for (``None``: anonymous, or full access)."""
        return self._context.actor.user

    def now(self) -> datetime:
        """The calendar clock's current instant (UTC)."""
        return self._context.now()

    def transaction(self) -> AbstractContextManager[None]:
        """Many writes that commit together or not at all::

            with cal.transaction():
                for event_id in ids:
                    cal.events.update(event_id, featured=True)

        An error inside undoes every write made inside. Transactions nest; reads inside see
        the writes made so far.
        """
        return self._context.backend.transaction()

    def as_user(self, user: User | str | None) -> Calendar:
        """This calendar, acting under ``user``'s role rules: a ``User``, or a login (an
        unknown one is ``NotFound``); ``None`` means anonymous. Anything else is an
        ``InvalidParameter`` naming ``user`` (a login was taken and failed at the first call).

        Views are kept per user value (a changed role or name is another value) and shared
        by every view of one calendar: the server asks for one per request, and building it
        (a context, six collections) was a twentieth of an uncached list's time. A view
        holds nothing but its context, so handing one out twice is safe."""
        if isinstance(user, str):
            user = self.users._named(user)
        elif user is not None and not isinstance(user, User):
            raise InvalidParameter.one(
                "user", "send a User (cal.users.get(login)), a login, or None for anonymous"
            )
        views = self._views
        view = views.get(user)
        if view is None:
            view = Calendar.__new__(Calendar)
            view._bind(self._context.acting_as(Actor(user)))  # shares storage and caches
            view._views = views
            if len(views) >= _KEPT_VIEWS:
                views.clear()  # a bound: a server signs in only so many users at once
            views[user] = view
        return view

    def close(self) -> None:
        """Release the backend's connections (a ``with`` block does it on exit); views made by
        ``as_user()`` share them, so close only the calendar ``connect()`` returned."""
        self._context.backend.close()

    def import_file(
        self,
        path: str | Path,
        *,
        format: str | None = None,
        kind: str | None = None,
        dry_run: bool = False,
        on_conflict: Literal["skip", "update"] = "skip",
        partial: bool = False,
        map: Mapping[str, str] | None = None,
        status: str | None = None,
        key: str | None = None,
        window: tuple[object, object] | None = None,
        progress: ProgressArg = None,
        mapping: Mapping[str, str] | None = None,
    ) -> ImportReport:
        """Import a CSV file (events, venues or organizers, in the reference's importer
        layout), an iCalendar file, or a JSON backup; returns what happened to each row.

        Rows are matched to stored records by ``key`` (a CSV column; by default an event's
        title and start, a venue's or organizer's name, an iCalendar UID, a backup's slugs)
        and skipped or updated (``on_conflict``). Atomic: one refused row writes nothing
        unless ``partial``; ``dry_run`` writes nothing. ``map`` reads CSV columns as fields,
        as the CLI's ``--map`` (``mapping`` is its earlier name); ``window=(start, end)``
        bounds an iCalendar file's recurring events, as ``--window``. See
        ``docs/import-export.md``.
        """
        from .io.files import import_file  # the io package loads only when used

        if map is not None and mapping is not None:
            raise InvalidParameter.one("map", "send map= or its earlier name mapping=, not both")
        return import_file(
            self,
            path,
            format=format,
            kind=kind,
            dry_run=dry_run,
            on_conflict=on_conflict,
            partial=partial,
            mapping=map if map is not None else mapping,
            status=status,
            key=key,
            window=window,
            progress=progress,
        )

    def export_file(self, path: str | Path, *, format: str | None = None, **filters: Any) -> int:
        """Write the events ``filters`` select (those of ``events.list``; every date when no
        date filter is given) to a CSV or iCalendar file, or the whole calendar to a JSON
        backup; returns the number of events written. ``progress=`` is accepted too."""
        from .io.files import export_file

        return export_file(self, path, format=format, **filters)

    def __enter__(self) -> Calendar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def connect(
    url: str | None = None,
    *,
    settings: Settings | Mapping[str, Any] | None = None,
    clock: Clock | None = None,
) -> Calendar:
    """Open a calendar on a database URL with full access.

    ``sqlite:///path.db`` (the default, for ``url=None``: ``$EVENTS_CALENDAR_DB``, else
    ``sqlite:///events.db``; the variable set but blank is ``InvalidParameter``, and so is an
    empty ``url``, not read as the default: either would open another database than meant)
    stores in an SQLite file, ``sqlite://`` in a private in-memory SQLite database,
    ``memory://`` in plain Python structures. ``settings`` is an ``ec.Settings`` or a mapping
    of its fields, read before the database is opened (a bad one opens and creates nothing).
    """
    chosen = settings_of(settings)
    return Calendar(
        open_backend(default_url() if url is None else url), settings=chosen, clock=clock
    )
