"""Date renderings only the wire needs: the reference's ``*_date_details`` objects and the
ISO 8601 form its JSON-LD states. They live in the adapter, once; the core's dates module keeps
the parsing, zones and day rounding every caller needs.
"""

from __future__ import annotations

from datetime import datetime, timezone

from ..dates import OffsetZone

__all__ = ["date_details", "stated_isoformat"]


def date_details(dt: datetime) -> dict[str, str]:
    """The reference's ``*_date_details`` object: zero-padded strings of the wall clock."""
    return {
        "year": f"{dt.year:04d}",
        "month": f"{dt.month:02d}",
        "day": f"{dt.day:02d}",
        "hour": f"{dt.hour:02d}",
        "minutes": f"{dt.minute:02d}",
        "seconds": f"{dt.second:02d}",
    }


def stated_isoformat(dt: datetime) -> str:
    """ISO 8601 with the offset the zone's name states: an event at "UTC+2" shows "+02:00" all
    year in places the reference renders from the name (its JSON-LD)."""
    tz = dt.tzinfo
    if isinstance(tz, OffsetZone):
        return dt.replace(tzinfo=timezone(tz.nominal, tz.label)).isoformat()
    return dt.isoformat()
