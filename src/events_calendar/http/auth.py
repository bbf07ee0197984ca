"""Who a request acts for: HTTP Basic with an application password, or a bearer token."""

from __future__ import annotations

import base64
import binascii

from starlette.requests import Request

from ..calendar import Calendar
from ..errors import AuthenticationFailed
from ..records import User

__all__ = ["authenticate"]


def authenticate(calendar: Calendar, request: Request) -> User | None:
    """The signed-in user, ``None`` for an anonymous request; bad credentials raise."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    scheme = scheme.lower()
    if not header:
        return None
    if scheme == "bearer" and value.strip():
        return calendar.users.verify_token(value.strip())
    if scheme == "basic":
        try:
            login, _, password = base64.b64decode(value.strip()).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            raise AuthenticationFailed(
                "The Authorization header is not valid Basic credentials.",
                code="incorrect_password",
            ) from None
        return calendar.users.verify_password(login, password)
    raise AuthenticationFailed(
        "Send 'Authorization: Basic <login:application password>' or "
        "'Authorization: Bearer <token>'.",
        code="invalid_auth_scheme",
    )
