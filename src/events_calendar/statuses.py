"""Post statuses and user roles: the two closed vocabularies the rules are written in.

They are ``StrEnum``s so that ``Status.PUBLISH == "publish"``: callers may pass plain strings
everywhere, and records compare equal to the reference's wire values without a mapping table.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["COUNTED_STATUSES", "LISTABLE_STATUSES", "Role", "Status"]


class Status(StrEnum):
    """A post status, as WordPress names them (events, venues and organizers carry one)."""

    PUBLISH = "publish"
    FUTURE = "future"
    DRAFT = "draft"
    PENDING = "pending"
    PRIVATE = "private"
    TRASH = "trash"


#: What "any" means in a status filter: every status but the trash (WordPress's ``any``).
LISTABLE_STATUSES: frozenset[Status] = frozenset(Status) - {Status.TRASH}

#: The events a category's or tag's ``count`` counts: published ones (WordPress's term count).
#: Backends keep the count stored; this is the one statement of what it counts.
COUNTED_STATUSES: frozenset[Status] = frozenset({Status.PUBLISH})


class Role(StrEnum):
    """A user role; each grants everything the roles below it grant."""

    ADMINISTRATOR = "administrator"
    EDITOR = "editor"
    AUTHOR = "author"
    CONTRIBUTOR = "contributor"
    SUBSCRIBER = "subscriber"

    @property
    def rank(self) -> int:
        """Higher ranks may do more; used only for "at least" comparisons."""
        return _RANKS[self]

    def at_least(self, other: Role) -> bool:
        """Whether this role may do what ``other`` may (roles are nested, as WordPress's)."""
        return self.rank >= other.rank


_RANKS = {
    Role.SUBSCRIBER: 0,
    Role.CONTRIBUTOR: 1,
    Role.AUTHOR: 2,
    Role.EDITOR: 3,
    Role.ADMINISTRATOR: 4,
}
