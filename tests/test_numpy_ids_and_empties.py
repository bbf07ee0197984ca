"""numpy and pandas ids, whole floats and missing values in the Python API, by example.

pandas turns an integer column with a missing value into ``float64`` (``[1.0, nan]``), and
arrays and Series yield numpy scalars: ids arrive as ``np.int64``, ``np.int32``, ``1.0`` or
``pd.NA``. Each is read as the id it stands for, wherever an id is taken; a missing value
(``NaN``, ``NaT``, ``pd.NA``) for a field every record needs is a ``MissingParameter`` naming
it, on update as on create.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter, MissingParameter

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
WHOLE_YEAR = {"start_date": "2031-01-01", "end_date": "2031-12-31"}


@pytest.fixture(params=["memory://", "sqlite://"])
def cal(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    calendar = ec.connect(request.param, clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _event(cal: ec.Calendar, title: str = "Talk", **fields: object) -> ec.Event:
    return cal.events.create(
        title=title, start_date="2031-05-01 18:00", end_date="2031-05-01 19:00", **fields
    )


# -- bulk changes take numpy ids ------------------------------------------------------------


@pytest.mark.parametrize(
    "wrap",
    [
        lambda ids: [np.int64(i) for i in ids],
        lambda ids: tuple(np.int32(i) for i in ids),
        np.array,
        lambda ids: pd.Series(ids, dtype="Int64"),
    ],
    ids=["list-of-int64", "tuple-of-int32", "array", "nullable-series"],
)
def test_update_many_takes_numpy_ids(cal: ec.Calendar, wrap: object) -> None:
    """``update_many`` reads numpy and pandas ids as the ids they hold."""
    ids = [_event(cal, "A").id, _event(cal, "B").id]
    updated = cal.events.update_many(wrap(ids), featured=True)  # type: ignore[operator]
    assert [(i, True) for i in ids] == [(e.id, e.featured) for e in updated]


def test_delete_many_takes_a_numpy_array(cal: ec.Calendar) -> None:
    """``delete_many(np.array([...]))`` trashes the events those ids name."""
    event = _event(cal)
    assert [event.id] == cal.events.delete_many(np.array([event.id]))


def test_venues_update_many_takes_numpy_ids(cal: ec.Calendar) -> None:
    """Venues (and organizers) take numpy ids in bulk changes too."""
    hall = cal.venues.create(venue="Hall")
    assert ["Lyon"] == [v.city for v in cal.venues.update_many([np.int64(hall.id)], city="Lyon")]


@pytest.mark.parametrize("collection", ["tags", "categories"])
def test_term_delete_many_takes_numpy_ids(cal: ec.Calendar, collection: str) -> None:
    """``tags.delete_many`` and ``categories.delete_many`` take numpy ids."""
    terms = getattr(cal, collection)
    term = terms.create(name="Free")
    assert [term.id] == terms.delete_many(np.array([term.id]))


def test_a_missing_id_in_bulk_ids_is_named_missing(cal: ec.Calendar) -> None:
    """``pd.NA`` among the ids is a missing id, named by its position."""
    event = _event(cal)
    with pytest.raises(MissingParameter) as caught:
        cal.events.update_many(pd.Series([event.id, None], dtype="Int64"), featured=True)
    assert ["ids[1]"] == list(caught.value.fields)


# -- whole floats are ids ---------------------------------------------------------------------


def test_update_many_takes_a_float_series(cal: ec.Calendar) -> None:
    """``pd.Series([1.0, 2.0])`` names the events 1 and 2."""
    ids = [_event(cal, "A").id, _event(cal, "B").id]
    updated = cal.events.update_many(pd.Series([float(i) for i in ids]), featured=True)
    assert ids == [e.id for e in updated]


def test_a_float_venue_with_nan_links_the_venue(cal: ec.Calendar) -> None:
    """``venue=[1.0, nan]``, an integer column with a gap, links venue 1 and nothing else."""
    hall = cal.venues.create(venue="Hall")
    assert (hall.id,) == _event(cal, venue=[float(hall.id), np.nan]).venue


def test_float_term_ids_name_terms(cal: ec.Calendar) -> None:
    """Whole floats name categories and tags too."""
    music = cal.categories.create(name="Music")
    assert (music.id,) == _event(cal, categories=np.array([music.id], dtype=float)).categories


def test_get_takes_a_numpy_float_id(cal: ec.Calendar) -> None:
    """``get(np.float64(3.0))`` is ``get(3)``."""
    event = _event(cal)
    assert event == cal.events.get(np.float64(event.id))


def test_list_filters_take_float_ids(cal: ec.Calendar) -> None:
    """A list filter of whole floats names the same records as the integers."""
    hall = cal.venues.create(venue="Hall")
    event = _event(cal, venue=[hall.id])
    page = cal.events.list(venue=pd.Series([float(hall.id)]), **WHOLE_YEAR)
    assert [event.id] == [e.id for e in page]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda cal: cal.events.get(1.5), "id"),
        (lambda cal: cal.events.update_many([1.5], featured=True), "ids[0]"),
        (lambda cal: _event(cal, venue=[1.5]), "venue"),
        (lambda cal: _event(cal, categories=[np.float64(1.5)]), "categories"),
    ],
    ids=["get", "update_many", "venue", "categories"],
)
def test_a_fractional_id_is_invalid(cal: ec.Calendar, call: object, field: str) -> None:
    """``1.5`` names no record: ``InvalidParameter`` naming the field."""
    cal.venues.create(venue="Hall")
    with pytest.raises(InvalidParameter) as caught:
        call(cal)  # type: ignore[operator]
    assert [field] == list(caught.value.fields)


# -- missing values for required fields on update ---------------------------------------------


@pytest.mark.parametrize("empty", [pd.NaT, np.nan, pd.NA, np.datetime64("NaT")])
@pytest.mark.parametrize("field", ["title", "start_date", "end_date"])
def test_updating_a_required_field_to_missing_names_it(
    cal: ec.Calendar, field: str, empty: object
) -> None:
    """``update(id, start_date=pd.NaT)`` is ``MissingParameter`` for start_date, as create."""
    event = _event(cal)
    with pytest.raises(MissingParameter) as caught:
        cal.events.update(event.id, **{field: empty})
    assert [field] == list(caught.value.fields)


def test_update_many_to_a_missing_start_names_it(cal: ec.Calendar) -> None:
    """``update_many(ids, start_date=pd.NaT)`` is ``MissingParameter``; nothing changes."""
    event = _event(cal)
    with pytest.raises(MissingParameter) as caught:
        cal.events.update_many([event.id], start_date=pd.NaT, featured=True)
    assert (["start_date"], False) == (list(caught.value.fields), cal.events.get(event.id).featured)


def test_renaming_a_venue_to_nan_names_the_name_missing(cal: ec.Calendar) -> None:
    """A venue's name set to ``NaN`` is missing, as on create."""
    hall = cal.venues.create(venue="Hall")
    with pytest.raises(MissingParameter) as caught:
        cal.venues.update(hall.id, venue=np.nan)
    assert ["venue"] == list(caught.value.fields)


@pytest.mark.parametrize("collection", ["tags", "categories"])
def test_renaming_a_term_to_nan_names_the_name_missing(cal: ec.Calendar, collection: str) -> None:
    """A term's name set to ``NaN`` is missing, as on create."""
    term = getattr(cal, collection).create(name="Free")
    with pytest.raises(MissingParameter) as caught:
        getattr(cal, collection).update(term.id, name=np.nan)
    assert ["name"] == list(caught.value.fields)


def test_a_missing_optional_field_clears_it(cal: ec.Calendar) -> None:
    """A missing value for a field records may lack clears it, as ``None`` does."""
    event = _event(cal, description="Bring a friend")
    assert "" == cal.events.update(event.id, description=np.nan).description


@pytest.mark.parametrize("field", ["title", "start_date", "end_date"])
def test_none_for_a_required_field_on_update_is_missing(cal: ec.Calendar, field: str) -> None:
    """``None`` means "empty", as ``NaN`` and ``NaT`` do (issue 10): for a field every event
    needs, a ``MissingParameter`` naming it, and nothing changes."""
    event = _event(cal)
    with pytest.raises(MissingParameter) as caught:
        cal.events.update(event.id, **{field: None})
    assert ([field], event) == (list(caught.value.fields), cal.events.get(event.id))


def test_json_null_for_a_required_field_on_update_is_the_references_400() -> None:
    """Over HTTP, ``"title": null`` in an update keeps the reference's answer: a 400
    ``rest_invalid_param`` naming the field (its arguments' type check)."""
    from http_helpers import Site

    site = Site()
    made = site.event(title="A", start_date="2031-05-01 10:00", end_date="2031-05-01 11:00")
    answer = site.post(f"/events/{made['id']}", as_="admin", json={"title": None})
    assert (400, "rest_invalid_param", {"title": "Invalid parameter."}) == (
        answer.status_code,
        answer.json()["code"],
        answer.json()["data"]["params"],
    )


# -- iteration's own arguments -----------------------------------------------------------------


def test_iter_takes_a_numpy_batch_size_and_progress(
    cal: ec.Calendar, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batch_size=np.int64(1)`` reads one event a batch; ``progress=np.bool_(True)`` draws
    the bar ``True`` draws, ``np.bool_(False)`` none."""
    made = [_event(cal, f"E{n}").id for n in range(3)]
    done: list[int] = []
    every = cal.events.iter(
        batch_size=np.int64(1), progress=lambda d, _: done.append(d), **WHOLE_YEAR
    )
    assert (made, [1, 2, 3]) == ([e.id for e in every], done)
    quiet = [e.id for e in cal.events.iter(progress=np.bool_(False), **WHOLE_YEAR)]
    assert (made, "") == (quiet, capsys.readouterr().err)
    shown = [e.id for e in cal.events.iter(progress=np.bool_(True), **WHOLE_YEAR)]
    assert (made, True) == (shown, "3.00 events" in capsys.readouterr().err)


def test_a_progress_that_is_no_flag_and_no_callable_is_invalid(cal: ec.Calendar) -> None:
    """``progress="yes"`` is refused when ``iter`` is called, with the field named."""
    with pytest.raises(InvalidParameter) as caught:
        cal.events.iter(progress="yes")  # type: ignore[arg-type]
    assert ["progress"] == list(caught.value.fields)


@pytest.mark.parametrize("empty", [None, np.nan, pd.NA])
def test_an_empty_flag_is_false(cal: ec.Calendar, empty: object) -> None:
    """A flag given as ``None``, ``NaN`` or ``pd.NA`` (a DataFrame cell with no value) is
    empty, which for a yes-or-no is no: on create and on update (it was refused)."""
    event = _event(cal, featured=empty, all_day=empty)
    flagged = cal.events.update(event.id, featured=True, sticky=True)
    cleared = cal.events.update(event.id, featured=empty, sticky=empty)
    venue = cal.venues.create(venue="Hall", show_map=empty)
    assert ((False, False), (True, True), (False, False), False) == (
        (event.featured, event.all_day),
        (flagged.featured, flagged.sticky),
        (cleared.featured, cleared.sticky),
        venue.show_map,
    )


def test_json_null_for_a_flag_is_the_references_400() -> None:
    """Over HTTP a flag sent as ``null`` keeps the reference's typed answer."""
    from http_helpers import Site

    site = Site()
    body = {"title": "A", "start_date": "2031-05-01 10:00", "end_date": "2031-05-01 11:00"}
    answer = site.post("/events", as_="admin", json={**body, "featured": None})
    assert (400, {"featured": "featured is not of type boolean."}) == (
        answer.status_code,
        answer.json()["data"]["params"],
    )


def test_json_null_for_an_inline_records_flag_is_a_400() -> None:
    """A venue or organizer given inline is read as the body's own fields are: JSON's ``null``
    for its flag is refused, named by the link field it came in, and nothing is created."""
    from http_helpers import Site

    site = Site()
    body = {"title": "A", "start_date": "2031-05-01 10:00", "end_date": "2031-05-01 11:00"}
    venue = {"venue": "Hall", "show_map": None}
    organizers = [{"organizer": "Ann", "phone": "1"}, {"organizer": "Bo"}]
    answers = [
        site.post("/events", as_="admin", json={**body, "venue": venue}),
        site.post("/events", as_="admin", json={**body, "venue": [venue]}),
    ]
    params = [answer.json()["data"]["params"] for answer in answers]
    assert [400, 400] == [answer.status_code for answer in answers]
    assert [["venue"], ["venue"]] == [list(p) for p in params]
    fine = site.post("/events", as_="admin", json={**body, "organizer": organizers})
    assert (201, 0) == (fine.status_code, site.cal.venues.list().total)
