"""Users, application passwords and bearer tokens.

Secrets are generated here, shown once, and stored only as SHA-256 digests. A slow password hash
(scrypt, argon2) protects secrets people choose; ours are 120+ random bits the library picks, for
which a fast digest is as safe and lets a request be authenticated with one indexed lookup instead
of a hash per stored credential.

Application passwords look like WordPress's (six groups of four characters); spaces are ignored
when checking, as WordPress ignores them, so clients of the reference can send them either way.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from typing import Literal

from .coerce import clean_text
from .context import Context
from .errors import AuthenticationFailed, InvalidParameter, NotFound
from .records import Credential, User
from .statuses import Role
from .validation import read_name

__all__ = ["UserDirectory", "login_problem"]

_ALPHABET = string.ascii_letters + string.digits
#: A login, as the errors about one show it.
_EXAMPLE = "'ann'"
_TOKEN_PREFIX = "ect_"  # noqa: S105 - a public prefix that makes tokens recognisable


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def login_problem(login: str) -> str | None:
    """Why a text is no login a user may have (empty, with spaces or a NUL character), or
    ``None``: the rule ``create`` applies, and a backup's restore (``io.backup_checks``)."""
    if not login.strip() or any(c.isspace() for c in login) or not clean_text(login):
        return "send a non-empty login without spaces or NUL characters"
    return None


def _same_login(one: str, other: str) -> bool:
    """Whether two texts name one login: case is not part of it (``Ada`` signs in as
    ``ada``, and may not be created beside it), as WordPress's case-insensitive
    ``user_login`` column reads it, so that ``Admin`` cannot pass for ``admin``."""
    return one.casefold() == other.casefold()


class UserDirectory:
    """The users of a calendar (``cal.users``); managing them needs an administrator."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def _require_admin(self) -> None:
        self._ctx.require(self._ctx.actor.manages_users, "manage users")

    def create(
        self,
        login: str,
        *,
        role: Role | str = Role.SUBSCRIBER,
        display_name: str = "",
        email: str = "",
    ) -> User:
        """Add a user with a role."""
        self._require_admin()
        login = read_name(login, field="login", example=_EXAMPLE)
        problem = login_problem(login)
        if problem is not None:
            raise InvalidParameter.one("login", problem)
        if ":" in login:  # new logins only: a restored backup keeps its users as they were
            raise InvalidParameter.one(
                "login",
                "send a login without ':': HTTP Basic ends the login at the first ':', so "
                "such a user could never sign in with a password",
            )
        for field, text in (("display_name", display_name), ("email", email)):
            if not isinstance(text, str) or not clean_text(text):
                raise InvalidParameter.one(field, "send text without NUL characters")
        try:
            role = Role(role)
        except ValueError:
            raise InvalidParameter.one(
                "role", f"send one of {', '.join(r.value for r in Role)}"
            ) from None
        backend = self._ctx.backend
        with backend.transaction():
            taken = next((u for u in backend.list_users() if _same_login(u.login, login)), None)
            if taken is not None:
                raise InvalidParameter.one(
                    "login", f"the login {taken.login!r} is taken; choose another"
                )
            user = User(
                id=backend.reserve_ids("user")[0],
                login=login,
                role=role,
                display_name=display_name or login,
                email=email,
            )
            backend.insert_user(user)
        return user

    def get(self, login: str) -> User:
        """The user with that login, to full access or an administrator, and to a user
        asking for themselves: logins and roles are not public (``list``). Judged before the
        lookup, so a refusal says nothing of whether the login exists."""
        me = self._ctx.actor.user
        if me is None or not isinstance(login, str) or not _same_login(login, me.login):
            self._require_admin()
        return self._named(login)

    def _named(self, login: str) -> User:
        """The user with that login, whatever the caller's rights (``Calendar.as_user``
        takes a login: acting as a user is not a right this directory guards)."""
        user = self._find(login)
        if user is None:
            raise NotFound(
                f"There is no user {login!r}.",
                code="user-not-found",
                fields={"login": "send an existing login"},
            )
        return user

    def _find(self, login: object) -> User | None:
        """The user with that login, ``None`` when there is none.

        The login is read first (``validation.read_name``: a login that is not text is an
        ``InvalidParameter`` naming ``login``), so every backend answers alike: a database
        asked for a number as a login fails in its own way. A text no login holds (with a
        NUL character, which ``create`` refuses and PostgreSQL cannot take) names nobody.
        """
        login = read_name(login, field="login", example=_EXAMPLE)
        if not clean_text(login):
            return None
        backend = self._ctx.backend
        exact = backend.find_user(login)
        if exact is not None:
            return exact
        alike = [u for u in backend.list_users() if _same_login(u.login, login)]
        return alike[0] if len(alike) == 1 else None  # two (an older calendar's): neither

    def list(self) -> list[User]:
        """Every user, to full access or an administrator only: logins and roles are not public."""
        self._require_admin()
        return self._ctx.backend.list_users()

    def remove(self, login: str) -> User:
        """Delete a user and every secret issued to them."""
        self._require_admin()
        user = self.get(login)
        self._ctx.backend.remove_user(user.id)
        return user

    def issue_password(self, login: str, *, label: str = "") -> str:
        """A new application password for HTTP Basic authentication; shown only now."""
        raw = "".join(secrets.choice(_ALPHABET) for _ in range(24))
        self._store(login, "password", raw, label)
        return " ".join(raw[i : i + 4] for i in range(0, 24, 4))

    def issue_token(self, login: str, *, label: str = "") -> str:
        """A new bearer token (``Authorization: Bearer <token>``); shown only now."""
        raw = _TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._store(login, "token", raw, label)
        return raw

    def _store(self, login: str, kind: Literal["password", "token"], raw: str, label: str) -> None:
        self._require_admin()
        user = self.get(login)
        backend = self._ctx.backend
        with backend.transaction():
            backend.insert_credential(
                Credential(
                    id=backend.reserve_ids("credential")[0],
                    user_id=user.id,
                    kind=kind,
                    secret_hash=_digest(raw),
                    label=label,
                    created=self._ctx.now(),
                )
            )

    def verify_password(self, login: str, password: str) -> User:
        """The user whose login and application password these are."""
        if not isinstance(password, str):
            raise InvalidParameter.one("password", "send the application password as text")
        login = read_name(login, field="login", example=_EXAMPLE)
        backend = self._ctx.backend
        credential = backend.find_credential(_digest("".join(password.split())))
        user = None if credential is None else backend.get_user(credential.user_id)
        if (
            credential is None
            or user is None
            or credential.kind != "password"
            or not _same_login(user.login, login)
        ):
            raise AuthenticationFailed(
                "The login or application password is not valid.", code="incorrect_password"
            )
        return user

    def verify_token(self, token: str) -> User:
        """The user a bearer token was issued to."""
        credential = self._ctx.backend.find_credential(_digest(token.strip()))
        user = None if credential is None else self._ctx.backend.get_user(credential.user_id)
        if credential is None or user is None or credential.kind != "token":
            raise AuthenticationFailed("The bearer token is not valid.", code="invalid_token")
        return user
