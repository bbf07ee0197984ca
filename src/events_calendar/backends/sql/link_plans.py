"""How an event list filtered by venue, organizer, category or tag reads its links, chosen
from how many ids the filter names and how many links they have.

A filter of one id is read along its link table's listing index (``index``): each link row
keeps its event's listing key (``schema.LISTING_KEY``), so the walk starts at the window and
stops when the page is full, whatever the link's size (at a million events, a venue with
1,776 links took 7-65 ms by the ways below, and a tenth of a millisecond this way). A filter
of several ids (a category with its sub-categories) has no one index in list order; its
events are found one of three ways (``compiler._linked_to`` writes each):

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

from collections.abc import Collection, Mapping
from typing import Literal

from .dialect import SEARCH_SAMPLE

__all__ = ["RARE_LINKS", "Plan", "choose", "choose_search", "choose_search_count"]

Plan = Literal["drive", "index", "list", "probe"]

#: Links counted at most (a count past it stops): more than this are never read first or
#: collected, so they are probed.
RARE_LINKS = 16_384
#: Relative costs, in lookups of an event by id (``drive`` costs one per link).
_COLLECT = 0.2  # one linked id read into the list
_CHECK = 0.1  # one walked event checked against the list
_PROBE = 2.5  # one walked event looked up in the link table


def choose(
    links: Mapping[str, int],
    events: int,
    wanted: int | None,
    *,
    rare: int = RARE_LINKS,
    single: Collection[str] = (),
) -> dict[str, Plan]:
    """The plan of each link filter: ``links`` maps each filter to its link count (capped
    just past ``rare``), ``events`` is about how many events there are, ``wanted`` how many
    rows the walk must find (offset plus page size), None for a count of them all;
    ``single`` names the filters of one id, which can walk their listing index. At most one
    filter drives the walk (``index`` or ``drive``) or is collected; the others are probed on
    the rows it yields."""
    plans: dict[str, Plan] = dict.fromkeys(links, "probe")
    walkable = [field for field in links if field in single]
    if walkable:
        plans[min(walkable, key=lambda field: links[field])] = "index"
        return plans
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


#: Relative costs of a search, in microseconds: a walked event whose folded text is checked
#: (``probe``), and a match the text index lists before the walk (the default plan).
_TEXT_CHECK = 4.5
_LISTED_MATCH = 0.7


def choose_search(found: int, last_id: int, ids: int, wanted: int | None) -> Plan | None:
    """How a search's words are checked: ``probe`` (on each walked event) when they are so
    common that the page is found a few hundred events into the walk, else ``None`` (the
    text index lists every match first). ``found`` matches were sampled up to id ``last_id``
    (``Dialect.search_sample``; fewer than the sample means few matches at all), ``ids`` is
    about how many ids there are, ``wanted`` the rows the walk must find (None: a count,
    which walks everything)."""
    if wanted is None or found < SEARCH_SAMPLE or last_id <= 0:
        return None
    share = found / last_id  # matches per id
    walk = wanted / share
    return "probe" if walk * _TEXT_CHECK < share * ids * _LISTED_MATCH else None


#: Relative costs of a counted search, in microseconds (1M-event SQLite file): an event of the
#: window walked along the listing index and checked against the matches the text index
#: listed (with that list's share), and a match of the text index looked up by id.
_WALKED = 0.27
_MATCH_LISTED = 0.07
_MATCH_LOOKED_UP = 0.9


def choose_search_count(found: int, last_id: int, ids: int, window: int) -> Plan | None:
    """How a search's total is counted: ``drive`` (loop over the text index's matches and look
    each event up) when that is cheaper than walking the ``window``'s events (about how many
    the count's other conditions select) and keeping those the index listed; else ``None``.
    ``found``, ``last_id`` and ``ids`` are as for ``choose_search``. At a million events,
    "jazz" (25,000 matches) in the default window (381,000 events): 104 ms walked, 22 driven."""
    if found < SEARCH_SAMPLE:  # the sample holds every match
        matches: float = found
    elif last_id > 0:
        matches = found / last_id * ids
    else:
        return None
    walked = window * _WALKED + matches * _MATCH_LISTED
    return "drive" if matches * _MATCH_LOOKED_UP < walked else None
