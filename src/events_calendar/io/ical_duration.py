"""DURATION as RFC 5545 (3.3.6) counts it: days and weeks on the wall clock, hours, minutes
and seconds as elapsed time.

``icalendar`` reads ``P1D`` and ``PT24H`` as one ``timedelta`` and adds it on the wall clock,
so an event of 24 hours across the night the clocks go forward lasted 23. ``parse_calendars``
parses with a DURATION type that keeps the text's two parts apart, and ``end_after`` adds
them as the RFC says: the days first, on the start's wall clock, then the time as elapsed
time. Imported only by ``ical_read`` (it needs the ``io`` extra).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import icalendar
from icalendar.prop import TypesFactory, vDDDTypes, vDuration

from ..dates import on_wall_clock

__all__ = ["end_after", "parse_calendars"]


@attrs.frozen
class _Parts:
    """A DURATION's nominal part (days and weeks) and exact part (hours, minutes, seconds);
    not a tuple, which ``vDDDTypes`` would take for a PERIOD."""

    nominal: timedelta
    exact: timedelta


class _Duration(vDDDTypes):
    """A DURATION property that remembers how much of it is days and how much is time."""

    parts: _Parts | None

    def __init__(self, dt: Any, params: dict[str, Any] | None = None) -> None:
        parts = dt if isinstance(dt, _Parts) else None
        super().__init__(parts.nominal + parts.exact if parts else dt, params)
        self.parts = parts

    @classmethod
    def from_ical(cls, ical: Any, timezone: Any = None) -> Any:
        value = super().from_ical(ical, timezone)  # type: ignore[no-untyped-call]
        if not isinstance(value, timedelta) or not isinstance(ical, str):
            return value
        days = ical.upper().split("T")[0]  # "P1W2D" of "P1W2DT3H", "-P" of "-PT3H"
        if days.lstrip("+-") == "P":
            return _Parts(timedelta(0), value)
        nominal: timedelta = vDuration.from_ical(days)  # type: ignore[no-untyped-call]
        return _Parts(nominal, value - nominal)


class _Types(TypesFactory):
    """icalendar's value types, with DURATION read by ``_Duration``."""

    def for_property(self, name: str, value_param: str | None = None) -> type:
        if name.upper() == "DURATION" and value_param in (None, "DURATION"):
            return _Duration
        found: type = super().for_property(name, value_param)
        return found


class _Calendar(icalendar.Calendar):
    """Parses as ``icalendar.Calendar`` does, with ``_Types`` (the components it gives are
    icalendar's own)."""

    types_factory = _Types()


def parse_calendars(text: str) -> list[icalendar.Component]:
    """``icalendar.Calendar.from_ical(text, multiple=True)``, DURATION kept in its parts."""
    return list(_Calendar.from_ical(text, multiple=True))


def end_after(start: datetime, duration: Any) -> datetime:
    """The end of an event that starts at ``start`` and lasts the DURATION property
    ``duration``: its days on ``start``'s wall clock (a time in a DST gap moves forward),
    then its hours, minutes and seconds as elapsed time. A floating ``start`` has no clock
    change to count."""
    parts = getattr(duration, "parts", None)
    if not isinstance(parts, _Parts):  # not read by ``parse_calendars``: all wall clock
        parts = _Parts(duration.dt, timedelta(0))
    zone = start.tzinfo
    if zone is None:
        return start + parts.nominal + parts.exact
    wall = on_wall_clock(start + parts.nominal, zone) if parts.nominal else start
    return (wall.astimezone(UTC) + parts.exact).astimezone(zone)
