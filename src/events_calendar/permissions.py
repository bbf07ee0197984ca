"""Who may do what: the reference's role rules, in one place.

The rules mirror WordPress's capabilities for posts, which The Events Calendar applies to events,
venues and organizers alike:

- administrators and editors may do anything to anyone's records;
- authors create, edit, publish and delete their own records;
- contributors create and edit their own records while unpublished, and may not publish: a
  requested ``publish``/``future`` is scaled back to ``pending``;
- subscribers and anonymous callers only read published records.

Categories need at least an author (the reference ties them to publishing events), tags at least
an editor (WordPress's ``manage_categories``).

An ``Actor`` is who a calendar acts for: a user, anonymous (``user=None``), or the full-access
system actor a bare ``connect()`` returns for scripts and notebooks.
"""

from __future__ import annotations

import attrs

from .records import Kind, User
from .statuses import LISTABLE_STATUSES, Role, Status

__all__ = ["Actor"]

_PUBLISHED = frozenset({Status.PUBLISH, Status.FUTURE, Status.PRIVATE})
#: What a contributor may not edit or delete. WordPress judges a trashed post by the status
#: it had before the trash, which records here do not keep: a contributor whose published
#: record an editor trashed would have got back the rights publishing took away, so the
#: trash is closed to contributors (their own trashed drafts included: an editor restores
#: those).
_CLOSED_TO_CONTRIBUTORS = _PUBLISHED | {Status.TRASH}


@attrs.frozen
class Actor:
    """The caller a rule is checked for."""

    user: User | None
    system: bool = False

    @classmethod
    def full_access(cls) -> Actor:
        return cls(None, system=True)

    @property
    def anonymous(self) -> bool:
        return self.user is None and not self.system

    @property
    def user_id(self) -> int:
        """The author id new records get (0 for the system and anonymous actors)."""
        return self.user.id if self.user else 0

    def _role_at_least(self, role: Role) -> bool:
        return self.system or (self.user is not None and self.user.role.at_least(role))

    @property
    def is_editor(self) -> bool:
        """Editors and up may touch everyone's records."""
        return self._role_at_least(Role.EDITOR)

    @property
    def manages_users(self) -> bool:
        """Administrators (and the full-access calendar) manage users and whatever holds
        their secrets: a JSON backup, its export and its restore."""
        return self._role_at_least(Role.ADMINISTRATOR)

    def _owns(self, author: int) -> bool:
        return self.user is not None and self.user.id == author

    # -- posts -----------------------------------------------------------------------------
    def can_create(self, kind: Kind) -> bool:
        if kind == "category":
            return self._role_at_least(Role.AUTHOR)
        if kind == "tag":
            return self._role_at_least(Role.EDITOR)
        return self._role_at_least(Role.CONTRIBUTOR)

    @property
    def unfiltered_html(self) -> bool:
        """Whether the caller's text keeps any HTML (WordPress's ``unfiltered_html``:
        administrators and editors); others' markup is sanitised (``markup.sanitize``)."""
        return self.is_editor

    def can_publish(self) -> bool:
        return self._role_at_least(Role.AUTHOR)

    def can_edit(self, kind: Kind, author: int, status: Status) -> bool:
        """Edit (or delete) one existing record."""
        if kind in ("category", "tag"):
            return self.can_create(kind)
        if self.is_editor:
            return True
        if not self._owns(author):
            return False
        if self._role_at_least(Role.AUTHOR):
            return True
        return self._role_at_least(Role.CONTRIBUTOR) and status not in _CLOSED_TO_CONTRIBUTORS

    def can_read(self, author: int, status: Status) -> bool:
        """Read one record by id or slug (published records are public)."""
        if status == Status.PUBLISH:
            return True
        if self.is_editor:
            return True
        return self._owns(author) and self._role_at_least(Role.CONTRIBUTOR)

    def may_request(self, status: Status | None) -> bool:
        """Whether the caller may ask for ``status`` on a record they create or edit.

        Callers who may not publish may not make a record private or trash it by its status
        either (WordPress's ``rest_cannot_publish``); they delete their drafts instead.
        """
        return self.can_publish() or status not in (Status.PRIVATE, Status.TRASH)

    def scale_status(self, requested: Status | None) -> Status:
        """The status a new record really gets (the reference's ``scale_back_post_status``)."""
        if self.can_publish():
            return requested or Status.PUBLISH
        if requested in (Status.PUBLISH, Status.FUTURE, None):
            return Status.PENDING if requested else Status.DRAFT
        return requested

    # -- lists -----------------------------------------------------------------------------
    @property
    def may_filter_status(self) -> bool:
        """Only contributors and up may list anything but published records."""
        return self._role_at_least(Role.CONTRIBUTOR)

    def default_statuses(self) -> frozenset[Status]:
        """What a list shows when no status is asked for."""
        return LISTABLE_STATUSES if self.may_filter_status else frozenset({Status.PUBLISH})

    @property
    def unpublished_author(self) -> int | None:
        """The list form of ``can_read``: non-editors see records in any status but
        ``publish`` only when they wrote them; ``None`` means no restriction."""
        return None if self.is_editor else self.user_id

    def can_read_event(self, author: int, status: Status, *, password: str) -> bool:
        """Whether the caller may see an event's content in full: readable, and not hidden
        behind a password (only the full-access actor reads those without it)."""
        return self.can_read(author, status) and (not password or self.system)

    @property
    def reads_own_private(self) -> int | None:
        """The author whose private records a non-editor may read besides published ones:
        their own, for contributors and up (``can_read``); ``None`` for everyone else."""
        if self.user is None or self.is_editor or not self._role_at_least(Role.CONTRIBUTOR):
            return None
        return self.user.id

    @property
    def private_author(self) -> int | None:
        """Non-editors see only their own private records; ``None`` means no restriction."""
        return None if self.is_editor else self.user_id
