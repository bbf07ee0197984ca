"""The HTTP adapter (extra ``http``): the reference's ``tribe/events/v1`` REST API over a calendar.

    from events_calendar.http import HttpLimits, SignInLimits, create_app
    app = create_app(ec.connect("sqlite:///events.db"))   # any ASGI server can run it

``create_app`` and the limits it takes are imported on first use, so
``events_calendar.http.errors`` (the mapping from errors to statuses, which the backend
contract suite reads) needs no web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .limits import HttpLimits
    from .throttle import SignInLimits

__all__ = ["HttpLimits", "SignInLimits", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "HttpLimits":
        from .limits import HttpLimits

        return HttpLimits
    if name == "SignInLimits":
        from .throttle import SignInLimits

        return SignInLimits
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
