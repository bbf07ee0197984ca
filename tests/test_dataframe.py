"""DataFrames in and out: typed columns, no secrets, per-row reports, ``bulk_create(df)``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.io.dataframe import EVENT_COLUMNS

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)

#: The dtypes the issue asks for, by column (the module declares the rest).
PROMISED = {
    "start_date": "datetime64[ns, UTC]",
    "end_date": "datetime64[ns, UTC]",
    "timezone": "string",
    "all_day": "bool",
    "venue_id": "Int64",
    "venue_name": "string",
    "organizer_ids": "object",
    "organizer_names": "object",
    "categories": "object",
    "tags": "object",
}
EVENT_DTYPES = dict(EVENT_COLUMNS)


@pytest.fixture(params=["memory://", "sqlite://"])
def cal(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend, at a fixed instant."""
    calendar = ec.connect(request.param, clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


@pytest.fixture
def gala(cal: ec.Calendar) -> ec.Event:
    """A password-protected event in Paris with a venue, two organizers and terms."""
    return cal.events.create(
        title="Gala",
        start_date="2027-03-01 19:00:00",
        end_date="2027-03-01 23:00:00",
        timezone="Europe/Paris",
        venue=[{"venue": "Opera"}],
        organizer=[{"organizer": "Ann"}, {"organizer": "Bob"}],
        categories=["Music", "Dance"],
        tags=["gala"],
        password="hunter2",
    )


def _new_rows() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "title": ["Talk", "Walk"],
            "start_date": ["2027-04-01 10:00:00", "2027-04-02 10:00:00"],
            "end_date": ["2027-04-01 11:00:00", "2027-04-02 11:00:00"],
        }
    )


def test_event_frame_has_typed_columns(cal: ec.Calendar, gala: ec.Event) -> None:
    """Every column of an event frame has its declared dtype, in order."""
    frame = cal.events.to_dataframe()
    assert EVENT_DTYPES == {name: str(dtype) for name, dtype in frame.dtypes.items()}


def test_event_frame_has_the_promised_dtypes(cal: ec.Calendar, gala: ec.Event) -> None:
    """UTC instants, the zone's name, flags, the venue and the lists have their dtypes."""
    dtypes = cal.events.to_dataframe().dtypes
    assert PROMISED == {name: str(dtypes[name]) for name in PROMISED}


def test_event_frame_gives_utc_instants_and_the_zone(cal: ec.Calendar, gala: ec.Event) -> None:
    """19:00 in Paris is 18:00 UTC in the frame, with the zone's name beside it."""
    row = cal.events.to_dataframe().iloc[0]
    assert (pd.Timestamp("2027-03-01 18:00:00", tz="UTC"), "Europe/Paris") == (
        row["start_date"],
        row["timezone"],
    )


def test_event_frame_names_links(cal: ec.Calendar, gala: ec.Event) -> None:
    """Venue id and name, organizer ids and names, term names (by name order)."""
    row = cal.events.to_dataframe().iloc[0]
    assert (gala.venue[0], "Opera", list(gala.organizer), ["Ann", "Bob"], ["Dance", "Music"]) == (
        row["venue_id"],
        row["venue_name"],
        row["organizer_ids"],
        row["organizer_names"],
        row["categories"],
    )


def test_event_frame_holds_no_password(cal: ec.Calendar, gala: ec.Event) -> None:
    """Neither a password column nor the password itself is exported."""
    frame = cal.events.to_dataframe()
    assert ("password" in frame.columns, "hunter2" in frame.to_string()) == (False, False)


def test_empty_frame_keeps_columns_and_dtypes(cal: ec.Calendar) -> None:
    """No events: an empty frame with the same typed columns."""
    frame = cal.events.to_dataframe()
    assert (0, EVENT_DTYPES) == (
        len(frame),
        {name: str(dtype) for name, dtype in frame.dtypes.items()},
    )


def test_frame_takes_list_filters(cal: ec.Calendar, gala: ec.Event) -> None:
    """``to_dataframe(**filters)`` exports what ``iter(**filters)`` yields."""
    cal.events.from_dataframe(_new_rows())
    assert ["Talk"] == list(cal.events.to_dataframe(search="talk")["title"])


@pytest.mark.parametrize(
    ("kind", "columns"),
    [
        ("categories", ["id", "name", "slug", "description", "count", "parent"]),
        ("tags", ["id", "name", "slug", "description", "count"]),
    ],
)
def test_term_frame_has_the_term_fields(
    cal: ec.Calendar, gala: ec.Event, kind: str, columns: list[str]
) -> None:
    """Category and tag frames carry the term's fields."""
    assert columns == list(getattr(cal, kind).to_dataframe().columns)


def test_venue_frame_types_dates_and_flags(cal: ec.Calendar, gala: ec.Event) -> None:
    """A venue frame gives its publication date in UTC and its flags as booleans."""
    dtypes = cal.venues.to_dataframe().dtypes
    assert ("datetime64[ns, UTC]", "bool", "string") == (
        str(dtypes["date"]),
        str(dtypes["show_map"]),
        str(dtypes["city"]),
    )


def test_statuses_are_plain_text_in_every_frame(cal: ec.Calendar, gala: ec.Event) -> None:
    """A status is its text (``"draft"``), never the enum member, in event and record frames
    alike, beside the other columns' values."""
    cal.organizers.create(organizer="Dee", status="draft")
    frames = [cal.events.to_dataframe(), cal.organizers.to_dataframe(status=["draft", "publish"])]
    cells = [frame["status"].tolist() for frame in frames]
    assert (["publish"], ["draft", "publish", "publish"]) == (cells[0], sorted(cells[1]))
    assert {str} == {type(cell) for column in cells for cell in column}
    assert ["Ann", "Bob", "Dee"] == sorted(frames[1]["organizer"].tolist())


def test_from_dataframe_creates_rows_without_a_key(cal: ec.Calendar) -> None:
    """Without a key every row is a new event; the report says so, row by row."""
    report = cal.events.from_dataframe(_new_rows())
    assert ([("created", 0), ("created", 1)], ["Talk", "Walk"]) == (
        [(r.outcome, r.row) for r in report.rows],
        [e.title for e in cal.events.iter()],
    )


def test_exported_frame_reimports_unchanged(cal: ec.Calendar, gala: ec.Event) -> None:
    """A frame ``to_dataframe`` made, imported by id with updates, changes nothing."""
    report = cal.events.from_dataframe(cal.events.to_dataframe(), key="id", on_conflict="update")
    assert (["unchanged"], gala) == ([r.outcome for r in report.rows], cal.events.get(gala.id))


def test_a_row_that_gives_the_stored_values_in_other_forms_is_unchanged(
    cal: ec.Calendar,
) -> None:
    """Wall-clock text for the dates, the venue by id, a cost as a number and a category
    in another case are the values the event holds: the row is unchanged, twice over."""
    hall = cal.venues.create(venue="Town Hall")
    season = pd.DataFrame(
        {
            "title": ["Jazz brunch"],
            "start_date": ["2027-06-06 11:00"],
            "end_date": [pd.Timestamp("2027-06-06 14:00")],
            "venue": [hall.id],
            "cost": [5],
            "categories": [["Jazz"]],
        }
    )
    cal.events.from_dataframe(season)
    stored = cal.events.list(start_date="2027-01-01").items[0]
    season.loc[0, "categories"] = ["JAZZ"]  # type: ignore[call-overload]
    again = cal.events.from_dataframe(season, key="title", on_conflict="update")
    assert (["unchanged"], stored) == (
        [r.outcome for r in again.rows],
        cal.events.get(stored.id),
    )


def test_an_event_with_two_venues_keeps_both_through_a_frame(cal: ec.Calendar) -> None:
    """The frame shows an event's first venue; read back, that venue leaves both in place,
    while a ``venue`` column of ids sets them all."""
    first, second = (cal.venues.create(venue=name).id for name in ("Hall", "Annex"))
    event = cal.events.create(
        title="Two rooms",
        start_date="2027-07-01 10:00",
        end_date="2027-07-01 11:00",
        venue=[first, second],
    )
    frame = cal.events.to_dataframe()
    kept = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    both = cal.events.get(event.id).venue
    frame["venue"] = [[second]]
    moved = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (["unchanged"], (first, second), ["updated"], (second,)) == (
        [r.outcome for r in kept.rows],
        both,
        [r.outcome for r in moved.rows],
        cal.events.get(event.id).venue,
    )


def test_a_website_never_set_is_exported_missing_and_stays_unset(cal: ec.Calendar) -> None:
    """An event without a website (the REST API shows its permalink there) exports
    ``<NA>``, not ``""`` (a cleared website), and a round trip leaves it unset."""
    event = cal.events.create(
        title="Plain", start_date="2027-05-02 19:00", end_date="2027-05-02 23:00"
    )
    frame = cal.events.to_dataframe()
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (True, ["unchanged"], None) == (
        bool(pd.isna(frame.loc[0, "website"])),
        [r.outcome for r in report.rows],
        cal.events.get(event.id).website,
    )


def test_from_dataframe_updates_a_changed_row(cal: ec.Calendar, gala: ec.Event) -> None:
    """A row whose values differ updates its event."""
    frame = cal.events.to_dataframe()
    frame.loc[0, "title"] = "Grand gala"
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (1, "Grand gala") == (report.updated, cal.events.get(gala.id).title)


def test_from_dataframe_skips_existing_rows(cal: ec.Calendar, gala: ec.Event) -> None:
    """``on_conflict="skip"`` leaves an event the key finds as it is."""
    frame = cal.events.to_dataframe()
    frame.loc[0, "title"] = "Other"
    report = cal.events.from_dataframe(frame, key="slug")
    assert (1, "Gala") == (report.skipped, cal.events.get(gala.id).title)


def test_from_dataframe_by_title_creates_the_missing(cal: ec.Calendar, gala: ec.Event) -> None:
    """``key="title"``: a row with a known title, holding the event's values, is
    unchanged; a new title is created."""
    frame = pd.concat([cal.events.to_dataframe()[["title", "start_date", "end_date"]], _new_rows()])
    report = cal.events.from_dataframe(frame, key="title")
    assert ["unchanged", "created", "created"] == [r.outcome for r in report.rows]


def test_a_frame_read_back_is_unchanged_whatever_the_conflict_rule(
    cal: ec.Calendar, gala: ec.Event
) -> None:
    """``to_dataframe`` read back with the default ``on_conflict="skip"`` counts every row
    unchanged, as ``update`` does and as ``import_file`` counts its matches (it said
    "skipped"); a row that differs is skipped, and nothing is written either way."""
    frame = cal.events.to_dataframe()
    before = cal.events.get(gala.id)
    for on_conflict in ("skip", "update"):
        report = cal.events.from_dataframe(frame, key="id", on_conflict=on_conflict)
        assert (0, 0, 1, 0) == (report.created, report.updated, report.unchanged, report.skipped)
    frame.loc[0, "description"] = "Changed"
    report = cal.events.from_dataframe(frame, key="id")
    assert (0, 1) == (report.unchanged, report.skipped)
    assert before == cal.events.get(gala.id)


def test_from_dataframe_reports_a_bad_row_and_keeps_the_others(cal: ec.Calendar) -> None:
    """A row missing its dates is an error with why; the other rows go in."""
    frame = _new_rows()
    frame.loc[0, "start_date"] = None
    report = cal.events.from_dataframe(frame)
    assert (["error", "created"], "start_date" in report.errors[0].error) == (
        [r.outcome for r in report.rows],
        True,
    )


def test_from_dataframe_refuses_an_unknown_key(cal: ec.Calendar) -> None:
    """A key that is not id, slug or the name column is refused up front."""
    with pytest.raises(InvalidParameter, match="key"):
        cal.events.from_dataframe(_new_rows(), key="cost")


def test_from_dataframe_reports_progress(cal: ec.Calendar) -> None:
    """A ``progress`` callable hears (rows done, rows in all) after each row."""
    calls: list[tuple[int, int | None]] = []
    cal.events.from_dataframe(_new_rows(), progress=lambda d, t: calls.append((d, t)))
    assert [(1, 2), (2, 2)] == calls


def test_from_dataframe_takes_numpy_cells(cal: ec.Calendar, gala: ec.Event) -> None:
    """numpy booleans and integers are read as Python values."""
    frame = _new_rows().assign(featured=[np.bool_(True), np.bool_(False)])
    frame["venue_id"] = pd.array([gala.venue[0], None], dtype="Int64")
    cal.events.from_dataframe(frame)
    assert [("Talk", True, gala.venue), ("Walk", False, ())] == [
        (e.title, e.featured, e.venue) for e in cal.events.iter() if e.title != "Gala"
    ]


def test_bulk_create_takes_a_dataframe(cal: ec.Calendar) -> None:
    """``bulk_create(df)`` creates one event per row; NaN cells are missing values."""
    frame = _new_rows().assign(cost=["5", float("nan")])
    made = cal.events.bulk_create(frame)
    assert (2, ["5", ""]) == (len(made), [cal.events.get(i).cost for i in made])


def test_report_repr_and_html_count_outcomes(cal: ec.Calendar) -> None:
    """The report's repr is one line of counts; its HTML lists the rows in error."""
    frame = _new_rows()
    frame.loc[1, "end_date"] = "2027-01-01 00:00:00"
    report = cal.events.from_dataframe(frame)
    assert (
        "DataFrameReport(2 rows: 1 created, 0 updated, 0 unchanged, 0 skipped, 1 errors)",
        "<td>1</td>" in report._repr_html_(),
    ) == (repr(report), True)


def test_from_dataframe_matches_float_ids(cal: ec.Calendar, gala: ec.Event) -> None:
    """``key="id"`` reads whole floats (an id column with a gap) as the ids they are."""
    frame = cal.events.to_dataframe()[["id", "title"]].assign(title="Grand gala")
    frame = pd.concat([frame, _new_rows()], ignore_index=True)  # new rows: id NaN, float64
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (["updated", "created", "created"], "Grand gala") == (
        [r.outcome for r in report.rows],
        cal.events.get(gala.id).title,
    )


def test_a_report_without_errors_is_a_table_of_counts_too(cal: ec.Calendar) -> None:
    """In Jupyter a report is a table whether or not a row failed (issue 10: reports have
    ``_repr_html_`` tables); it was a paragraph when none did."""
    html = cal.events.from_dataframe(_new_rows())._repr_html_()
    assert (True, True, False) == (
        html.startswith("<table>"),
        "<tr><td>created</td><td>2</td></tr>" in html,
        "<th>error</th>" in html,
    )


@pytest.mark.parametrize("frame", ["not a frame", [{"title": "Gala"}], None])
def test_from_dataframe_refuses_what_is_no_frame(cal: ec.Calendar, frame: object) -> None:
    """Anything but a DataFrame is ``InvalidParameter`` naming ``frame`` (it was an
    ``AttributeError``)."""
    with pytest.raises(ec.errors.InvalidParameter) as info:
        cal.events.from_dataframe(frame)  # type: ignore[arg-type]
    assert ["frame"] == list(info.value.fields)


@pytest.mark.parametrize("huge", [2**63, -(2**63) - 1, 10**30])
def test_from_dataframe_reports_an_id_past_storage_integers(cal: ec.Calendar, huge: int) -> None:
    """An id no storage integer holds names no record: that row's error, the others go in
    (SQLite raised an untyped OverflowError and stopped the load)."""
    frame = pd.DataFrame(
        {"id": [None, huge], "title": ["Good", "Huge"], "start_date": ["2031-01-01"] * 2,
         "end_date": ["2031-01-02"] * 2},
        dtype=object,
    )  # fmt: skip
    report = cal.events.from_dataframe(frame, key="id", on_conflict="update")
    assert (
        ["created", "error"],
        [f"Invalid parameter(s): id (id: there is no event with id {huge})"],
    ) == (
        [r.outcome for r in report.rows],
        [r.error for r in report.errors],
    )


def test_from_dataframe_matches_on_a_text_field(cal: ec.Calendar) -> None:
    """``key="website"``: a row updates the event whose website equals the row's."""
    site = "https://example.org/talk"
    talk = cal.events.create(
        title="Talk", start_date="2027-04-01 10:00", end_date="2027-04-01 11:00", website=site
    )
    frame = _new_rows().assign(website=[site, "https://example.org/walk"], featured=True)
    report = cal.events.from_dataframe(frame, key="website", on_conflict="update")
    assert ([("updated", talk.id), ("created", report.rows[1].id)], True) == (
        [(r.outcome, r.id) for r in report.rows],
        cal.events.get(talk.id).featured,
    )


def test_from_dataframe_matches_an_organizer_by_email(cal: ec.Calendar) -> None:
    """Organizers can be matched on ``email``, any of their text fields."""
    ada = cal.organizers.create(organizer="Ada", email="ada@example.org")
    frame = pd.DataFrame({"organizer": ["Ada L."], "email": ["ada@example.org"]})
    report = cal.organizers.from_dataframe(frame, key="email", on_conflict="update")
    assert (["updated"], "Ada L.") == (
        [r.outcome for r in report.rows],
        cal.organizers.get(ada.id).organizer,
    )


def test_from_dataframe_refuses_a_key_the_frame_lacks(cal: ec.Calendar) -> None:
    """A key column the frame does not have is refused before any row is read."""
    with pytest.raises(InvalidParameter, match="no 'website' column") as caught:
        cal.events.from_dataframe(_new_rows(), key="website")
    assert (["key"], []) == (list(caught.value.fields), list(cal.events.iter()))


@pytest.mark.parametrize("load", ["from_dataframe", "bulk_create"])
@pytest.mark.parametrize("names", [["title", "title"], [1, "1"]])
def test_a_frame_naming_one_field_twice_is_refused(
    cal: ec.Calendar, load: str, names: list[object]
) -> None:
    """Two columns for one field (``title`` twice, or ``1`` and ``"1"``) are refused before
    any row is written. A row read as a mapping keeps one of the two cells: "First" was
    dropped without a word and both events were titled "Second"."""
    frame = pd.DataFrame(
        [["First", "Second", "2031-01-01 10:00", "2031-01-01 11:00"]],
        columns=[*names, "start_date", "end_date"],
    )
    with pytest.raises(InvalidParameter, match=f"column {str(names[0])!r} appears twice") as caught:
        getattr(cal.events, load)(frame)
    assert (["frame"], []) == (list(caught.value.fields), list(cal.events.iter()))


def test_from_dataframe_refuses_an_ambiguous_key(cal: ec.Calendar) -> None:
    """A key value two existing events share names no one event: refused, nothing written."""
    for _ in range(2):
        cal.events.create(title="Talk", start_date="2027-04-01 10:00", end_date="2027-04-01 11:00")
    with pytest.raises(InvalidParameter) as caught:
        cal.events.from_dataframe(_new_rows(), key="title", on_conflict="update")
    assert ({"rows[0].title": "ambiguous_key"}, 2) == (
        caught.value.codes,
        len(list(cal.events.iter())),
    )


def test_from_dataframe_key_ignores_trashed_records(cal: ec.Calendar) -> None:
    """A record in the trash is no match for a key: the row creates a new one."""
    old = cal.events.create(
        title="Talk", start_date="2027-04-01 10:00", end_date="2027-04-01 11:00"
    )
    cal.events.delete(old.id)
    report = cal.events.from_dataframe(_new_rows(), key="title")
    assert ["created", "created"] == [r.outcome for r in report.rows]


def test_bulk_create_from_a_dataframe_reports_its_length(cal: ec.Calendar) -> None:
    """``bulk_create(df, progress=...)`` knows the total: the frame's length."""
    calls: list[tuple[int, int | None]] = []
    cal.events.bulk_create(_new_rows(), progress=lambda d, t: calls.append((d, t)))
    assert [(2, 2)] == calls
