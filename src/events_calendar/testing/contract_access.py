"""Backend contract: who may do what, who sees what, passwords and users.

The role rules are the reference's (The Events Calendar on WordPress): administrators and editors
may change anyone's records; authors create, publish, edit and delete their own; contributors
create and edit their own until they are published and cannot publish (``publish`` is scaled back
to ``pending``, the default is ``draft``); subscribers and anonymous callers only read. Categories
need an author, tags an editor. Anonymous writes are ``Forbidden`` with status 401, writes by a
signed-in user without the right 403. Every refused write must leave the calendar unchanged.
"""

from __future__ import annotations

from .contract_anonymous import AnonymousContract
from .contract_protected_events import ProtectedEventContract
from .contract_roles import RoleContract
from .contract_users import UserContract
from .contract_visibility import VisibilityContract

__all__ = ["AccessContract"]


class AccessContract(
    AnonymousContract, RoleContract, VisibilityContract, ProtectedEventContract, UserContract
):
    """Roles, visibility, password-protected events and users, one behaviour per test.

    Split by topic into five modules; each part can also run on its own.
    """
