"""``bulk_create`` across batches: a row created in the trash by an earlier batch of the same
load keeps its slug, and a live row of a later batch asking for it is numbered.

Moving it, as a trashed post stored before the load is moved, would rewrite a row whose
search-index entry the load defers to its end: on SQLite that corrupted the index
("database disk image is malformed"). Within one batch, live rows choose first
(``contract_trash_slugs``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import events_calendar as ec


@pytest.mark.parametrize("url", ["memory://", "sqlite://", "sqlite-file"])
def test_a_later_batch_leaves_a_row_the_load_trashed_alone(url: str, tmp_path: Path) -> None:
    if url == "sqlite-file":
        url = f"sqlite:///{tmp_path / 'load.db'}"
    cal = ec.connect(url, settings=ec.Settings(bulk_batch_size=2))
    row = {"title": "Gala", "start_date": "2031-01-01", "end_date": "2031-01-01"}
    rows = [{**row, "title": "Fair", "status": "trash"}, *[row] * 3, {**row, "title": "Fair"}]
    made = cal.events.bulk_create(rows)
    slugs = [cal.events.get(i, edit=True).slug for i in made]
    assert ["fair", "gala", "gala-2", "gala-3", "fair-2"] == slugs
    assert [made[-1]] == [
        e.id for e in cal.events.list(search="fair", start_date="2030-01-01", end_date="2032-12-31")
    ]
