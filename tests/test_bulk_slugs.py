"""``bulk_create`` across batches: a live row of a later batch takes the slug a row created
in the trash by an earlier batch of the same load holds, as separate creates give it, and
that row moves to its trash slug.

Moving a row of the load rewrites a row whose search-index entry the load defers to its end:
on SQLite a rewrite of its text corrupted the index ("database disk image is malformed"), so
only its slug is rewritten. This checks the index after such a load, on every SQLite flavour
(the slugs themselves, on every backend: ``BulkContract``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import events_calendar as ec


@pytest.mark.parametrize("url", ["memory://", "sqlite://", "sqlite-file"])
def test_a_later_batch_moves_a_row_the_load_trashed(url: str, tmp_path: Path) -> None:
    if url == "sqlite-file":
        url = f"sqlite:///{tmp_path / 'load.db'}"
    cal = ec.connect(url, settings=ec.Settings(bulk_batch_size=2))
    row = {"title": "Gala", "start_date": "2031-01-01", "end_date": "2031-01-01"}
    rows = [{**row, "title": "Fair", "status": "trash"}, *[row] * 3, {**row, "title": "Fair"}]
    made = cal.events.bulk_create(rows)
    slugs = [cal.events.get(i, edit=True).slug for i in made]
    assert ["fair__trashed", "gala", "gala-2", "gala-3", "fair"] == slugs
    assert ([made[-1]], made[0]) == (
        [e.id for e in cal.events.list(search="fair", **_WINDOW)],
        cal.events.list(search="fair", status="trash", **_WINDOW).items[0].id,
    )
    if url != "memory://":
        engine = cal.events._ctx.backend.engine  # as tests/test_bulk_schema.py checks it
        engine.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")


_WINDOW = {"start_date": "2030-01-01", "end_date": "2032-12-31"}
