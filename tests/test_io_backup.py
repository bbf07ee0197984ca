"""JSON backups: a whole calendar out and back into an empty one loses nothing."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.errors import InvalidParameter
from events_calendar.io import UnreadableFile
from events_calendar.records import KINDS
from events_calendar.slugs import slugify
from events_calendar.testing import NOW
from events_calendar.testing.contract_record_base import make_event
from events_calendar.testing.postgres import TestDatabase, server_url
from test_transfer import _everything, _filled

_names = st.text(alphabet="abcdé XYZ-", min_size=1, max_size=12).filter(str.strip)
_event = st.fixed_dictionaries(
    {
        "title": _names,
        "day": st.integers(0, 400),
        "hours": st.integers(0, 30),
        "status": st.sampled_from(["publish", "draft", "private", "pending"]),
        "featured": st.booleans(),
        "all_day": st.booleans(),
        "venue": st.none() | st.integers(0, 2),
        "categories": st.lists(st.sampled_from(["Music", "Jazz", "Kids"]), max_size=2),
        "tags": st.lists(st.sampled_from(["evening", "free"]), max_size=2),
        "rename": st.booleans(),
        "trash": st.booleans(),
        "uid": st.none() | st.text(alphabet="abc123@.", min_size=1, max_size=8),
    }
)
_calendar = st.fixed_dictionaries(
    {
        "venues": st.lists(_names, min_size=3, max_size=3),
        # Distinct slugs: trashing a second event of a slug the trash already holds (as
        # "<slug>__trashed") is refused by the calendar, a separate matter.
        "events": st.lists(_event, max_size=6, unique_by=lambda e: slugify(e["title"])),
        "users": st.lists(st.sampled_from(["editor", "author"]), max_size=2),
    }
)


def _build(cal: ec.Calendar, spec: dict[str, object]) -> None:
    """A calendar from a generated description: statuses, links, renames, trash, users."""
    venues = [cal.venues.create(venue=name, city="Lyon").id for name in spec["venues"]]  # type: ignore[attr-defined]
    keys: dict[str, int] = {}
    for n, event in enumerate(spec["events"]):  # type: ignore[attr-defined]
        start = NOW + timedelta(days=event["day"], hours=event["hours"])
        made = cal.events.create(
            title=event["title"],
            start_date=start,
            end_date=start + timedelta(hours=2),
            status=event["status"],
            featured=event["featured"],
            all_day=event["all_day"],
            venue=[] if event["venue"] is None else [venues[event["venue"]]],
            categories=event["categories"],
            tags=event["tags"],
        )
        if event["rename"]:
            cal.events.update(made.id, slug=f"renamed-{n}")
        if event["trash"]:
            cal.events.delete(made.id)
        if event["uid"]:
            keys[f"uid:{event['uid']}"] = made.id
    cal.backend.set_import_keys("event", keys)
    for n, role in enumerate(spec["users"]):  # type: ignore[attr-defined]
        cal.users.create(f"user{n}", role=role)
        cal.users.issue_token(f"user{n}")


def _all(cal: ec.Calendar) -> dict[str, object]:
    """Everything ``copy_calendar``'s test compares, and every kind's former slugs and keys."""
    backend = cal.backend
    return _everything(cal) | {
        "every alias": {kind: backend.slug_aliases(kind) for kind in KINDS},
        "keys": {kind: backend.import_keys(kind) for kind in KINDS},
    }


@pytest.fixture(scope="module")
def postgres() -> Iterator[tuple[TestDatabase, TestDatabase]]:
    """Two databases on the test server: the source and the restored copy."""
    server = server_url()
    pair = (TestDatabase(server), TestDatabase(server))
    yield pair
    for database in pair:
        database.drop()


@pytest.fixture(scope="module", params=["memory", "sqlite", "postgres"])
def opener(request: pytest.FixtureRequest) -> Callable[[int], ec.Calendar]:
    """Opens calendar 0 (the source) or 1 (the target), empty, on one kind of backend (a
    factory: each hypothesis example opens its own)."""

    def open_calendar(which: int) -> ec.Calendar:
        if request.param == "memory":
            url = "memory://"
        elif request.param == "sqlite":
            url = "sqlite://"
        else:
            database = request.getfixturevalue("postgres")[which]
            database.reset()
            url = database.url
        return ec.connect(url, clock=ec.FixedClock(NOW))

    return open_calendar


@given(spec=_calendar)
def test_a_backup_restores_exactly_into_an_empty_calendar(
    opener: Callable[[int], ec.Calendar], spec: dict[str, object]
) -> None:
    """Backup, then import into an empty calendar of the same backend: nothing is lost."""
    with opener(0) as source, opener(1) as target, tempfile.TemporaryDirectory() as folder:
        _build(source, spec)
        path = Path(folder) / "backup.json"
        source.export_file(path)
        report = target.import_file(path)
        assert (0, _all(source)) == (report.refused, _all(target))


def test_a_backup_of_long_slugs_in_and_out_of_the_trash_restores(
    opener: Callable[[int], ec.Calendar], tmp_path: Path
) -> None:
    """Records whose slugs were cut in the trash, trashed or restored, restore exactly (a
    slug restored as ``...__trash-2`` made the backup unreadable)."""
    with opener(0) as source, opener(1) as target:
        made = [make_event(source, "x" * 300) for _ in range(4)]
        source.events.delete_many([record.id for record in made])
        source.events.update_many([made[1].id, made[3].id], status="publish")
        source.export_file(tmp_path / "b.json")
        report = target.import_file(tmp_path / "b.json")
        assert (0, _all(source)) == (report.refused, _all(target))


def test_a_backup_holds_hashed_secrets_and_former_slugs(tmp_path: Path) -> None:
    """The file carries credential digests and former slugs (a rename, the trash)."""
    cal = _filled("memory://")
    cal.export_file(tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    digest = cal.backend.credentials(1)[0].secret_hash
    assert (digest, {"gala": 3, "old": 5}) == (
        data["credentials"][0]["secret_hash"],
        data["slug_aliases"]["event"],
    )


def test_a_backup_merges_into_a_calendar_with_data_by_slug(tmp_path: Path) -> None:
    """Into a calendar with data, a backup's venues, organizers and events (not its trash)
    are matched by slug: a second import of the same backup changes nothing."""
    source = _filled("memory://")
    source.export_file(tmp_path / "b.json")
    target = ec.connect("memory://", clock=ec.FixedClock(NOW))
    target.venues.create(venue="Already Here")
    first = target.import_file(tmp_path / "b.json")
    second = target.import_file(tmp_path / "b.json", on_conflict="update")
    assert [
        "created 4, updated 0, unchanged 0, refused 0",
        "created 0, updated 0, unchanged 4, refused 0",
    ] == [first.summary(), second.summary()]


def _copy_then_rename(tmp_path: Path) -> tuple[ec.Calendar, ec.Calendar, int]:
    """A calendar, a copy of it (the same identity: a restored backup), and the id of an
    event the original renamed after the copy, so the copy knows neither its new slug nor
    the former one; the original's backup is in ``after.json``."""
    source = ec.connect("memory://", clock=ec.FixedClock(NOW))
    gala = source.events.create(
        title="Gala", start_date="2031-05-01 19:00", end_date="2031-05-01 23:00"
    )
    source.export_file(tmp_path / "before.json")
    copy = ec.connect("memory://", clock=ec.FixedClock(NOW))
    copy.import_file(tmp_path / "before.json")
    source.events.update(gala.id, slug="grand-gala")
    source.export_file(tmp_path / "after.json")
    return source, copy, gala.id


def test_a_backup_of_this_calendar_merges_by_id_first(tmp_path: Path) -> None:
    """A record of the calendar's own backup whose slug changed is found by its id: updated,
    not duplicated."""
    _, copy, gala_id = _copy_then_rename(tmp_path)
    report = copy.import_file(tmp_path / "after.json", on_conflict="update")
    events = copy.events.list(start_date="2031-01-01", end_date="2032-01-01").items
    assert ("created 0, updated 1, unchanged 0, refused 0", [(gala_id, "grand-gala")]) == (
        report.summary(),
        [(e.id, e.slug) for e in events],
    )


def test_a_backup_merged_into_its_own_calendar_changes_nothing(tmp_path: Path) -> None:
    """Every row of the calendar's own backup, merged with updates, is unchanged: an event
    whose website was never set (``null`` in the backup; its permalink on the wire) keeps
    it unset, not cleared to ``""``."""
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    plain = cal.events.create(
        title="Plain", start_date="2031-05-02 19:00", end_date="2031-05-02 23:00"
    )
    cal.export_file(tmp_path / "own.json")
    report = cal.import_file(tmp_path / "own.json", on_conflict="update")
    assert ("created 0, updated 0, unchanged 1, refused 0", plain) == (
        report.summary(),
        cal.events.get(plain.id),
    )


def test_an_id_and_a_slug_naming_two_records_refuse_the_row(tmp_path: Path) -> None:
    """The id names one event and the slug another: the row could be either, so it is
    refused with both named."""
    _, copy, gala_id = _copy_then_rename(tmp_path)
    other = copy.events.create(
        title="Grand gala", start_date="2031-06-01 19:00", end_date="2031-06-01 23:00"
    )
    report = copy.import_file(tmp_path / "after.json", on_conflict="update")
    assert [
        f"event {gala_id}: refused: its id names event {gala_id} ('gala') but its slug "
        f"'grand-gala' names event {other.id}; change one of the two slugs and import again"
    ] == [row.line() for row in report.refusals]


def test_a_backup_carries_the_calendar_identity(tmp_path: Path) -> None:
    """The restored calendar has the source's identity; a backup without one (written before
    identities were kept) restores with the target's own."""
    source = _filled("memory://")
    source.export_file(tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    restored = ec.connect("memory://", clock=ec.FixedClock(NOW))
    restored.import_file(tmp_path / "b.json")
    del data["calendar_identity"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    older = ec.connect("memory://", clock=ec.FixedClock(NOW))
    own = older.backend.calendar_identity()
    report = older.import_file(tmp_path / "old.json")
    assert (source.backend.calendar_identity(), 9, own) == (
        restored.backend.calendar_identity(),
        report.created,
        older.backend.calendar_identity(),
    )


def test_a_backup_with_a_malformed_identity_is_unreadable(tmp_path: Path) -> None:
    """An identity that is not 16 lowercase hex digits: one sentence, nothing written."""
    source = _filled("memory://")
    source.export_file(tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    data["calendar_identity"] = "X" * 16
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    cal = ec.connect("memory://")
    own = cal.backend.calendar_identity()
    with pytest.raises(UnreadableFile, match="its calendar_identity is not 16 lowercase hex"):
        cal.import_file(tmp_path / "b.json")
    assert ((), own) == (cal.events.list(status="any").items, cal.backend.calendar_identity())


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda d: d["records"]["tag"][0].update(name=None), "tag number 1 is not valid"),
        (lambda d: d["records"]["tag"][0].update(description=5), "tag number 1 is not valid"),
        (lambda d: _event(d, 4).update(description=None), "event number"),
    ],
    ids=["null-name", "number-description", "null-description"],
)
def test_a_backup_field_of_text_holding_no_text_is_unreadable(
    tmp_path: Path, edit: Callable[[dict[str, Any]], object], why: str
) -> None:
    """A text field holding ``null`` or a number is no backup the calendar wrote: it was
    restored as the text ``"None"`` or ``"5"``."""
    cal = ec.connect("memory://")
    with pytest.raises(UnreadableFile, match=why):
        cal.import_file(_edited_backup(tmp_path, edit))
    assert () == cal.tags.list(hide_empty=False).items


def test_a_filtered_json_export_is_refused(tmp_path: Path) -> None:
    """A backup is the whole calendar: filters are for CSV and iCalendar."""
    cal = ec.connect("memory://")
    with pytest.raises(InvalidParameter, match="a JSON backup holds the whole calendar"):
        cal.export_file(tmp_path / "b.json", featured=True)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"{not json", "it is not JSON (line 1, column 2: Expecting property name"),
        (b'{"format": "other"}', "it is JSON but no calendar backup"),
        (b"\xef\xbb\xbf{\xe9}", "it is not UTF-8 text; a backup is a JSON file"),
        ("{}".encode("utf-16"), "it is UTF-16 text, not UTF-8; save it as UTF-8"),
    ],
    ids=["not-json", "not-a-backup", "encoding", "utf-16"],
)
def test_a_file_that_is_no_backup_is_unreadable(tmp_path: Path, data: bytes, why: str) -> None:
    """One sentence, no traceback, nothing written."""
    path = tmp_path / "b.json"
    path.write_bytes(data)
    cal = ec.connect("memory://")
    with pytest.raises(UnreadableFile, match=re.escape(why)):
        cal.import_file(path)


def _event(data: dict[str, Any], event_id: int) -> dict[str, Any]:
    return next(e for e in data["records"]["event"] if e["id"] == event_id)


#: A hostile edit of ``_filled``'s backup, and the place and problem its refusal names.
_HOSTILE: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "end-before-start": (
        lambda d: _event(d, 4).update(end_date="2031-05-02T18:00:00+00:00"),
        "event 4: end_date: send an end on or after the start",
    ),
    "nul-in-title": (
        lambda d: _event(d, 4).update(title="A\x00B"),
        "event 4: title: not valid text: it holds a NUL character or a lone surrogate",
    ),
    "lone-surrogate": (
        lambda d: d["users"][0].update(display_name="A\ud800"),
        "user 1: display_name: not valid text",
    ),
    "category-cycle": (
        lambda d: d["records"]["category"][0].update(parent=2),
        "category 1: parent: the categories 1, 2 are each other's parents (a cycle)",
    ),
    "missing-parent": (
        lambda d: d["records"]["category"][1].update(parent=9),
        "category 2: parent: names no category of the backup (9)",
    ),
    "missing-link": (
        lambda d: _event(d, 3).update(venue=[7]),
        "event 3: venue: names no venue of the backup (7)",
    ),
    "shared-post-id": (
        lambda d: _event(d, 4).update(id=1, post_parent=0),
        "event 1: id: venue 1 has this id too",
    ),
    "id-zero": (
        lambda d: _event(d, 5).update(id=0),
        "event 0: id: not a positive id",
    ),
    "credential-of-no-user": (
        lambda d: d["credentials"][0].update(user_id=9),
        "credential 1: user_id: names no user of the backup (9)",
    ),
    "script-website": (
        lambda d: _event(d, 4).update(website="javascript:alert(1)"),
        "event 4: website: send an absolute http(s) URL",
    ),
    "not-a-slug": (
        lambda d: _event(d, 4).update(slug="Not A Slug!"),
        "event 4: slug: not a slug as the calendar makes them",
    ),
    "empty-slug": (
        lambda d: d["records"]["tag"][0].update(slug=""),
        "tag 3: slug: not a slug as the calendar makes them",
    ),
    "empty-venue-name": (
        lambda d: d["records"]["venue"][0].update(venue=" "),
        "venue 1: venue: send a non-empty text",
    ),
    "private-image": (
        lambda d: _event(d, 4).update(image="http://127.0.0.1/a.png"),
        "event 4: image: send the URL of an image the public can load",
    ),
    "not-an-email": (
        lambda d: d["records"]["organizer"][0].update(email="ann"),
        "organizer 2: email: send an email address",
    ),
    "login-with-a-space": (
        lambda d: d["users"][0].update(login="ann lee"),
        "user 1: login: send a non-empty login without spaces or NUL characters",
    ),
    "former-slug-of-nothing": (
        lambda d: d["slug_aliases"]["event"].update(gone=99),
        "slug_aliases.event.'gone': names no event of the backup (99)",
    ),
}


def _edited_backup(tmp_path: Path, edit: Callable[[dict[str, Any]], object]) -> Path:
    """``_filled``'s backup with ``edit`` applied."""
    _filled("memory://").export_file(tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    edit(data)
    (tmp_path / "edited.json").write_text(json.dumps(data), encoding="utf-8")
    return tmp_path / "edited.json"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def empty(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    """An empty calendar on each kind of backend."""
    if request.param == "postgres":
        database = request.getfixturevalue("postgres")[1]
        database.reset()
        url = database.url
    else:
        url = f"{request.param}://"
    with ec.connect(url, clock=ec.FixedClock(NOW)) as cal:
        yield cal


@pytest.mark.parametrize("case", list(_HOSTILE))
def test_a_bad_backup_is_refused_before_a_restore_writes(
    tmp_path: Path, empty: ec.Calendar, case: str
) -> None:
    """A backup no calendar could hold is one ``UnreadableFile`` naming the place, the
    same on every backend: nothing written, and the calendar works as before."""
    edit, why = _HOSTILE[case]
    path = _edited_backup(tmp_path, edit)
    identity = empty.backend.calendar_identity()
    with pytest.raises(UnreadableFile) as refused:
        empty.import_file(path)
    backend = empty.backend
    after = (
        [backend.last_id(family) for family in ("post", "term", "user", "credential")],
        backend.list_users(),
        backend.calendar_identity(),
    )
    made = empty.events.create(title="N", start_date="2031-01-01", end_date="2031-01-01")
    named = refused.value.why
    assert (str(path), True, ([0, 0, 0, 0], [], identity), 1) == (
        refused.value.path,
        named.startswith("it holds what no calendar can: ") and why in named,
        after,
        made.id,
    )


def test_a_dry_run_of_a_bad_restore_is_refused_too(tmp_path: Path) -> None:
    """A dry run says a bad backup would not restore, as the restore would."""
    path = _edited_backup(tmp_path, _HOSTILE["end-before-start"][0])
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    with pytest.raises(UnreadableFile, match="event 4: end_date: send an end on or after"):
        cal.import_file(path, dry_run=True)


def test_a_bad_backup_merged_refuses_its_bad_rows_alone(tmp_path: Path) -> None:
    """Into a calendar with data the backup is merged row by row, each checked as any
    import's: a bad event is one refused row, not a refused file."""
    path = _edited_backup(tmp_path, _HOSTILE["nul-in-title"][0])
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    cal.venues.create(venue="Already Here")
    report = cal.import_file(path, partial=True)
    assert ["event 4"] == [row.where for row in report.refusals]


def test_sequences_behind_the_ids_are_raised_to_them(tmp_path: Path, empty: ec.Calendar) -> None:
    """A backup whose sequences lag its ids restores, each raised to its family's highest
    id (a higher one is kept): the next create gets a free id, not ``Id 1 is taken``."""
    counts = {"post": 0, "term": 0, "user": 0, "credential": 7}
    path = _edited_backup(tmp_path, lambda d: d["sequences"].update(counts))
    empty.import_file(path)
    backend = empty.backend
    restored = [backend.last_id(family) for family in ("post", "term", "user", "credential")]
    made = (
        empty.events.create(title="N", start_date="2031-01-01", end_date="2031-01-01").id,
        empty.categories.create(name="New").id,
        empty.users.create("new", role="editor").id,
    )
    assert ([5, 4, 1, 7], (6, 5, 2)) == (restored, made)


def test_every_bad_field_is_named_at_once(tmp_path: Path) -> None:
    """One refusal names each place, as a write's error names each bad field."""
    edits = [_HOSTILE[case][0] for case in ("script-website", "not-a-slug", "empty-venue-name")]
    path = _edited_backup(tmp_path, lambda d: [edit(d) for edit in edits])
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    with pytest.raises(UnreadableFile) as refused:
        cal.import_file(path)
    named = refused.value.why
    assert [True] * 3 == [
        _HOSTILE[case][1] in named for case in ("script-website", "not-a-slug", "empty-venue-name")
    ]


def _every_field(cal: ec.Calendar) -> None:
    """Every field of every kind set, with the values writes change on the way in (a
    cost, an offset zone, markup an author's rights clean), trash twice over, and the
    sample calendar."""
    from events_calendar.sample import seed_sample

    seed_sample(cal)
    author = cal.users.create("writer", role="author")
    hall = cal.venues.create(
        venue="Salle <b>Pleyel</b>",
        address="252 rue",
        city="Paris",
        country="France",
        province="IdF",
        state="",
        zip="75008",
        phone="+33 1",
        website=" https://pleyel.fr ",
        show_map=False,
        show_map_link=False,
        image="https://example.org/hall.webp",
        description="<p>Hall</p>",
        excerpt="x",
    )
    ann = cal.organizers.create(
        organizer="Ann", phone="1", website="http://ann.example", email="ann@example.org"
    )
    cal.organizers.create(organizer="Draft", status="draft")
    cal.categories.create(name="Arts & Crafts", slug="Arts Crafts", description="d")
    made = cal.as_user(author).events.create(
        title="Hall<script>x</script>",
        description="<p>a</p>\r\n<script>b</script>",
        start_date="2031-05-01 19:00",
        end_date="2031-05-02 01:00",
        timezone="UTC+5:30",
        cost="€5,50",
        website="https://e.example/?a=1#b",
        all_day=False,
        show_map=True,
        featured=True,
        sticky=True,
        hide_from_listings=True,
        venue=[hall.id],
        organizer=[ann.id],
        categories=["Arts Crafts"],
        tags=["Été"],
        password="pw",
    )
    for _ in range(2):  # "<slug>__trashed", then "<slug>__trashed-2"
        again = cal.events.create(title=made.title, start_date="2031-06-01", end_date="2031-06-01")
        cal.events.delete(again.id)
    cal.events.update(again.id, status="draft")  # out of the trash, its slug kept
    cal.events.delete(again.id)  # and in again: "<slug>__trashed-2__trashed"


def test_a_backup_of_every_field_and_the_sample_restores_byte_identical(tmp_path: Path) -> None:
    """The field rules refuse nothing a calendar holds: a backup of every field type and
    of the sample calendar restores, and the restored calendar's backup is the same bytes."""
    source = ec.connect("memory://", clock=ec.FixedClock(NOW))
    _every_field(source)
    source.export_file(tmp_path / "a.json")
    target = ec.connect("sqlite://", clock=ec.FixedClock(NOW))
    target.import_file(tmp_path / "a.json")
    target.export_file(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
