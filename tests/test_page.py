"""Notebook manners of ``Page`` and records: indexing, a one-line repr, HTML tables."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.display import record_table


@pytest.fixture
def cal() -> ec.Calendar:
    """A calendar with five events in March 2027 and one venue, one organizer, two terms."""
    calendar = ec.connect("memory://")
    venue = calendar.venues.create(venue="Hall <B>")
    calendar.organizers.create(organizer="Bob")
    for n in range(5):
        calendar.events.create(
            title=f"Show {n}",
            start_date=f"2027-03-0{n + 1} 19:00:00",
            end_date=f"2027-03-0{n + 1} 21:00:00",
            venue=[venue.id],
            categories=["Jazz"],
            tags=["live"],
        )
    return calendar


def _page(cal: ec.Calendar) -> ec.Page[ec.Event]:
    return cal.events.list(start_date="2027-01-01", end_date="2027-12-31", per_page=2)


def test_page_index_is_the_record_at_that_position(cal: ec.Calendar) -> None:
    """``page[0]`` and ``page[-1]`` are the first and last records of the page."""
    page = _page(cal)
    assert ("Show 0", "Show 1") == (page[0].title, page[-1].title)


def test_page_slice_is_a_tuple_of_records(cal: ec.Calendar) -> None:
    """``page[0:1]`` is a tuple holding the first record."""
    page = _page(cal)
    assert (page.items[0],) == page[0:1]


def test_page_index_past_the_end_is_an_index_error(cal: ec.Calendar) -> None:
    """Indexing past the page's records raises ``IndexError``, as a tuple does."""
    with pytest.raises(IndexError):
        _page(cal)[2]


def test_page_repr_is_one_line_with_counts(cal: ec.Calendar) -> None:
    """``repr`` says how many records of how many, and which page of how many."""
    assert "Page(2 of 5 events, page 1/3)" == repr(_page(cal))


def test_page_repr_groups_thousands() -> None:
    """Large totals are written with thousands separators."""
    page = ec.Page(items=(), total=2345, page=1, per_page=10, kind="event")
    assert "Page(0 of 2,345 events, page 1/235)" == repr(page)


@pytest.mark.parametrize(
    ("kind", "word"),
    [
        ("venues", "venues"),
        ("organizers", "organizers"),
        ("categories", "categories"),
        ("tags", "tags"),
    ],
)
def test_page_repr_names_the_kind_listed(cal: ec.Calendar, kind: str, word: str) -> None:
    """Each collection's page names its records."""
    assert f"Page(1 of 1 {word}, page 1/1)" == repr(getattr(cal, kind).list())


def test_empty_page_repr_still_names_the_kind(cal: ec.Calendar) -> None:
    """An empty list of tags is still a page of tags."""
    assert "Page(0 of 0 tags, page 1/0)" == repr(cal.tags.list(search="zzz"))


def test_page_html_is_a_table_with_one_row_per_record(cal: ec.Calendar) -> None:
    """Jupyter's table has a caption (the repr), a header and one row per record."""
    html = _page(cal)._repr_html_()
    assert (1, 3, "<caption>Page(2 of 5 events, page 1/3)</caption>") == (
        html.count("<thead>"),
        html.count("<tr>"),
        html[7:55],
    )


def test_page_html_escapes_text(cal: ec.Calendar) -> None:
    """A name with markup is shown as text, not interpreted."""
    assert "Hall &lt;B&gt;" in cal.venues.list()._repr_html_()


def test_record_html_is_a_field_value_table(cal: ec.Calendar) -> None:
    """A record's table has one row per field, the field's name then its value."""
    venue = cal.venues.list()[0]
    html = venue._repr_html_()
    assert ("<th>field</th><th>value</th>", "<tr><td>city</td><td></td></tr>" in html) == (
        html[html.index("<th>") : html.index("</tr>")],
        True,
    )


def test_record_html_hides_a_password() -> None:
    """An event's password shows as "(set)", never as itself."""
    cal = ec.connect("memory://")
    event = cal.events.create(
        title="Secret",
        start_date="2027-03-01 10:00",
        end_date="2027-03-01 11:00",
        password="hunter2",
    )
    html = record_table(event)
    assert ("hunter2" in html, "<td>password</td><td>(set)</td>" in html) == (False, True)


def test_record_repr_is_the_attrs_repr(cal: ec.Calendar) -> None:
    """Records keep the ``repr`` attrs makes (every field, by name)."""
    tag = cal.tags.list()[0]
    assert f"Tag(id={tag.id}, name='live', slug='live', description='', count=5)" == repr(tag)
