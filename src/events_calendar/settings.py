"""Calendar-wide settings: the deployment-specific numbers the interface leaves open."""

from __future__ import annotations

import attrs

__all__ = ["Settings"]


def _positive(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 1:
        raise ValueError(f"{attribute.name} must be at least 1, not {value}")


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
    timezone: str = "UTC"
    currency_symbol: str = "$"
    currency_position: str = "prefix"
    #: Events, venues and organizers per transaction in ``bulk_create``.
    bulk_batch_size: int = attrs.field(default=1000, validator=_positive)
