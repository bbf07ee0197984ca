"""events_calendar: an embeddable events calendar with pluggable storage.

import events_calendar as ec
cal = ec.connect("memory://")
hall = cal.venues.create(venue="Town Hall", city="Lyon")
"""

from __future__ import annotations

from . import errors
from .calendar import Calendar, connect
from .cost import CostDetails
from .dates import Clock, FixedClock, SystemClock
from .events import Related
from .queries import EventQuery, LinkedQuery, Page, TermQuery
from .records import Category, Event, Organizer, Tag, User, Venue
from .settings import Settings
from .statuses import Role, Status

__all__ = [
    "Calendar",
    "Category",
    "Clock",
    "CostDetails",
    "Event",
    "EventQuery",
    "FixedClock",
    "LinkedQuery",
    "Organizer",
    "Page",
    "Related",
    "Role",
    "Settings",
    "Status",
    "SystemClock",
    "Tag",
    "TermQuery",
    "User",
    "Venue",
    "connect",
    "errors",
]

__version__ = "0.1.0"
