"""The event part of the backend contract suite.

Every test goes through the public ``Calendar`` API (``cal.events`` and the collections it links
to), so the same expectations hold whatever stores the records. Expected values come from the
interface spec, DESIGN.md and the reference recordings (``reference/replay/recordings``); the
step a test mirrors is named in its docstring where there is one (``ev_gala``, ``evlist_*`` ...).

The fixed clock stands at ``NOW`` (2026-11-22 10:00 UTC, a Sunday); the calendar's zone is UTC,
10 events per page, at most 50. Dates are compared as wall-clock text (``YYYY-MM-DD HH:MM:SS``),
the way the reference prints them, so a test fails on a wrong zone as well as on a wrong instant.
"""

from __future__ import annotations

from .contract_event_changes import EventChangeContract
from .contract_event_create import EventCreateContract
from .contract_event_create_links import EventCreateLinksContract
from .contract_event_create_rest import EventCreateRestContract
from .contract_event_dates import EventDateContract
from .contract_event_list_filters import EventListFilterContract
from .contract_event_lists import EventListContract
from .contract_event_reads import EventReadContract

__all__ = ["EventContract"]


class EventContract(
    EventCreateContract,
    EventCreateLinksContract,
    EventCreateRestContract,
    EventChangeContract,
    EventDateContract,
    EventReadContract,
    EventListContract,
    EventListFilterContract,
):
    """Events through the ``Calendar`` API: create, read, update, delete, list, bulk loads.

    Split by topic into modules; each part can also run on its own.
    """
