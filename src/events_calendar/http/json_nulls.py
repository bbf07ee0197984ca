"""JSON's ``null`` where the reference's argument check refuses it, before the core reads it.

The Python API reads ``None`` as an empty value, as it reads ``NaN`` and ``NaT`` (issue 10): a
flag is ``False``, a field every record needs is a ``MissingParameter``. Over HTTP the
reference refuses ``null`` for a flag, and on an update for a field every record needs, as not
of the field's type (``rest_invalid_param``); so does this check, for the body's own fields
and for the fields of a venue or organizer given inline, which the core reads the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidParameter
from ..records import Input, Organizer, Record, Venue, input_fields

__all__ = ["refuse_nulls"]

_WHY = "send a value: null is not one here"
_INLINE: dict[Input, type[Venue | Organizer]] = {Input.VENUES: Venue, Input.ORGANIZERS: Organizer}


def refuse_nulls(cls: type[Record], given: Mapping[str, Any], *, by_id: bool) -> None:
    """Raise ``InvalidParameter`` naming each field of ``given`` whose ``null`` the reference
    refuses (an inline record's by the link field it came in)."""
    fields = input_fields(cls)
    refused = dict.fromkeys(_nulls(cls, given, by_id=by_id), _WHY)
    for name, value in given.items():
        linked = _INLINE.get(fields[name].input) if name in fields else None
        if linked is None:
            continue
        inline = [i for i in (value if isinstance(value, list) else [value]) if _new(i)]
        if bad := [n for item in inline for n in _nulls(linked, item, by_id=False)]:
            why = f"inline {linked.kind} data is not valid: {', '.join(bad)}: {_WHY}"
            refused.setdefault(name, why)
    if refused:
        typed = {  # an event's flags are typed REST booleans (``validation._Reader``)
            name: "invalid_boolean"
            for name in refused
            if name in fields and fields[name].input is Input.BOOL and cls.kind == "event"
        }
        raise InvalidParameter(refused, codes=typed)


def _new(item: object) -> bool:
    """Whether a link item is the data of a new record (not an id, not ``{"id": n}``)."""
    return isinstance(item, Mapping) and "id" not in item


def _nulls(cls: type[Record], given: Mapping[str, Any], *, by_id: bool) -> list[str]:
    """The fields of ``given`` sent as ``null`` that may not be: flags, and on an update
    (``by_id``) the fields every record needs."""
    fields = input_fields(cls)
    return [
        name
        for name, value in given.items()
        if value is None
        and name in fields
        and (fields[name].input is Input.BOOL or (by_id and fields[name].required))
    ]
