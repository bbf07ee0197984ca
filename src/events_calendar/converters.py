"""Converting records to and from plain data, one converter per representation.

``make_storage_converter()`` builds the converter storage backends use. Its choices:

- datetimes become ISO 8601 strings with their UTC offset, so an instant is never ambiguous;
  an event's wall-clock dates are re-attached to its IANA zone on the way back, so
  ``timezone_abbr`` and DST behaviour survive the round trip;
- statuses and roles become their string values;
- link tuples become lists of ids;
- derived fields (``init=False``: UTC copies, ``timezone_abbr``, ``cost_details``) and
  read-time values (term ``count``, event ``locked``) are left out: they are recomputed, never
  stored, so a stored row cannot contradict its source fields.

The wire format of the HTTP adapter is a separate converter, in the adapter.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from .dates import resolve_zone
from .records import RECORD_CLASSES, Credential, Event, User

__all__ = ["NOT_STORED", "make_storage_converter", "stored_fields"]

#: Fields that hold read-time values rather than stored facts.
NOT_STORED = frozenset({"count", "locked"})


def stored_fields(cls: type) -> list[str]:
    """The names of the fields a backend stores for a record class, in declaration order."""
    return [f.name for f in attrs.fields(cls) if f.init and f.name not in NOT_STORED]


def make_storage_converter(*, strict_text: bool = False) -> cattrs.Converter:
    """A converter between records and dicts of JSON-compatible values.

    ``strict_text``: a text field must be given text. cattrs makes text of anything
    (``None`` becomes ``"None"``), which a database's own rows never need; a file written
    elsewhere does (``io.backup``)."""
    converter = cattrs.Converter()
    if strict_text:
        converter.register_structure_hook(str, _text)
    converter.register_unstructure_hook(datetime, lambda dt: dt.isoformat())
    converter.register_structure_hook(datetime, lambda value, _: _read_datetime(value))
    for cls in (*RECORD_CLASSES.values(), User, Credential):
        omitted: dict[str, Any] = {
            f.name: override(omit=True)
            for f in attrs.fields(cls)
            if not f.init or f.name in NOT_STORED
        }
        converter.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, converter, **omitted)
        )
    structure_event = make_dict_structure_fn(Event, converter)

    def event_in_its_zone(data: dict[str, Any], _: type) -> Event:
        zone = resolve_zone(data["timezone"])
        data = dict(data)
        for name in ("start_date", "end_date"):
            data[name] = _read_datetime(data[name]).astimezone(zone)
        return structure_event(data, Event)

    converter.register_structure_hook(Event, event_in_its_zone)
    return converter


def _text(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} where a text goes")
    return value


def _read_datetime(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))
