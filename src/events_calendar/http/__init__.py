"""The HTTP adapter (extra ``http``): the reference's ``tribe/events/v1`` REST API over a calendar.

from events_calendar.http import create_app
app = create_app(ec.connect("sqlite:///events.db"))   # any ASGI server can run it
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
