"""``ec.Settings`` and ``settings=``: a bad setting is the library's own error, naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"per_page": 0}, "per_page"),
        ({"max_per_page": -1}, "max_per_page"),
        ({"bulk_batch_size": 0}, "bulk_batch_size"),
        ({"per_page": "10"}, "per_page"),
        ({"per_page": True}, "per_page"),
        ({"per_page": 2.5}, "per_page"),
        ({"timezone": 5}, "timezone"),
        ({"currency_symbol": None}, "currency_symbol"),
        ({"currency_position": "before"}, "currency_position"),
    ],
)
def test_a_bad_setting_is_an_invalid_parameter_naming_it(
    fields: dict[str, Any], named: str
) -> None:
    """It was a bare ``ValueError`` for 0, a ``TypeError`` for ``"10"``, and nothing at all
    for a float, a bool or an unknown currency position."""
    with pytest.raises(InvalidParameter) as info:
        ec.Settings(**fields)
    assert [named] == list(info.value.fields)


def test_settings_may_be_a_mapping_of_its_fields() -> None:
    cal = ec.connect("memory://", settings={"timezone": "Europe/Paris", "per_page": 3})
    assert ("Europe/Paris", 3) == (cal.settings.timezone, cal.settings.per_page)


@pytest.mark.parametrize(
    ("settings", "named"),
    [({"time_zone": "Europe/Paris"}, ["time_zone"]), ("Europe/Paris", ["settings"])],
)
def test_bad_settings_open_nothing(tmp_path: Path, settings: object, named: list[str]) -> None:
    """An unknown field, or what is neither settings nor a mapping, is refused before the
    database is opened: no file is made (``AttributeError`` on a dict, before)."""
    path = tmp_path / "never.db"
    with pytest.raises(InvalidParameter) as info:
        ec.connect(f"sqlite:///{path}", settings=settings)  # type: ignore[arg-type]
    assert (named, False) == (list(info.value.fields), path.exists())
