"""Backend contract: venues, organizers, categories, tags and their lists.

Every test drives a ``Calendar`` through its public API on the backend a subclass provides
(``make_backend``), with the clock fixed at ``NOW``. Expected values come from the interface spec
(sections 4.3 and 4.4), ``DESIGN.md`` and the reference recordings (The Events Calendar 6.17.1).
A write that fails must leave the calendar exactly as it was; ``snapshot`` captures everything a
full-access caller can list so the tests can say so.
"""

from __future__ import annotations

from .contract_linked_changes import LinkedChangeContract
from .contract_linked_create import LinkedCreateContract
from .contract_linked_lists import LinkedListContract
from .contract_record_base import LINKED_KINDS, TERM_KINDS, links, make_event, snapshot
from .contract_term_lists import TermListContract
from .contract_terms import TermContract

__all__ = ["LINKED_KINDS", "TERM_KINDS", "RecordContract", "links", "make_event", "snapshot"]


class RecordContract(
    LinkedCreateContract, LinkedChangeContract, LinkedListContract, TermContract, TermListContract
):
    """Venues, organizers, categories and tags, one behaviour per test.

    Split by topic into five modules; each part can also run on its own.
    """
