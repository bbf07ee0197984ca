"""``bulk_create`` across batches: a live row of a later batch takes the slug a row created
in the trash by an earlier batch of the same load holds, as separate creates give it, and
that row moves to its trash slug.

Moving a row of the load rewrites a row whose search-index entry the load defers to its end:
on SQLite a rewrite of its text corrupted the index ("database disk image is malformed"), so
only its slug is rewritten. This checks the index after such a load, on every SQLite flavour
(the slugs themselves, on every backend: ``BulkContract``).

Then a property: rows drawn from titles whose slugs are numbered forms of one another
(``Gala 2`` asks for ``gala-2``, the slug a second ``Gala`` is numbered to), live or in the
trash, beside stored holders, end with the slugs creating them one by one gives, in any batch
size."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

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


#: Titles asking for a base and numbered forms of it: ``gala``, ``gala-2`` (twice), ``gala-3``.
_TITLES = ["Gala", "Gala 2", "Gala-2", "gala 3"]
_ROW = st.tuples(st.sampled_from(_TITLES), st.sampled_from(["publish", "trash"]))


@given(
    stored=st.lists(_ROW, max_size=3),
    loaded=st.lists(_ROW, min_size=1, max_size=8),
    size=st.sampled_from([1, 2, 3, 50]),
    url=st.sampled_from(["memory://", "sqlite://"]),
)
@example(  # gala-2, gala-3, gala-2-2 one by one; bulk gave gala-3, gala-4, gala-2
    stored=[("Gala", "publish")],
    loaded=[("Gala", "publish"), ("Gala", "publish"), ("Gala 2", "publish")],
    size=50,
    url="sqlite://",
)
def test_bulk_slugs_of_numbered_titles_are_one_by_one_slugs(
    stored: list[tuple[str, str]], loaded: list[tuple[str, str]], size: int, url: str
) -> None:
    """Every event's slug (trash slugs too) after a bulk load is the one creating the same
    rows one by one on the memory reference gives (hypothesis's ``ci`` profile keeps this to
    30 examples)."""
    bulk = ec.connect(url, settings=ec.Settings(bulk_batch_size=size))
    reference = ec.connect("memory://")
    rows = [{"title": title, "status": status, **_DAY} for title, status in loaded]
    for cal in (bulk, reference):
        for title, status in stored:
            cal.events.create(title=title, status=status, **_DAY)
    made = [reference.events.create(**row).id for row in rows]
    assert made == bulk.events.bulk_create(rows)
    assert _all_slugs(reference) == _all_slugs(bulk)


_DAY = {"start_date": "2031-01-01", "end_date": "2031-01-01"}


def _all_slugs(cal: ec.Calendar) -> list[tuple[int, str]]:
    found = cal.events.list(status=["publish", "trash"], per_page=50, **_WINDOW).items
    return sorted((event.id, event.slug) for event in found)
