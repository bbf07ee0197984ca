"""DataFrames in and out of a calendar, on every backend (memory, SQLite, PostgreSQL): frame
subclasses, instants past the years a nanosecond column holds, the outcome of a row that
names a record already (in the trash, or the same venue by name)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest

import events_calendar as ec
from sql_backends import CALENDAR_KINDS, calendar_url

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ALL_DATES = {"start_date": "1000-01-01", "end_date": "9999-12-31"}


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    calendar = ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


class SeasonFrame(pd.DataFrame):
    """A caller's own frame class, as libraries built on pandas make them."""

    @property
    def _constructor(self) -> type[SeasonFrame]:
        return SeasonFrame


def _rows(titles: list[str]) -> SeasonFrame:
    return SeasonFrame(
        {
            "title": titles,
            "start_date": ["2031-05-01 18:00"] * len(titles),
            "end_date": ["2031-05-01 19:00"] * len(titles),
        }
    )


# -- a DataFrame subclass is a DataFrame ------------------------------------------------------


def test_bulk_create_takes_a_dataframe_subclass(cal: ec.Calendar) -> None:
    ids = cal.events.bulk_create(_rows(["Talk", "Walk"]))
    assert [cal.events.get(i).title for i in ids] == ["Talk", "Walk"]
    assert cal.events.from_dataframe(_rows(["Run"])).created == 1  # as from_dataframe does


# -- instants past the years of a nanosecond column -------------------------------------------


@pytest.mark.parametrize("year", [1500, 2300, 9999])
def test_to_dataframe_exports_every_year_the_calendar_holds(cal: ec.Calendar, year: int) -> None:
    far = cal.events.create(
        title="Far",
        start_date=f"{year}-05-01 18:00:00",
        end_date=f"{year}-05-01 19:30:00",
        timezone="Asia/Tokyo",
    )
    cal.events.create(title="Near", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00")
    frame = cal.events.to_dataframe(**ALL_DATES)
    assert str(frame["start_date"].dtype) == "datetime64[us, UTC]"  # wider for this column only
    assert str(frame["end_date"].dtype) == "datetime64[us, UTC]"
    assert str(frame["date"].dtype) == "datetime64[ns, UTC]"
    row = frame.set_index("title").loc["Far"]
    assert row["start_date"].to_pydatetime() == far.start_date  # nothing lost
    assert row["end_date"].to_pydatetime() == far.end_date
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (report.unchanged, len(report.errors)) == (2, 0)  # and it reads back as it was


def test_to_dataframe_keeps_nanoseconds_when_every_instant_fits(cal: ec.Calendar) -> None:
    cal.events.create(title="Near", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00")
    frame = cal.events.to_dataframe(**ALL_DATES)
    assert {str(frame[c].dtype) for c in ("start_date", "end_date", "date", "modified")} == {
        "datetime64[ns, UTC]"
    }


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_a_linked_record_of_any_year_exports(cal: ec.Calendar, kind: str) -> None:
    collection = getattr(cal, kind)
    record = collection.create(**{kind[:-1]: "Far"}, date="2400-01-01 12:00")
    frame = collection.to_dataframe()
    assert str(frame["date"].dtype) == "datetime64[us, UTC]"
    assert frame["date"].iloc[0].to_pydatetime() == record.date


# -- a row whose id names a record in the trash -----------------------------------------------


@pytest.mark.parametrize("on_conflict", ["update", "skip"])
def test_a_row_naming_a_trashed_event_by_id_is_its_error(
    cal: ec.Calendar, on_conflict: str
) -> None:
    gone = cal.events.create(
        title="Gone", start_date="2031-05-01 18:00", end_date="2031-05-01 19:00"
    )
    kept = cal.events.create(
        title="Kept", start_date="2031-05-02 18:00", end_date="2031-05-02 19:00"
    )
    frame = cal.events.to_dataframe(**ALL_DATES)
    frame["title"] = ["Gone (again)", "Kept (renamed)"]
    cal.events.delete(gone.id)
    report = cal.events.from_dataframe(frame, key="id", on_conflict=on_conflict)  # type: ignore[arg-type]
    by_id = {r.id: r.outcome for r in report.rows if r.id is not None}
    assert by_id == {kept.id: "updated" if on_conflict == "update" else "skipped"}
    (error,) = report.errors
    assert "in the trash" in error.error
    assert str(gone.id) in error.error
    trashed = cal.events.get(gone.id)
    assert (trashed.title, trashed.status) == ("Gone", ec.Status.TRASH)  # not updated
    assert report.created == 0  # nor replaced by a new event


def test_a_row_naming_a_trashed_venue_by_id_is_its_error(cal: ec.Calendar) -> None:
    hall = cal.venues.create(venue="Hall")
    cal.venues.delete(hall.id)
    frame = pd.DataFrame({"id": [float(hall.id)], "venue": ["Hall"], "city": ["Lyon"]})
    report = cal.venues.from_dataframe(frame, key="id", on_conflict="update")
    assert [r.outcome for r in report.rows] == ["error"]
    assert cal.venues.get(hall.id).city == ""


# -- a row that create answers with an existing venue or organizer is not "created" -----------


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_a_row_reusing_a_same_named_record_is_unchanged(cal: ec.Calendar, kind: str) -> None:
    collection, name = getattr(cal, kind), kind[:-1]
    hall = collection.create(**{name: "Town Hall"})
    frame = pd.DataFrame({name: ["Town Hall", "Annex", "annex"]})
    report = collection.from_dataframe(frame)
    assert [r.outcome for r in report.rows] == ["unchanged", "created", "unchanged"]
    annex = report.rows[1].id
    assert [r.id for r in report.rows] == [hall.id, annex, annex]
    assert (report.created, report.unchanged) == (1, 2)
    assert len(list(collection.iter())) == 2  # what the report says was made


@pytest.mark.parametrize(
    ("on_conflict", "outcome", "status"),
    [("skip", "skipped", ec.Status.PUBLISH), ("update", "updated", ec.Status.DRAFT)],
)
def test_a_reused_record_whose_status_differs_follows_on_conflict(
    cal: ec.Calendar, on_conflict: str, outcome: str, status: ec.Status
) -> None:
    hall = cal.venues.create(venue="Town Hall", city="Lyon")
    frame = pd.DataFrame({"venue": ["Town Hall"], "city": ["Lyon"], "status": ["draft"]})
    report = cal.venues.from_dataframe(frame, on_conflict=on_conflict)  # type: ignore[arg-type]
    assert [(r.outcome, r.id) for r in report.rows] == [(outcome, hall.id)]
    assert cal.venues.get(hall.id).status == status  # the row's status not dropped unsaid


def test_a_venue_row_of_another_city_is_a_new_venue(cal: ec.Calendar) -> None:
    cal.venues.create(venue="Town Hall", city="Lyon")
    report = cal.venues.from_dataframe(pd.DataFrame({"venue": ["Town Hall"], "city": ["Paris"]}))
    assert [r.outcome for r in report.rows] == ["created"]
    assert len(list(cal.venues.iter())) == 2


# -- a row matches only records the caller may read -------------------------------------------


def _hidden_board(cal: ec.Calendar) -> ec.Event:
    """An author's private event, and a contributor ("co") who may not read it."""
    cal.users.create("au", role="author")
    cal.users.create("co", role="contributor")
    return cal.as_user("au").events.create(
        title="Board",
        description="merger with acme",
        status="private",
        start_date="2027-03-10 10:00",
        end_date="2027-03-10 12:00",
    )


def _board_row(**cells: object) -> pd.DataFrame:
    fields = {"title": "Board", "description": "merger with acme", "slug": "board"}
    fields.update(start_date="2027-03-10 10:00", end_date="2027-03-10 12:00", **cells)
    return pd.DataFrame({name: [value] for name, value in fields.items()})


@pytest.mark.parametrize("on_conflict", ["skip", "update"])
@pytest.mark.parametrize("key", ["title", "slug", "description"])
def test_a_key_naming_only_unreadable_records_makes_a_new_one(
    cal: ec.Calendar, key: str, on_conflict: str
) -> None:
    """A row whose key only an unreadable record holds is the caller's own new record."""
    board = _hidden_board(cal)
    co = cal.as_user("co")
    report = co.events.from_dataframe(_board_row(), key=key, on_conflict=on_conflict)  # type: ignore[arg-type]
    ((outcome, made),) = [(r.outcome, r.id) for r in report.rows]
    assert ("created", True) == (outcome, made != board.id)
    assert (co.events.get(made).author, co.events.get(made).status) == (
        cal.users.get("co").id,
        ec.Status.DRAFT,
    )
    assert cal.events.get(board.id).description == "merger with acme"  # left alone


def test_an_anonymous_key_guess_is_answered_as_a_miss(cal: ec.Calendar) -> None:
    """Anonymous rows get the same answer whether or not a private record holds the key."""
    cal.users.create("au", role="author")
    cal.as_user("au").organizers.create(
        organizer="Secret", email="ceo@corp.example", status="private"
    )
    anon = cal.as_user(None).organizers

    def answer(email: str) -> list[tuple[str, int | None, str]]:
        frame = pd.DataFrame({"organizer": ["x"], "email": [email]})
        return [(r.outcome, r.id, r.error) for r in anon.from_dataframe(frame, key="email").rows]

    miss = answer("cfo@corp.example")
    assert [("error", None)] == [(outcome, made) for outcome, made, _ in miss]
    assert miss == answer("ceo@corp.example")


@pytest.mark.parametrize("trashed", [False, True])
def test_an_unreadable_id_is_answered_as_an_unknown_one(cal: ec.Calendar, trashed: bool) -> None:
    """An id the caller may not read (private or in the trash) is "no such id", nothing more."""
    board = _hidden_board(cal)
    if trashed:
        cal.as_user("au").events.delete(board.id)
    co = cal.as_user("co").events

    def errors(record_id: int) -> list[str]:
        report = co.from_dataframe(_board_row(id=record_id), key="id", on_conflict="update")
        return [r.error for r in report.errors]

    ids = (board.id, 999)
    expected = [[f"Invalid parameter(s): id (id: there is no event with id {i})"] for i in ids]
    assert expected == [errors(i) for i in ids]
    assert cal.events.get(board.id).status == (ec.Status.TRASH if trashed else ec.Status.PRIVATE)


def test_an_ambiguous_key_counts_only_readable_records(cal: ec.Calendar) -> None:
    """Ambiguity and its message count and name only the records the caller may read."""
    _hidden_board(cal)
    co = cal.as_user("co").events
    frame = _board_row()[["title", "description", "start_date", "end_date"]]
    first = co.from_dataframe(frame).rows[0].id
    (matched,) = co.from_dataframe(frame, key="description").rows
    assert ("unchanged", first) == (matched.outcome, matched.id)  # the hidden one is no rival
    second = co.from_dataframe(frame).rows[0].id
    with pytest.raises(ec.errors.InvalidParameter) as raised:
        co.from_dataframe(frame, key="description")
    assert raised.value.codes == {"rows[0].description": "ambiguous_key"}
    assert f"2 events have this description (ids {first}, {second})" in str(raised.value)


def test_an_editor_key_still_matches_anothers_private_record(cal: ec.Calendar) -> None:
    """Who may read a private record (an editor) still has their row matched to it."""
    board = _hidden_board(cal)
    cal.users.create("ed", role="editor")
    report = cal.as_user("ed").events.from_dataframe(_board_row(), key="description")
    assert [("unchanged", board.id)] == [(r.outcome, r.id) for r in report.rows]


# -- a key column of the caller's own ----------------------------------------------------------


def test_a_column_of_your_own_is_a_stored_key(cal: ec.Calendar) -> None:
    """``key="ref"``, a column no record has: its values are kept with the records the
    frame creates, so the frame read again is unchanged and a renamed row updates the
    event it made (issue 10: ``key=None|"id"|"slug"|column``)."""
    frame = _rows(["Talk", "Walk"]).assign(ref=["A-1", 2.0])  # a whole float is the int
    first = cal.events.from_dataframe(frame, key="ref")
    assert ["created", "created"] == [r.outcome for r in first.rows]
    again = cal.events.from_dataframe(frame.assign(ref=["A-1", 2]), key="ref")
    assert [("unchanged", r.id) for r in first.rows] == [(r.outcome, r.id) for r in again.rows]
    renamed = frame.assign(title=["Talk", "Night walk"])
    report = cal.events.from_dataframe(renamed, key="ref", on_conflict="update")
    assert ["unchanged", "updated"] == [r.outcome for r in report.rows]
    assert "Night walk" == cal.events.get(first.rows[1].id).title
    assert 2 == cal.events.list(**ALL_DATES).total


def test_an_own_key_finds_what_a_csv_import_stored(cal: ec.Calendar, tmp_path: Path) -> None:
    """A CSV imported with ``key="ID"`` and a frame keyed on its ``ID`` column name the
    same events."""
    path = tmp_path / "season.csv"
    path.write_text(
        "ID,Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time\n"
        "7,Gala,2031-05-01,18:00,2031-05-01,19:00\n"
    )
    assert 1 == cal.import_file(path, key="ID").created
    frame = _rows(["Gala (moved)"]).assign(ID=[7])
    report = cal.events.from_dataframe(frame, key="ID", on_conflict="update")
    assert ["updated"] == [r.outcome for r in report.rows]
    assert ["Gala (moved)"] == [e.title for e in cal.events.list(**ALL_DATES).items]


def test_a_field_that_names_no_record_is_still_no_key(cal: ec.Calendar) -> None:
    """A field of the record that is no key column (``start_date``) is refused as a key:
    only columns no record has are the caller's own."""
    with pytest.raises(ec.errors.InvalidParameter, match="a column of your own"):
        cal.events.from_dataframe(_rows(["Talk"]), key="start_date")
