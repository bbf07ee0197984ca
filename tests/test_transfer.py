"""Copying a calendar between backends keeps everything: ids, slugs, links, users, sequences."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import events_calendar as ec
from events_calendar.cli import _without_password, main
from events_calendar.errors import Conflict
from events_calendar.queries import EventFilter
from events_calendar.statuses import Status
from events_calendar.testing import NOW
from events_calendar.testing.postgres import test_database
from events_calendar.transfer import copy_calendar


def _filled(url: str) -> ec.Calendar:
    """A calendar with every kind, statuses, a rename, a child event and category, users."""
    cal = ec.connect(url, clock=ec.FixedClock(NOW))
    admin = cal.users.create("admin", role="administrator")
    cal.users.issue_token("admin")
    hall = cal.venues.create(venue="Town Hall", city="Lyon")
    ann = cal.organizers.create(organizer="Ann", email="ann@example.org")
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id)
    gala = cal.events.create(
        title="Gala",
        start_date="2031-05-01 19:00",
        end_date="2031-05-01 23:00",
        timezone="Europe/Paris",
        venue=[hall.id],
        organizer=[ann.id],
        categories=[jazz.id, music.id],
        tags=["evening", "dress code"],
        author=admin.id,
    )
    cal.events.update(gala.id, slug="grand-gala")  # "gala" becomes a former slug
    encore = cal.events.create(
        title="Encore", start_date="2031-05-02 19:00", end_date="2031-05-02 20:00", status="draft"
    )
    cal.events.update(gala.id, post_parent=encore.id)  # a parent with a higher id
    old = cal.events.create(title="Old", start_date="2031-01-01", end_date="2031-01-01")
    cal.events.delete(old.id)  # in the trash
    cal.categories.update(music.id, parent=0)
    return cal


def _everything(cal: ec.Calendar) -> dict[str, object]:
    backend = cal.backend
    every = frozenset(Status)
    events, _ = backend.query(
        ec.Event, EventFilter(statuses=every, exclude_hidden=False, limit=None)
    )
    return {
        "events": [attrs.asdict(e) for e in events],
        "venues": cal.venues.list(status="any").items,
        "organizers": cal.organizers.list(status="any").items,
        "categories": cal.categories.list(hide_empty=False).items,
        "tags": cal.tags.list(hide_empty=False).items,
        "aliases": backend.slug_aliases("event"),
        "users": backend.list_users(),
        "credentials": [backend.credentials(u.id) for u in backend.list_users()],
        "sequences": [backend.last_id(f) for f in ("post", "term", "user", "credential")],
        "identity": backend.calendar_identity(),
    }


@pytest.mark.parametrize(
    ("source_url", "target_name"),
    [("memory://", "copy.db"), ("sqlite://", "copy.db")],
    ids=["memory-to-sqlite", "sqlite-to-sqlite"],
)
def test_a_copy_holds_exactly_what_the_source_holds(
    tmp_path: Path, source_url: str, target_name: str
) -> None:
    """Every record, former slug, user, credential and sequence arrives unchanged."""
    source = _filled(source_url)
    target = ec.connect(f"sqlite:///{tmp_path / target_name}", clock=ec.FixedClock(NOW))
    counts = copy_calendar(source.backend, target.backend)
    assert _everything(source) == _everything(target)
    assert {"event": 3, "venue": 1, "organizer": 1, "category": 2, "tag": 2} == {
        k: counts[k] for k in ("event", "venue", "organizer", "category", "tag")
    }


def test_sqlite_to_postgresql_keeps_everything(tmp_path: Path) -> None:
    """The move the deployment guide describes: an SQLite file into an empty PostgreSQL."""
    database = test_database()
    database.reset()
    source = _filled(f"sqlite:///{tmp_path / 'source.db'}")
    target = ec.connect(database.url, clock=ec.FixedClock(NOW))
    try:
        copy_calendar(source.backend, target.backend)
        assert _everything(source) == _everything(target)
    finally:
        target.close()


def test_the_copy_hands_out_the_ids_the_source_would(tmp_path: Path) -> None:
    """The next record created in the copy gets the id the source would have given."""
    source = _filled("memory://")
    target = ec.connect(f"sqlite:///{tmp_path / 'copy.db'}", clock=ec.FixedClock(NOW))
    copy_calendar(source.backend, target.backend)
    made = [cal.venues.create(venue="New Hall").id for cal in (source, target)]
    assert made[0] == made[1]


def test_the_sources_icalendar_export_imports_into_the_copy_unchanged(tmp_path: Path) -> None:
    """A copy is the same calendar: the UIDs the source wrote name the copy's events."""
    source = _filled("memory://")
    source.export_file(tmp_path / "source.ics")
    target = ec.connect(f"sqlite:///{tmp_path / 'copy.db'}", clock=ec.FixedClock(NOW))
    copy_calendar(source.backend, target.backend)
    report = target.import_file(tmp_path / "source.ics", on_conflict="update")
    assert "created 0, updated 0, unchanged 2, refused 0" == report.summary()


def test_a_former_slug_still_resolves_in_the_copy(tmp_path: Path) -> None:
    """A renamed event is found by its old slug after the copy."""
    source = _filled("memory://")
    target = ec.connect(f"sqlite:///{tmp_path / 'copy.db'}", clock=ec.FixedClock(NOW))
    copy_calendar(source.backend, target.backend)
    assert "grand-gala" == target.events.get_by_slug("gala").slug


def test_a_copy_into_a_calendar_with_data_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    """The target must be empty; a refused copy leaves it as it was."""
    source = _filled("memory://")
    target = ec.connect(f"sqlite:///{tmp_path / 'copy.db'}", clock=ec.FixedClock(NOW))
    target.venues.create(venue="Already Here")
    with pytest.raises(Conflict, match="not empty"):
        copy_calendar(source.backend, target.backend)
    assert ["Already Here"] == [v.venue for v in target.venues.list().items]


def test_a_failed_copy_leaves_the_target_empty(tmp_path: Path) -> None:
    """One transaction: a failure half-way writes nothing."""
    source = _filled("memory://")
    target = ec.connect(f"sqlite:///{tmp_path / 'copy.db'}", clock=ec.FixedClock(NOW))
    calls = {"n": 0}
    real_insert = target.backend.insert

    def failing_insert(records: list[ec.Event]) -> None:
        calls["n"] += 1
        if calls["n"] == 4:
            raise Conflict("simulated failure")
        real_insert(records)

    target.backend.insert = failing_insert  # type: ignore[method-assign]
    with pytest.raises(Conflict, match="simulated"):
        copy_calendar(source.backend, target.backend)
    assert (0, 0, 0) == tuple(target.backend.last_id(f) for f in ("post", "term", "user"))


def test_events_calendar_copy_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``events-calendar copy --from URL --to URL`` copies and says what it copied."""
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    _filled(source_url).close()
    target_url = f"sqlite:///{tmp_path / 'target.db'}"
    assert 0 == main(["copy", "--from", source_url, "--to", target_url])
    assert (
        f"Copied 3 events, 1 venues, 1 organizers, 2 categories, 2 tags and 1 users to "
        f"{target_url}.\n"
    ) == capsys.readouterr().out
    with ec.connect(target_url) as copied:
        assert "grand-gala" == copied.events.get_by_slug("gala").slug


def test_the_copy_summary_never_prints_a_password() -> None:
    """A password in the target URL is masked in what the command prints."""
    assert "postgresql://cal:***@db.internal/events" == _without_password(
        "postgresql://cal:s3cret@db.internal/events"
    )
