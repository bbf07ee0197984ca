"""How an event list filtered by venue, organizer, category or tag reads its links, chosen
from how many links the filter's ids have.

A filter's events are found one of three ways (``compiler._linked_to`` writes each):

- ``drive``: read the links first, look each linked event up by id, sort the few found. Costs
  one lookup per link, whatever the window: right for rare links (two small venues in a
  two-year window: 0.2 ms, where walking the window took 23 ms at a million events).
- ``list``: collect the linked ids into a list, then walk the date index and keep the events
  in the list. Collecting is a cheap sequential read, checking a walked event cheaper still.
- ``probe``: walk the date index and look each event up in the link table's primary key,
  stopping when the page is full. Nothing is collected: right when links are common (a
  category with its sub-categories has 300,000 links at a million events; collecting them
  took 60 ms, a month's page by probes 0.5 ms).

SQLite's planner cannot weigh these (it knows no link counts), so the store counts links,
capped at ``RARE_LINKS`` (a fraction of a millisecond), and ``choose`` compares rough costs.
The walk a page needs is estimated as if links were spread evenly over the events. Costs are
in lookups by id; the weights were measured on a 1M-event SQLite file, a probe counted at its
cost after a write empties the page cache. Other databases get the same plans; PostgreSQL
reads the ``drive`` form as a plain join and still picks its own order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

__all__ = ["RARE_LINKS", "Plan", "choose"]

Plan = Literal["drive", "list", "probe"]

#: Links counted at most (a count past it stops): more than this are never read first or
#: collected, so they are probed.
RARE_LINKS = 16_384
#: Relative costs, in lookups of an event by id (``drive`` costs one per link).
_COLLECT = 0.2  # one linked id read into the list
_CHECK = 0.1  # one walked event checked against the list
_PROBE = 2.5  # one walked event looked up in the link table


def choose(
    links: Mapping[str, int], events: int, wanted: int | None, *, rare: int = RARE_LINKS
) -> dict[str, Plan]:
    """The plan of each link filter: ``links`` maps each filter to its link count (capped
    just past ``rare``), ``events`` is about how many events there are, ``wanted`` how many
    rows the walk must find (offset plus page size), None for a count of them all. At most one
    filter is read first or collected; the others are probed on the rows it yields."""
    plans: dict[str, Plan] = dict.fromkeys(links, "probe")
    rarest = min(links, key=lambda field: links[field], default=None)
    if rarest is None or links[rarest] > rare:
        return plans
    count = links[rarest]
    if wanted is None:  # a count walks its whole window: reading the links first is no more
        plans[rarest] = "drive"
        return plans
    walk = min(events, wanted * events / max(count, 1))
    costs: dict[Plan, float] = {
        "drive": count,
        "list": _COLLECT * count + _CHECK * walk,
        "probe": _PROBE * walk,
    }
    plans[rarest] = min(costs, key=lambda plan: costs[plan])
    return plans
