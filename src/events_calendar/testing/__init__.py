"""The backend contract suite, shipped so that outside backends can run it too.

    from events_calendar.testing import CalendarContract

    class TestMyBackend(CalendarContract):
        def make_backend(self):
            return MyBackend()

For the differential test against the in-memory reference, see ``testing.differential``.
Importing this package needs pytest; ``import events_calendar`` never imports it.
"""

from __future__ import annotations

import pytest

# Plain asserts in the shipped suite get pytest's detailed failure reports.
pytest.register_assert_rewrite(
    "events_calendar.testing.contract_access",
    "events_calendar.testing.contract_access_base",
    "events_calendar.testing.contract_anonymous",
    "events_calendar.testing.contract_bulk",
    "events_calendar.testing.contract_bulk_changes",
    "events_calendar.testing.contract_iter",
    "events_calendar.testing.contract_linked_changes",
    "events_calendar.testing.contract_linked_create",
    "events_calendar.testing.contract_linked_lists",
    "events_calendar.testing.contract_protected_events",
    "events_calendar.testing.contract_record_base",
    "events_calendar.testing.contract_roles",
    "events_calendar.testing.contract_slugs",
    "events_calendar.testing.contract_term_lists",
    "events_calendar.testing.contract_terms",
    "events_calendar.testing.contract_users",
    "events_calendar.testing.contract_visibility",
    "events_calendar.testing.contract_event_base",
    "events_calendar.testing.contract_event_changes",
    "events_calendar.testing.contract_event_create",
    "events_calendar.testing.contract_event_create_links",
    "events_calendar.testing.contract_event_create_rest",
    "events_calendar.testing.contract_event_list_filters",
    "events_calendar.testing.contract_event_reads",
    "events_calendar.testing.contract_event_lists",
    "events_calendar.testing.contract_events",
    "events_calendar.testing.contract_read_rules",
    "events_calendar.testing.contract_records",
    "events_calendar.testing.contract_storage",
    "events_calendar.testing.differential",
    "events_calendar.testing.contract_import_keys",
    "events_calendar.testing.contract_trash_slugs",
)

from .base import NOW, ContractBase  # noqa: E402
from .contract_access import AccessContract  # noqa: E402
from .contract_bulk import BulkContract  # noqa: E402
from .contract_bulk_changes import BulkChangesContract  # noqa: E402
from .contract_events import EventContract  # noqa: E402
from .contract_import_keys import ImportKeysContract  # noqa: E402
from .contract_iter import IterContract  # noqa: E402
from .contract_read_rules import ReadRulesContract  # noqa: E402
from .contract_records import RecordContract  # noqa: E402
from .contract_slugs import SlugContract  # noqa: E402
from .contract_storage import StorageContract  # noqa: E402
from .contract_trash_slugs import TrashSlugContract  # noqa: E402

__all__ = [
    "NOW",
    "AccessContract",
    "BulkChangesContract",
    "BulkContract",
    "CalendarContract",
    "ContractBase",
    "EventContract",
    "ImportKeysContract",
    "IterContract",
    "ReadRulesContract",
    "RecordContract",
    "SlugContract",
    "StorageContract",
    "TrashSlugContract",
]


class CalendarContract(
    EventContract,
    RecordContract,
    AccessContract,
    ReadRulesContract,
    StorageContract,
    IterContract,
    BulkChangesContract,
    SlugContract,
    TrashSlugContract,
    ImportKeysContract,
    BulkContract,
):
    """Every behaviour a backend must show, through the ``Calendar`` API and below it."""
