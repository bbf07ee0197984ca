"""Calendar-wide settings: the deployment-specific numbers the interface leaves open."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .errors import InvalidParameter

__all__ = ["Settings", "settings_of"]


def _positive(_: object, attribute: attrs.Attribute[int], value: object) -> None:
    """A whole number of at least 1 (not a bool, not a numeral in text): refused with the
    library's own error naming the setting, as every bad input is (it was a bare
    ``ValueError``, or a ``TypeError`` from the comparison for ``"10"``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidParameter.one(
            attribute.name, f"send a whole number of at least 1, not {value!r}"
        )


def _text(_: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str):
        raise InvalidParameter.one(attribute.name, f"send text, not {value!r}")


def _position(_: object, attribute: attrs.Attribute[str], value: object) -> None:
    if value not in ("prefix", "suffix"):
        raise InvalidParameter.one(attribute.name, f"send 'prefix' or 'suffix', not {value!r}")


@attrs.frozen(kw_only=True)
class Settings:
    """Settings of one calendar.

    ``per_page`` is the default page size of every list (the reference's stock WordPress value is
    10; sites often configure another), ``max_per_page`` the clamp applied to requested sizes.
    ``timezone`` is the zone naive dates are read in and events without a zone of their own get.
    ``currency_symbol``/``currency_position`` format costs given without a symbol.
    """

    per_page: int = attrs.field(default=10, validator=_positive)
    max_per_page: int = attrs.field(default=50, validator=_positive)
    timezone: str = attrs.field(default="UTC", validator=_text)
    currency_symbol: str = attrs.field(default="$", validator=_text)
    currency_position: str = attrs.field(default="prefix", validator=_position)
    #: Events ``bulk_create`` reads, validates and writes at a time: the rows a load holds
    #: in memory at once. Every batch is in one transaction unless ``atomic=False``,
    #: which commits each batch on its own.
    bulk_batch_size: int = attrs.field(default=1000, validator=_positive)


def settings_of(given: object) -> Settings:
    """``Settings`` from what a caller passed as ``settings=``: ``None`` (the defaults), a
    ``Settings``, or a mapping of its fields (``{"timezone": "Europe/Paris"}``); anything
    else, or a field ``Settings`` does not have, is an ``InvalidParameter`` naming it."""
    if given is None:
        return Settings()
    if isinstance(given, Settings):
        return given
    if not isinstance(given, Mapping):
        raise InvalidParameter.one(
            "settings", f"send ec.Settings(...) or a mapping of its fields, not {given!r}"
        )
    known = [field.name for field in attrs.fields(Settings)]  # in declared order, for the message
    unknown = [str(name) for name in given if name not in known]
    if unknown:
        raise InvalidParameter(
            {
                name: f"Settings has no field {name!r}; send only {', '.join(known)}"
                for name in unknown
            }
        )
    fields: dict[str, Any] = {str(k): v for k, v in given.items()}
    return Settings(**fields)
