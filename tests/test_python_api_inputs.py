"""Inputs of the Python API that every backend must read alike: missing items of list
filters, ids given as whole floats or numpy integers, logins that are not text, flags read
strictly. Each example runs on memory, SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import events_calendar as ec
from events_calendar.errors import (
    AuthenticationFailed,
    InvalidParameter,
    MissingParameter,
    NotFound,
)
from sql_backends import CALENDAR_KINDS, calendar_url

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
WHOLE_YEAR = {"start_date": "2031-01-01", "end_date": "2031-12-31"}


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    calendar = ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _event(cal: ec.Calendar, title: str = "Talk", **fields: object) -> ec.Event:
    return cal.events.create(
        title=title, start_date="2031-05-01 18:00", end_date="2031-05-01 19:00", **fields
    )


def _titles(cal: ec.Calendar, **filters: object) -> list[str]:
    return sorted(e.title for e in cal.events.list(**WHOLE_YEAR, **filters).items)


# -- a missing item of a list filter is an item not given ------------------------------------


@pytest.mark.parametrize("missing", [None, float("nan"), pd.NA])
@pytest.mark.parametrize("field", ["categories", "tags"])
def test_a_missing_item_of_a_term_filter_is_left_out(
    cal: ec.Calendar, field: str, missing: object
) -> None:
    _event(cal, "Gig", **{field: ["Music"]})
    _event(cal, "Other", **{field: ["None"]})  # a term named "None" is not what a gap means
    _event(cal, "Plain")
    assert _titles(cal, **{field: ["Music", missing]}) == ["Gig"]
    assert _titles(cal, **{field: [missing]}) == ["Gig", "Other", "Plain"]  # not given


def test_a_gap_in_a_term_filter_is_no_unknown_term(cal: ec.Calendar) -> None:
    music = cal.categories.create(name="Music")
    _event(cal, "Gig", categories=[music.id])
    ids = pd.Series([music.id, None]).astype("float64")
    assert _titles(cal, categories=ids) == ["Gig"]
    assert [e.title for e in cal.events.iter(**WHOLE_YEAR, categories=ids)] == ["Gig"]


@pytest.mark.parametrize("field", ["venue", "organizer"])
def test_a_missing_id_in_a_linked_filter_is_left_out(cal: ec.Calendar, field: str) -> None:
    collection = cal.venues if field == "venue" else cal.organizers
    linked = collection.create(**{field: "Hall"})
    _event(cal, "Here", **{field: [linked.id]})
    _event(cal, "Elsewhere")
    ids = pd.Series([linked.id, None]).astype("float64")
    assert _titles(cal, **{field: ids}) == ["Here"]  # as create reads the same list
    assert _titles(cal, **{field: [np.nan]}) == ["Elsewhere", "Here"]  # not given
    assert list(cal.events.to_dataframe(**WHOLE_YEAR, **{field: ids})["title"]) == ["Here"]
    assert cal.events.update_many({**WHOLE_YEAR, field: ids}, featured=True)
    assert [e.title for e in cal.events.list(**WHOLE_YEAR, featured=True).items] == ["Here"]


def test_an_empty_list_filter_is_still_refused(cal: ec.Calendar) -> None:
    with pytest.raises(InvalidParameter) as caught:
        cal.events.list(venue=[])
    assert "venue" in caught.value.fields


# -- ids are read alike wherever they are taken ----------------------------------------------

WHOLE_IDS = [float, np.int64, np.int32, np.float64, str]


@pytest.mark.parametrize("wrap", WHOLE_IDS)
@pytest.mark.parametrize("kind", ["events", "venues", "organizers"])
def test_may_edit_reads_an_id_as_get_does(cal: ec.Calendar, kind: str, wrap: type) -> None:
    collection = getattr(cal, kind)
    record = _event(cal) if kind == "events" else collection.create(**{kind[:-1]: "Hall"})
    assert collection.get(wrap(record.id)).id == record.id
    assert collection.may_edit(wrap(record.id)) is True
    assert cal.as_user(None).events.may_edit(wrap(record.id)) is False  # anonymous


@pytest.mark.parametrize("value", [2.5, True, None, float("nan"), pd.NA, "x", 0, -1, 2**70])
def test_may_edit_answers_false_for_what_names_no_record(cal: ec.Calendar, value: object) -> None:
    _event(cal)
    assert cal.events.may_edit(value) is False


@pytest.mark.parametrize("kind", ["categories", "tags"])
@pytest.mark.parametrize("wrap", [np.int64, np.int32, float])
def test_ids_for_reads_numpy_and_whole_float_ids(cal: ec.Calendar, kind: str, wrap: type) -> None:
    terms = getattr(cal, kind)
    music = terms.create(name="Music")
    with cal.transaction():
        ids = terms.ids_for([wrap(music.id), "Music", "Jazz"])
    assert ids[0] == music.id
    assert type(ids[0]) is int
    assert len(ids) == 2  # the same term once; "Jazz" created
    assert terms.get(ids[1]).name == "Jazz"


def test_ids_for_refuses_an_id_that_is_no_whole_number(cal: ec.Calendar) -> None:
    with pytest.raises(InvalidParameter) as caught:
        cal.tags.ids_for(["Music", 2.5])
    assert list(caught.value.fields) == ["items[1]"]


# -- a login is text, on every backend -------------------------------------------------------

LOGIN_CALLS = {
    "get": lambda users, login: users.get(login),
    "remove": lambda users, login: users.remove(login),
    "issue_password": lambda users, login: users.issue_password(login),
    "issue_token": lambda users, login: users.issue_token(login),
    "verify_password": lambda users, login: users.verify_password(login, "abcd efgh"),
    "create": lambda users, login: users.create(login),
}


@pytest.mark.parametrize("login", [5, np.int64(5), 5.0, b"ann", ["ann"]])
@pytest.mark.parametrize("call", sorted(LOGIN_CALLS))
def test_a_login_that_is_not_text_is_refused_alike(
    cal: ec.Calendar, call: str, login: object
) -> None:
    cal.users.create("5")
    with pytest.raises(InvalidParameter) as caught:
        LOGIN_CALLS[call](cal.users, login)
    assert list(caught.value.fields) == ["login"]


@pytest.mark.parametrize("call", sorted(LOGIN_CALLS))
def test_a_missing_login_is_missing(cal: ec.Calendar, call: str) -> None:
    with pytest.raises(MissingParameter) as caught:
        LOGIN_CALLS[call](cal.users, pd.NA)
    assert list(caught.value.fields) == ["login"]


def test_a_login_with_a_nul_character_names_nobody(cal: ec.Calendar) -> None:
    ann = cal.users.create("ann")
    password = cal.users.issue_password("ann")
    with pytest.raises(NotFound):
        cal.users.get("ann\x00")
    with pytest.raises(AuthenticationFailed):
        cal.users.verify_password("ann\x00", password)
    with pytest.raises(InvalidParameter) as caught:
        cal.users.create("bob\x00")
    assert list(caught.value.fields) == ["login"]
    assert cal.users.verify_password(np.str_("ann"), password) == ann


# -- yes-or-no arguments are read strictly ---------------------------------------------------

NOT_FLAGS = ["false ", "no", "yes", "", None, pd.NA, float("nan"), 2, [True]]
ONE_ROW = [{"title": "Talk", "start_date": "2031-05-01 18:00", "end_date": "2031-05-01 19:00"}]


@pytest.mark.parametrize("atomic", NOT_FLAGS)
def test_bulk_create_reads_atomic_strictly(cal: ec.Calendar, atomic: object) -> None:
    with pytest.raises(InvalidParameter) as caught:
        cal.events.bulk_create(ONE_ROW, atomic=atomic)  # type: ignore[arg-type]
    assert caught.value.fields == {"atomic": "send true or false (or 1 or 0)"}
    assert caught.value.codes == {"atomic": "invalid_boolean"}
    assert cal.events.list(**WHOLE_YEAR).total == 0


@pytest.mark.parametrize("atomic", ["false", np.bool_(True), 0, "1"])
def test_bulk_create_takes_what_force_takes(cal: ec.Calendar, atomic: object) -> None:
    assert len(cal.events.bulk_create(ONE_ROW, atomic=atomic)) == 1  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["dry_run", "partial"])
@pytest.mark.parametrize("value", ["no", "false ", pd.NA, None])
def test_import_file_reads_its_flags_strictly(
    cal: ec.Calendar, tmp_path: Path, name: str, value: object
) -> None:
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        "Opening,2031-05-01,19:00,22:00\n",
        encoding="utf-8",
    )
    with pytest.raises(InvalidParameter) as caught:
        cal.import_file(path, **{name: value})
    assert list(caught.value.fields) == [name]
    assert cal.events.list(**WHOLE_YEAR).total == 0


def test_import_file_takes_a_flag_as_text(cal: ec.Calendar, tmp_path: Path) -> None:
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        "Opening,2031-05-01,19:00,22:00\n",
        encoding="utf-8",
    )
    assert cal.import_file(path, dry_run="true").dry_run
    assert cal.events.list(**WHOLE_YEAR).total == 0
    assert not cal.import_file(path, dry_run="false").dry_run  # "false" was a dry run
    assert cal.events.list(**WHOLE_YEAR).total == 1


@pytest.mark.parametrize("edit", ["false", "no", None])
def test_get_reads_edit_strictly(cal: ec.Calendar, edit: object) -> None:
    event = _event(cal, password="hunter2")
    if edit == "false":
        assert cal.events.get(event.id, edit=edit).password == "hunter2"  # type: ignore[arg-type]
        return
    with pytest.raises(InvalidParameter) as caught:
        cal.events.get(event.id, edit=edit)  # type: ignore[arg-type]
    assert list(caught.value.fields) == ["edit"]
