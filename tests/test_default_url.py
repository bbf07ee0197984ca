"""``connect()`` without a URL: ``$EVENTS_CALENDAR_DB``, else ``sqlite:///events.db``."""

from __future__ import annotations

from pathlib import Path

import pytest

import events_calendar as ec


@pytest.mark.parametrize("value", ["", " \t"], ids=["empty", "blank"])
def test_a_blank_environment_variable_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """The variable set but blank names no database: ``InvalidParameter`` naming it, and no
    ``events.db`` made in the working directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVENTS_CALENDAR_DB", value)
    with pytest.raises(ec.errors.InvalidParameter, match="EVENTS_CALENDAR_DB") as refused:
        ec.connect()
    assert (["EVENTS_CALENDAR_DB"], []) == (list(refused.value.fields), list(tmp_path.iterdir()))


def test_the_environment_variable_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Set to a URL, the variable is the database a bare ``connect()`` opens."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVENTS_CALENDAR_DB", f"sqlite:///{tmp_path}/named.db")
    with ec.connect() as cal:
        cal.venues.create(venue="Hall")
    assert ["named.db"] == sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db")


@pytest.mark.parametrize("url", ["", "  "], ids=["empty", "blank"])
def test_an_empty_url_is_refused_not_read_as_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    """``connect("")`` (a setting read as empty) names no database: ``InvalidParameter``
    naming ``url``, and no ``events.db`` made; only ``None`` asks for the default."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    with pytest.raises(ec.errors.InvalidParameter) as refused:
        ec.connect(url)
    assert (["url"], []) == (list(refused.value.fields), list(tmp_path.iterdir()))
