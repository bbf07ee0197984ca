"""Who a request acts for: HTTP Basic with an application password, or a bearer token."""

from __future__ import annotations

import base64

from starlette.requests import Request

from ..calendar import Calendar
from ..errors import AuthenticationFailed
from ..records import User

__all__ = ["SIGNED_IN", "authenticate", "basic_credentials"]

#: The key a request's ASGI scope gets, ``True``, once its credentials are verified: what the
#: sign-in throttle (``throttle.SignInThrottle``) counts as a sign-in, not the status of the
#: answer (a 404 or a 413 is answered before credentials are read).
SIGNED_IN = "events_calendar.signed_in"


def basic_credentials(value: str) -> tuple[str, str] | None:
    """The login and password of ``Basic`` credentials (what follows the scheme), ``None``
    when they cannot be read: not base64 (non-ASCII characters included: a header's bytes
    reach us as Latin-1), or not UTF-8 once decoded."""
    try:
        login, _, password = base64.b64decode(value.strip()).decode().partition(":")
    except ValueError:  # binascii.Error, UnicodeDecodeError and a non-ASCII str alike
        return None
    return login, password


def authenticate(calendar: Calendar, request: Request) -> User | None:
    """The signed-in user, ``None`` for an anonymous request; bad credentials raise."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    scheme = scheme.lower()
    if not header:
        return None
    if scheme == "bearer" and value.strip():
        user = calendar.users.verify_token(value.strip())
    elif scheme == "basic":
        credentials = basic_credentials(value)
        if credentials is None:
            raise AuthenticationFailed(
                "The Authorization header is not valid Basic credentials.",
                code="incorrect_password",
            )
        user = calendar.users.verify_password(*credentials)
    else:
        raise _unknown_scheme()
    request.scope[SIGNED_IN] = True
    return user


def _unknown_scheme() -> AuthenticationFailed:
    return AuthenticationFailed(
        "Send 'Authorization: Basic <login:application password>' or "
        "'Authorization: Bearer <token>'.",
        code="invalid_auth_scheme",
    )
