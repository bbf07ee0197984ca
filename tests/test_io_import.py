"""The import engine: keys, skip or update, dry runs, atomic and partial imports, reports."""

from __future__ import annotations

import csv
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.io import ImportReport, RowOutcome, SourceRow, UnreadableFile, csv_read
from events_calendar.io.importer import import_rows
from events_calendar.io.keys import MAX_KEY_LENGTH, own_uid, title_start_key
from events_calendar.testing import NOW
from sql_backends import CALENDAR_KINDS, calendar_url

HEADER = (
    "Event Name,Event Start Date,Event Start Time,Event End Time,Event Venue Name,"
    "Event Organizer Name(s) or ID(s),Event Category\n"
)
SEASON = (
    HEADER
    + "Opening,2031-05-01,19:00,22:00,Town Hall,Jane,Music\n"
    + 'Matinee,2031-05-02,14:00,16:00,Town Hall,Jane,"Music, Family"\n'
)


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend."""
    calendar = ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _file(tmp_path: Path, text: str, name: str = "season.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _titles(cal: ec.Calendar) -> list[str]:
    return [e.title for e in cal.events.list(start_date="2030-01-01", end_date="2040-01-01").items]


def _event(title: str, start: str = "2031-05-01 19:00", **more: object) -> dict[str, object]:
    return {"title": title, "start_date": start, "end_date": start, **more}


def test_a_csv_season_is_created_published_with_its_links(cal: ec.Calendar, tmp_path: Path) -> None:
    """Rows become published events; the venue, organizer and categories named are found or
    created once."""
    report = cal.import_file(_file(tmp_path, SEASON))
    opening, matinee = cal.events.get(report.ids[0]), cal.events.get(report.ids[1])
    assert (
        "created 2, updated 0, unchanged 0, refused 0",
        ec.Status.PUBLISH,
        opening.venue,
        opening.organizer,
        ["Town Hall"],
        ["Family", "Music"],
    ) == (
        report.summary(),
        opening.status,
        matinee.venue,
        matinee.organizer,
        [v.venue for v in cal.venues.list().items],
        sorted(c.name for c in cal.categories.list(hide_empty=False).items),
    )


def test_importing_the_same_file_again_changes_nothing(cal: ec.Calendar, tmp_path: Path) -> None:
    """Rows match their events by title and start: the second import reports them unchanged."""
    path = _file(tmp_path, SEASON)
    cal.import_file(path)
    again = cal.import_file(path, on_conflict="update")
    assert ("created 0, updated 0, unchanged 2, refused 0", ["Opening", "Matinee"]) == (
        again.summary(),
        _titles(cal),
    )


def test_update_writes_only_rows_that_differ(cal: ec.Calendar, tmp_path: Path) -> None:
    """With on_conflict="update" a changed row updates its event in place."""
    cal.import_file(_file(tmp_path, SEASON))
    changed = SEASON.replace("14:00,16:00", "14:00,17:30")
    report = cal.import_file(_file(tmp_path, changed), on_conflict="update")
    matinee = cal.events.get(report.rows[1].record_id or 0)
    assert (
        [RowOutcome("line 2", "unchanged", report.rows[0].record_id)],
        "updated",
        "2031-05-02 17:30:00",
    ) == (list(report.rows[:1]), report.rows[1].outcome, str(matinee.end_date)[:19])


def test_skip_leaves_a_changed_row_alone(cal: ec.Calendar, tmp_path: Path) -> None:
    """With on_conflict="skip" (the default) a matched row is not written."""
    cal.import_file(_file(tmp_path, SEASON))
    report = cal.import_file(_file(tmp_path, SEASON.replace("Town Hall", "Barn")))
    assert ("created 0, updated 0, unchanged 2, refused 0", ["Town Hall"]) == (
        report.summary(),
        [v.venue for v in cal.venues.list().items],
    )


def test_a_dry_run_writes_nothing_not_even_ids(cal: ec.Calendar, tmp_path: Path) -> None:
    """A dry run reports what would happen; no record and no id sequence moves."""
    report = cal.import_file(_file(tmp_path, SEASON), dry_run=True)
    assert (
        [
            "dry run: nothing written; the counts are what the import would do",
            "created 2, updated 0, unchanged 0, refused 0",
        ],
        [0, 0],
    ) == (report.lines(), [cal.backend.last_id("post"), cal.backend.last_id("term")])


def test_a_dry_run_counts_what_an_atomic_import_would_write(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """With a refused row and no partial=True, the dry run counts nothing created and holds
    the good rows back, as the import itself does."""
    bad = SEASON + "Broken,someday,,,,,\n"
    dry = cal.import_file(_file(tmp_path, bad), dry_run=True)
    real = cal.import_file(_file(tmp_path, bad))
    assert (real.counts, 2, 2, True) == (dry.counts, dry.held_back, real.held_back, dry.stopped)


def test_one_bad_row_writes_nothing_and_every_bad_row_is_reported(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """An atomic import refuses the file: each bad row on its own line, nothing stored."""
    bad = SEASON + "Broken,someday,,,,,\nAlso,2031-05-03,25:00,,,,\n"
    report = cal.import_file(_file(tmp_path, bad))
    assert (
        [
            "line 4: refused: Event Start Date: 'someday' is not a date; write it as "
            "2014-11-19, 11/19/2014 or Apr 19, 2016",
            "line 5: refused: Event Start Time: '25:00' is not a time of day; write it as "
            "19:30, 7:30:00 or 7:30 pm",
            "nothing written: 2 good rows wait for partial=True (--partial)",
            "created 0, updated 0, unchanged 0, refused 2",
        ],
        [],
        0,
    ) == (report.lines(), _titles(cal), cal.backend.last_id("post"))


def test_a_row_refused_while_writing_undoes_the_whole_import(cal: ec.Calendar) -> None:
    """An end before the start, found by validation, rolls back the good rows too."""
    rows = [
        SourceRow("line 2", "event", _event("Good")),
        SourceRow("line 3", "event", _event("Bad", end_date="2031-04-01 10:00")),
    ]
    report = import_rows(cal, rows)
    assert (["line 3: refused: end_date: send an end on or after the start"], []) == (
        [row.line() for row in report.refusals],
        _titles(cal),
    )


def test_partial_imports_the_good_rows(cal: ec.Calendar) -> None:
    """partial=True writes the good rows and still reports the bad ones."""
    rows = [
        SourceRow("line 2", "event", _event("Good")),
        SourceRow("line 3", "event", _event("Bad", end_date="2031-04-01 10:00")),
        SourceRow("line 4", "event", refused="Event Start Date: empty"),
    ]
    report = import_rows(cal, rows, partial=True)
    assert ("created 1, updated 0, unchanged 0, refused 2", ["Good"]) == (
        report.summary(),
        _titles(cal),
    )


def test_a_key_repeated_in_one_file_is_refused(cal: ec.Calendar) -> None:
    """Two rows with one key describe one event twice: the later row is refused."""
    rows = [
        SourceRow("UID a", "event", _event("One"), key="uid:a@x"),
        SourceRow("UID a again", "event", _event("Two"), key="uid:a@x"),
    ]
    report = import_rows(cal, rows, partial=True)
    assert "UID a again: refused: describes the same event as UID a (key 'uid:a@x')" == (
        report.refusals[0].line()
    )


def test_two_vevents_of_one_uid_are_one_event_described_twice(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """Two VEVENTs sharing a UID (no RECURRENCE-ID) share their ``where`` too: the later is
    refused all the same, so importing the file again cannot turn one into the other."""
    path = tmp_path / "shows.ics"
    path.write_bytes(
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        + b"".join(
            b"BEGIN:VEVENT\r\nUID:u1\r\nSUMMARY:Show %d\r\nDTSTART:203105%02dT190000Z\r\n"
            b"DTEND:203105%02dT210000Z\r\nEND:VEVENT\r\n" % (n, n, n)
            for n in (1, 2)
        )
        + b"END:VCALENDAR\r\n"
    )
    reports = [cal.import_file(path, partial=True, on_conflict=how) for how in ("skip", "update")]
    assert [
        "UID u1: refused: describes the same event as an earlier row of that name (key 'uid:u1')"
    ] * 2 == [report.refusals[0].line() for report in reports]
    assert (
        ["Show 1"],
        [
            "created 1, updated 0, unchanged 0, refused 1",
            "created 0, updated 0, unchanged 1, refused 1",
        ],
    ) == (_titles(cal), [report.summary() for report in reports])


def test_a_key_too_long_to_keep_is_refused_alike_on_every_backend(cal: ec.Calendar) -> None:
    """A UID past ``MAX_KEY_LENGTH`` is refused with its reason (PostgreSQL's index took no
    such entry and failed the whole import as unavailable storage); one at the limit is kept,
    and a long title's own title+start key is no stored key, so it is not bounded."""
    uid = "".join(chr(0x4E00 + n * 7919 % 20000) for n in range(MAX_KEY_LENGTH))
    title = uid + "!"
    rows = [
        SourceRow("UID long", "event", _event("Long"), key=f"uid:{uid}"),
        SourceRow("UID limit", "event", _event("Limit"), key=f"uid:{uid[4:]}"),
        SourceRow("line 4", "event", _event(title), key=title_start_key(title, "2031-05-01")),
    ]
    report = import_rows(cal, rows, partial=True)
    assert ["UID long: refused: its key (a UID or key column) is longer than 500 characters"] == [
        r.line() for r in report.refusals
    ]
    assert sorted(["Limit", title]) == sorted(_titles(cal))


def test_a_uid_is_kept_so_a_changed_event_updates_in_place(cal: ec.Calendar) -> None:
    """A foreign UID is stored on import; the same UID with a new title updates that event."""
    first = import_rows(cal, [SourceRow("UID a", "event", _event("Old"), key="uid:a@x")])
    second = import_rows(
        cal, [SourceRow("UID a", "event", _event("New"), key="uid:a@x")], on_conflict="update"
    )
    assert (first.ids, ["New"], {"uid:a@x": first.ids[0]}) == (
        second.ids,
        _titles(cal),
        cal.backend.import_keys("event"),
    )


def test_our_own_uid_names_the_event(cal: ec.Calendar) -> None:
    """A UID this calendar wrote (``event-<id>@<its identity>.events-calendar``) matches that
    event, so a calendar's own export imports as unchanged."""
    gala = cal.events.create(**_event("Gala"))
    uid = own_uid(gala.id, cal.backend.calendar_identity())
    report = import_rows(
        cal, [SourceRow("UID", "event", _event("Gala"), key=f"uid:{uid}")], on_conflict="update"
    )
    assert ([RowOutcome("UID", "unchanged", gala.id)], {}) == (
        list(report.rows),
        cal.backend.import_keys("event"),
    )


@pytest.mark.parametrize("on_conflict", ["skip", "update"])
def test_another_calendars_export_never_lands_on_our_events(
    cal: ec.Calendar, tmp_path: Path, on_conflict: str
) -> None:
    """Every calendar numbers its events from 1, so another calendar's event 1 is not ours:
    its UIDs carry its own identity. Importing its export adds its events beside ours, and
    importing it again finds those, never ours of the same ids."""
    ours = cal.events.create(**_event("Ours"))
    other = ec.connect("memory://", clock=ec.FixedClock(NOW))
    theirs = other.events.create(**_event("Theirs", "2031-06-01 19:00"))
    path = tmp_path / "theirs.ics"
    other.export_file(path)
    first = cal.import_file(path, on_conflict=on_conflict)
    second = cal.import_file(path, on_conflict=on_conflict)
    assert (theirs.id, 1, ["unchanged"], ["Ours", "Theirs"], ours) == (
        ours.id,
        first.created,
        [row.outcome for row in second.rows],
        _titles(cal),
        cal.events.get(ours.id),
    )


def test_a_calendars_own_export_imports_back_unchanged(cal: ec.Calendar, tmp_path: Path) -> None:
    """The UIDs of a calendar's export name its events: importing the file back changes
    nothing and stores no key (the UID is the event's id)."""
    cal.events.create(**_event("Gala"))
    cal.events.create(**_event("Fair", "2031-06-01 19:00"))
    path = tmp_path / "ours.ics"
    cal.export_file(path)
    report = cal.import_file(path, on_conflict="update")
    assert ("created 0, updated 0, unchanged 2, refused 0", {}, ["Gala", "Fair"]) == (
        report.summary(),
        cal.backend.import_keys("event"),
        _titles(cal),
    )


def test_an_ics_export_holding_less_than_its_events_imports_back_unchanged(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A VEVENT holds one LOCATION and one ORGANIZER (an organizer with an email): an event
    with two venues and three organizers (one without an email), and a description in
    markup (kept beside its text in X-ALT-DESC), come back as they were."""
    ann, bob, cyd = (
        cal.organizers.create(organizer=name, email=email).id
        for name, email in (("Ann", ""), ("Bob", "bob@example.org"), ("Cyd", "cyd@example.org"))
    )
    hall, annex = (cal.venues.create(venue=name).id for name in ("Hall", "Annex"))
    gala = cal.events.create(
        **_event("Gala"),
        organizer=[ann, bob, cyd],
        venue=[hall, annex],
        description="<p>Hi <em>there</em></p>",
    )
    path = tmp_path / "ours.ics"
    cal.export_file(path)
    report = cal.import_file(path, on_conflict="update")
    assert ("created 0, updated 0, unchanged 1, refused 0", gala) == (
        report.summary(),
        cal.events.get(gala.id),
    )


def test_an_ics_organizer_or_location_new_to_the_event_replaces_its_links(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """What the file names that the event does not have is a change: the event's venues
    become the one the file names."""
    hall, annex = (cal.venues.create(venue=name).id for name in ("Hall", "Annex"))
    gala = cal.events.create(**_event("Gala"), venue=[hall, annex])
    path = tmp_path / "ours.ics"
    cal.export_file(path)
    path.write_text(path.read_text().replace("LOCATION:Hall", "LOCATION:Barn"))
    report = cal.import_file(path, on_conflict="update")
    barn = cal.venues.list(search="Barn").items[0].id
    assert ("created 0, updated 1, unchanged 0, refused 0", (barn,)) == (
        report.summary(),
        cal.events.get(gala.id).venue,
    )


def test_a_category_named_in_two_cases_in_one_file_is_one_category(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """``Jazz``, then ``jazz`` (another row, or the same cell), made in one import: the
    second names the category the first made, in the dry run as in the import."""
    season = HEADER + 'A,2031-01-01,19:00,20:00,,,Jazz\nB,2031-01-02,19:00,20:00,,,"jazz, JAZZ"\n'
    dry = cal.import_file(_file(tmp_path, season), dry_run=True)
    done = cal.import_file(_file(tmp_path, season))
    (jazz,) = cal.categories.list().items
    assert (dry.summary(), "Jazz", [(jazz.id,), (jazz.id,)]) == (
        done.summary(),
        jazz.name,
        [cal.events.get(i).categories for i in done.ids],
    )


def test_our_uid_of_a_deleted_event_finds_the_event_it_created(cal: ec.Calendar) -> None:
    """Our export of an event since deleted creates it again once: the UID is then stored
    for the new event, and the next import finds it."""
    gala = cal.events.create(**_event("Gala"))
    row = SourceRow(
        "UID",
        "event",
        _event("Gala"),
        key=f"uid:{own_uid(gala.id, cal.backend.calendar_identity())}",
    )
    cal.events.delete(gala.id, force=True)
    first = import_rows(cal, [row], on_conflict="update")
    second = import_rows(cal, [row], on_conflict="update")
    assert (1, [("unchanged", first.ids[0])], ["Gala"]) == (
        first.created,
        [(r.outcome, r.record_id) for r in second.rows],
        _titles(cal),
    )


def test_a_row_without_a_zone_is_compared_in_its_events_zone(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A matched row that names no time zone is read in its event's (Tokyo here), not the
    calendar's, as an update would read it: the same wall clock is unchanged, another
    moves the event in its own zone."""
    text = "Ref,Event Name,Event Start Date,Event Start Time,Event End Time"
    zoned = _file(tmp_path, f"{text},Event Timezone\nA,Gala,2031-05-01,19:00,19:00,Asia/Tokyo\n")
    same = _file(tmp_path, f"{text}\nA,Gala,2031-05-01,19:00,19:00\n", "same.csv")
    later = _file(tmp_path, f"{text}\nA,Gala,2031-05-01,20:00,20:00\n", "later.csv")
    created = cal.import_file(zoned, key="Ref")
    kept = cal.import_file(same, key="Ref", on_conflict="update")
    moved = cal.import_file(later, key="Ref", on_conflict="update")
    event = cal.events.get(created.ids[0])
    assert (["unchanged"], ["updated"], "Asia/Tokyo", "2031-05-01 20:00:00") == (
        [row.outcome for row in kept.rows],
        [row.outcome for row in moved.rows],
        event.timezone,
        event.start_date.strftime("%Y-%m-%d %H:%M:%S"),
    )


def test_a_key_column_follows_a_renamed_event(cal: ec.Calendar, tmp_path: Path) -> None:
    """With key="Ref", a row whose title changed updates its event instead of adding one."""
    text = "Ref,Event Name,Event Start Date\nA-1,Gala,2031-05-01\n"
    first = cal.import_file(_file(tmp_path, text), key="Ref")
    second = cal.import_file(
        _file(tmp_path, text.replace("Gala", "Grand Gala")), key="Ref", on_conflict="update"
    )
    assert (first.ids, ["Grand Gala"]) == (second.ids, _titles(cal))


def test_a_trashed_match_is_created_again(cal: ec.Calendar) -> None:
    """A key naming an event in the trash matches nothing: the row makes a new event."""
    first = import_rows(cal, [SourceRow("UID a", "event", _event("Gala"), key="uid:a@x")])
    cal.events.delete(first.ids[0])
    second = import_rows(cal, [SourceRow("UID a", "event", _event("Gala"), key="uid:a@x")])
    assert (1, {"uid:a@x": second.ids[0]}) == (second.created, cal.backend.import_keys("event"))


def test_status_sets_the_status_of_imported_events(cal: ec.Calendar, tmp_path: Path) -> None:
    """status="draft" imports the season as drafts."""
    report = cal.import_file(_file(tmp_path, SEASON), status="draft")
    assert [ec.Status.DRAFT, ec.Status.DRAFT] == [cal.events.get(i).status for i in report.ids]


def test_venue_and_organizer_files(cal: ec.Calendar, tmp_path: Path) -> None:
    """Venue and organizer CSVs create records, matched by name on a re-import."""
    venues = _file(tmp_path, "Venue Name,Venue City\nHall,Lyon\nBarn,Paris\n", "v.csv")
    people = _file(tmp_path, "Organizer Name,Organizer Email\nAnn,ann@example.org\n", "o.csv")
    summaries = [
        cal.import_file(venues, kind="venues").summary(),
        cal.import_file(people, kind="organizer").summary(),
        cal.import_file(venues, kind="venue").summary(),
    ]
    assert [
        "created 2, updated 0, unchanged 0, refused 0",
        "created 1, updated 0, unchanged 0, refused 0",
        "created 0, updated 0, unchanged 2, refused 0",
    ] == summaries


def test_a_venue_row_answered_with_one_that_exists_is_not_created(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A row that names a venue the calendar has (the same name, any case, and values) is
    that venue, unchanged, as a key match is; one that differs from it only in the status
    it asks for is left alone with ``skip`` and updated with ``update``. Each was reported
    created."""
    cal.venues.create(venue="Hall", city="Lyon")
    barn_id = cal.venues.create(venue="Barn", status="draft").id
    rows = "Venue Name,Venue City\nhall,Lyon\nAnnex,\nannex,\n"
    first = cal.import_file(_file(tmp_path, rows, "v.csv"), kind="venue")
    barn = _file(tmp_path, "Venue Name\nBarn\n", "b.csv")
    skipped = cal.import_file(barn, kind="venue", status="publish")
    updated = cal.import_file(barn, kind="venue", status="publish", on_conflict="update")
    assert (
        "created 1, updated 0, unchanged 2, refused 0",
        "created 0, updated 0, unchanged 1, refused 0",
        "created 0, updated 1, unchanged 0, refused 0",
        ["Annex", "Barn", "Hall"],
        ec.Status.PUBLISH,
    ) == (
        first.summary(),
        skipped.summary(),
        updated.summary(),
        sorted(v.venue for v in cal.venues.list(status="any").items),
        cal.venues.get(barn_id).status,
    )


def test_an_empty_file_imports_nothing_and_says_so(cal: ec.Calendar, tmp_path: Path) -> None:
    """A header and no rows: nothing imported, one note."""
    report = cal.import_file(_file(tmp_path, HEADER))
    assert [
        "no events found in the file; nothing imported",
        "created 0, updated 0, unchanged 0, refused 0",
    ] == report.lines()


def test_an_export_imports_again_unchanged(cal: ec.Calendar, tmp_path: Path) -> None:
    """CSV out, CSV in: every row matches its event and nothing differs."""
    cal.import_file(_file(tmp_path, SEASON))
    cal.events.create(**_event("Fair", "2031-06-01", all_day=True, tags=["outdoor"]))
    written = cal.export_file(tmp_path / "out.csv")
    report = cal.import_file(tmp_path / "out.csv", on_conflict="update")
    assert (3, "created 0, updated 0, unchanged 3, refused 0") == (written, report.summary())


def test_an_export_fills_an_empty_calendar_alike(cal: ec.Calendar, tmp_path: Path) -> None:
    """An export imported into another calendar gives the same events, links by name."""
    cal.import_file(_file(tmp_path, SEASON))
    cal.export_file(tmp_path / "out.csv")
    other = ec.connect("memory://", clock=ec.FixedClock(NOW))
    other.import_file(tmp_path / "out.csv")

    def shape(c: ec.Calendar) -> list[tuple[str, str, str, list[str]]]:
        page = c.events.list(start_date="2030-01-01")
        related = c.events.related(page.items)
        return [
            (
                e.title,
                str(e.start_date),
                related.venues_of(e)[0].venue,
                [t.name for t in related.categories_of(e)],
            )
            for e in page.items
        ]

    assert shape(cal) == shape(other)


@pytest.mark.parametrize("name", ["season.csv", "feed.ics", "missing.csv"])
def test_status_trash_is_refused_before_the_file_is_read(
    cal: ec.Calendar, tmp_path: Path, name: str
) -> None:
    """``status="trash"`` would put every record in the trash, where no re-import finds it
    (each run adds another copy): refused naming ``status``, before the file is opened."""
    path = tmp_path / name
    if name != "missing.csv":
        path.write_text(SEASON if name.endswith(".csv") else "BEGIN:VCALENDAR\n", "utf-8")
    with pytest.raises(InvalidParameter) as caught:
        cal.import_file(path, status="trash")
    assert (
        {
            "status": "'trash' is not a status an import gives (a later import would not find "
            "a record put in the trash, and would add another copy); send one of publish, "
            "future, draft, pending, private"
        },
        0,
    ) == (caught.value.fields, cal.events.list(status="trash").total)


def test_a_status_cell_of_trash_refuses_its_row(cal: ec.Calendar, tmp_path: Path) -> None:
    """An ``Event Status`` cell of ``trash`` (any case) is that row's refusal, naming the
    cell, so a partial import run twice leaves no record in the trash; ``status=`` wins
    over the column, as for any other status."""
    path = _file(
        tmp_path,
        "Event Name,Event Start Date,Event Status\n"
        "Gala,2031-05-01 19:00,trash\nFair,2031-05-02 10:00,Trash\nTalk,2031-05-03 18:00,draft\n",
    )
    first = cal.import_file(path, partial=True)
    again = cal.import_file(path, partial=True)
    assert (
        [
            "line 2: refused: Event Status: 'trash' is not a status an import gives (a later "
            "import would not find a record put in the trash, and would add another copy); "
            "write publish, future, draft, pending or private",
            "line 3: refused: Event Status: 'Trash' is not a status an import gives (a later "
            "import would not find a record put in the trash, and would add another copy); "
            "write publish, future, draft, pending or private",
            "created 1, updated 0, unchanged 0, refused 2",
        ],
        "created 0, updated 0, unchanged 1, refused 2",
        0,
    ) == (first.lines(), again.summary(), cal.events.list(status="trash").total)
    forced = cal.import_file(path, status="draft", on_conflict="update")
    assert "created 2, updated 0, unchanged 1, refused 0" == forced.summary()


def test_a_status_cell_that_is_no_status_names_its_cell(cal: ec.Calendar, tmp_path: Path) -> None:
    """A status cell that is no status is refused naming the cell and the five statuses an
    import gives (not the trash)."""
    path = _file(tmp_path, "Venue Name,Venue Status\nHall,open\n")
    assert [
        "line 2: refused: Venue Status: 'open' is not a status; write publish, future, draft, "
        "pending or private"
    ] == cal.import_file(path, kind="venue").lines()[:1]


def test_a_stopped_report_explains_itself_in_its_repr() -> None:
    """``repr`` gives the counts, then why nothing was written."""
    report = ImportReport(
        kind="event",
        rows=(RowOutcome("line 2", "created"), RowOutcome("line 3", "refused", reason="bad")),
        stopped=True,
    )
    assert (
        "<ImportReport events: created 0, updated 0, unchanged 0, refused 1; nothing written: "
        "1 good rows wait for partial=True (--partial)>"
    ) == repr(report)


@pytest.mark.parametrize("dry_run", [False, True], ids=["import", "dry run"])
def test_a_stopped_report_with_no_good_row_names_no_partial(dry_run: bool) -> None:
    """When every row but the refused ones is unchanged (or there is none), partial=True
    would write nothing either, so the explanation does not send the reader to it."""
    report = ImportReport(
        kind="event",
        rows=(RowOutcome("line 2", "unchanged", 4), RowOutcome("line 3", "refused", reason="x")),
        dry_run=dry_run,
        stopped=True,
    )
    expected = (
        "dry run: nothing written; the import would write nothing either"
        if dry_run
        else "nothing written"
    )
    assert (expected, 0) == (report.explanation(), report.held_back)


def test_a_dry_run_of_a_file_of_refused_rows_names_no_partial(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A dry run of a file whose every row is refused: nothing to hold back, no --partial."""
    path = _file(tmp_path, "Event Name,Event Start Date\nBroken,someday\n")
    report = cal.import_file(path, dry_run=True)
    assert [
        "dry run: nothing written; the import would write nothing either",
        "created 0, updated 0, unchanged 0, refused 1",
    ] == report.lines()[1:]


def test_the_report_shows_in_one_line_and_in_jupyter() -> None:
    """``repr`` is one line; ``_repr_html_`` a table of counts and refused rows."""
    report = ImportReport(
        kind="event",
        rows=(RowOutcome("line 2", "created", 5), RowOutcome("line 3", "refused", reason="<bad>")),
    )
    assert (
        "<ImportReport events: created 1, updated 0, unchanged 0, refused 1>",
        "<table><caption>import of events</caption><tr><th>created</th><th>updated</th>"
        "<th>unchanged</th><th>refused</th></tr><tr><td>1</td><td>0</td><td>0</td><td>1</td>"
        "</tr></table><table><tr><th>row</th><th>refused because</th></tr><tr><td>line 3</td>"
        "<td>&lt;bad&gt;</td></tr></table>",
    ) == (repr(report), report._repr_html_())


def test_an_import_leaves_the_cycle_collector_as_it_found_it(cal: ec.Calendar) -> None:
    """The collector paused for an import runs again after it, also after a failure."""
    import_rows(cal, [SourceRow("line 2", "event", _event("Gala"))])
    with pytest.raises(ec.errors.Forbidden, match="may not create events"):
        import_rows(cal.as_user(None), [SourceRow("line 2", "event", _event("Fair"))])
    assert gc.isenabled()


def _organizers_of_gala(cal: ec.Calendar, tmp_path: Path, cell: str) -> list[str]:
    header = "Event Name,Event Start Date,Event Organizer Name(s) or ID(s)\n"
    report = cal.import_file(_file(tmp_path, f'{header}Gala,2031-05-01,"{cell}"\n'))
    gala = cal.events.get(report.ids[0])
    return [cal.organizers.get(i).organizer for i in gala.organizer]


def test_an_organizer_cell_mixes_ids_and_names(cal: ec.Calendar, tmp_path: Path) -> None:
    """``<id>, Bob``: the number is the organizer of that id, the name a name; no organizer
    is named after the number."""
    ann = cal.organizers.create(organizer="Ann")
    linked = _organizers_of_gala(cal, tmp_path, f"{ann.id}, Bob")
    assert (["Ann", "Bob"], ["Ann", "Bob"]) == (
        linked,
        sorted(o.organizer for o in cal.organizers.list().items),
    )


def test_a_number_naming_no_organizer_is_a_name(cal: ec.Calendar, tmp_path: Path) -> None:
    """In a cell of numbers, one that is no organizer's id is an organizer's name, as the
    reference's importer reads each item."""
    ann = cal.organizers.create(organizer="Ann")
    assert ["Ann", "990"] == _organizers_of_gala(cal, tmp_path, f"{ann.id} 990")


def test_a_name_of_non_ascii_digits_is_a_name(cal: ec.Calendar, tmp_path: Path) -> None:
    """A category called "²" (a digit to ``str.isdigit``, not to ``int``) is created by name,
    not read as an id, and never crashes the import."""
    path = _file(tmp_path, "Event Name,Event Start Date,Event Category\nGala,2031-05-01,²\n")
    report = cal.import_file(path)
    assert (1, ["²"]) == (
        report.created,
        [c.name for c in cal.categories.list(hide_empty=False).items],
    )


def test_progress_counts_every_row_settled_not_only_the_created(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A progress callable reaches the file's row count whether its rows are created,
    found unchanged, updated or only checked in a dry run (a re-import that changed
    nothing showed no progress at all)."""
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        + "".join(f"Show {n},2031-05-{n % 28 + 1:02d},10:00,11:00\n" for n in range(30))
    )
    last = []
    for options in ({}, {"on_conflict": "update"}, {"dry_run": True}):
        calls: list[tuple[int, int | None]] = []
        cal.import_file(
            path, progress=lambda done, total, seen=calls: seen.append((done, total)), **options
        )
        last.append(calls[-1] if calls else None)
    assert [(30, 30)] * 3 == last


def test_a_cancelled_event_stays_a_draft_whatever_the_status(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """``status=`` sets the status of a file's events, but not of one its source cancelled:
    that stays a draft, never shown publicly, on create and on update."""
    vevent = (
        "BEGIN:VEVENT\r\nUID:{uid}\r\nSUMMARY:{uid}\r\nDTSTART:20310501T190000Z\r\n"
        "{more}END:VEVENT\r\n"
    )
    path = _file(
        tmp_path,
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        + vevent.format(uid="called-off", more="STATUS:CANCELLED\r\n")
        + vevent.format(uid="on", more="STATUS:CONFIRMED\r\n")
        + "END:VCALENDAR\r\n",
        "feed.ics",
    )
    created = cal.import_file(path, status="publish")
    cal.events.update(created.ids[0], status="publish")  # published by hand since
    updated = cal.import_file(path, status="private", on_conflict="update")
    statuses = [cal.events.get(i).status for i in created.ids]
    assert ([ec.Status.DRAFT, ec.Status.PRIVATE], ["updated", "updated"]) == (
        statuses,
        [row.outcome for row in updated.rows],
    )


def test_a_csv_export_of_an_event_with_several_venues_imports_back_unchanged(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A row names one venue, the event's first: imported again, it is one of the event's
    venues, so they stay as they are (no venue named "Hall, Club", no link replaced)."""
    hall, club = (cal.venues.create(venue=name).id for name in ("Hall", "Club"))
    event = cal.events.create(**_event("Gala"), venue=[hall, club])
    cal.export_file(tmp_path / "export.csv")
    again = cal.import_file(tmp_path / "export.csv", on_conflict="update")
    assert (["unchanged"], (hall, club), ["Club", "Hall"]) == (
        [row.outcome for row in again.rows],
        cal.events.get(event.id).venue,
        sorted(v.venue for v in cal.venues.list(status="any").items),
    )


def test_a_csv_export_of_a_description_past_128_kib_imports_back(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A cell longer than the csv module's default limit (128 KiB) reads: the calendar's
    own export of a long description imports back unchanged, and the process's limit is
    left as it was."""
    limit = csv.field_size_limit()
    long = ("word " * 40_000).strip()
    cal.events.create(**_event("Long"), description=long)
    cal.events.create(**_event("Lines", "2031-05-02 19:00"), description=(long + "\n") * 2)
    cal.export_file(tmp_path / "export.csv")
    again = cal.import_file(tmp_path / "export.csv", on_conflict="update")
    assert (["unchanged", "unchanged"], limit) == (
        [row.outcome for row in again.rows],
        csv.field_size_limit(),
    )


def test_a_cell_past_the_cell_limit_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The cell limit still bounds a cell spanning lines: one ``UnreadableFile``."""
    monkeypatch.setattr(csv_read, "MAX_CELL", 200_000)
    text = 'Event Name,Event Start Date,Event Description\nA,2031-05-01,"' + "x\n" * 150_000 + '"\n'
    cal = ec.connect("memory://")
    with pytest.raises(UnreadableFile, match="line 2: field larger than field limit"):
        cal.import_file(_file(tmp_path, text))


def test_a_key_column_spelt_another_way_finds_the_same_events(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """``key="ID"`` and ``key="id"`` name one column, as headers match ignoring case: the
    second import finds the events the first made, rather than making them again."""
    path = _file(tmp_path, "ID,Event Name,Event Start Date\nA-1,Gala,2031-05-01\n")
    first = cal.import_file(path, key="ID")
    again = cal.import_file(path, key="id")
    assert (["unchanged"], first.ids, ["Gala"]) == (
        [row.outcome for row in again.rows],
        tuple(row.record_id for row in again.rows),
        _titles(cal),
    )


def test_a_key_stored_under_its_typed_name_is_still_found(cal: ec.Calendar, tmp_path: Path) -> None:
    """Keys stored before the column name was normalised (``csv:ID:A-1``) are found by a
    re-import spelt the same, and then stored in the normalised form too, so any spelling
    finds them afterwards."""
    gala = cal.events.create(**_event("Gala"))
    cal.backend.set_import_keys("event", {"csv:ID:A-1": gala.id})  # as an earlier version did
    path = _file(tmp_path, "ID,Event Name,Event Start Date\nA-1,Renamed,2031-05-01\n")
    same = cal.import_file(path, key="ID")
    other = cal.import_file(path, key="Event id", on_conflict="update")
    assert (["unchanged"], ["updated"], (gala.id,), ["Renamed"]) == (
        [row.outcome for row in same.rows],
        [row.outcome for row in other.rows],
        other.ids,
        _titles(cal),
    )
