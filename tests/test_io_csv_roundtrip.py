"""CSV export then import: any calendar's events arrive as they left (a property)."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.io.csv_read import IDS
from events_calendar.testing import NOW

_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"))
    | st.sampled_from(",\"\n=+-@'"),  # and what a spreadsheet reads as a formula
    max_size=20,
)
_name = _text.filter(lambda t: t.strip() == t and t.strip() and "\n" not in t)
_listed = _name.filter(lambda t: "," not in t)
_event = st.fixed_dictionaries(
    {
        "title": _name,
        "description": _text.map(str.strip),
        "minutes": st.integers(0, 60 * 24 * 900),
        "length": st.integers(0, 60 * 50),
        "timezone": st.sampled_from(["UTC", "Europe/London", "America/New_York", "UTC+3:30"]),
        "all_day": st.booleans(),
        "featured": st.booleans(),
        "sticky": st.booleans(),
        "venue": st.none() | _name,
        # A list name with a comma, or an organizer's that reads as ids, is exported as an id
        # or slug, which only the same calendar reads back (see docs/import-export.md).
        "organizers": st.lists(
            _listed.filter(lambda t: not IDS.fullmatch(t)), max_size=2, unique_by=str.casefold
        ),
        # A name of digits is read as a term id by the calendar itself.
        "categories": st.lists(
            _listed.filter(lambda t: not t.lstrip("+-").isdigit()),
            max_size=2,
            unique_by=str.casefold,
        ),
        "cost": st.sampled_from(["", "10", "$5", "Free", "10 - 20 EUR"]),
    }
)


def _create(cal: ec.Calendar, spec: dict[str, Any]) -> None:
    start = (NOW + timedelta(minutes=spec["minutes"])).replace(second=0)
    cal.events.create(
        title=spec["title"],
        description=spec["description"],
        start_date=start,
        end_date=start + timedelta(minutes=spec["length"]),
        timezone=spec["timezone"],
        all_day=spec["all_day"],
        featured=spec["featured"],
        sticky=spec["sticky"],
        venue=[] if spec["venue"] is None else [{"venue": spec["venue"]}],
        organizer=[{"organizer": name} for name in spec["organizers"]],
        categories=spec["categories"],
        cost=spec["cost"],
    )


def _shape(cal: ec.Calendar) -> list[tuple[Any, ...]]:
    """What a CSV carries of each event, with links by name."""
    events, _ = cal.backend.query(
        ec.Event, ec.queries.EventFilter(limit=None, exclude_hidden=False)
    )
    related = cal.events.related(events)
    return sorted(
        (
            e.title,
            e.description,
            e.start_date.isoformat(),
            e.end_date.isoformat(),
            e.timezone,
            e.all_day,
            e.featured,
            e.sticky,
            e.cost,
            [v.venue for v in related.venues_of(e)],
            sorted(o.organizer for o in related.organizers_of(e)),
            sorted(c.name for c in related.categories_of(e)),
        )
        for e in events
    )


@given(
    events=st.lists(_event, max_size=5, unique_by=lambda e: (e["title"].casefold(), e["minutes"]))
)
def test_a_csv_export_imports_into_an_empty_calendar_as_it_was(
    events: list[dict[str, Any]],
) -> None:
    """Titles and text with commas, quotes and line breaks, zones, all-day spans, links by
    name: the imported calendar's events are the exported ones."""
    source = ec.connect("memory://", clock=ec.FixedClock(NOW))
    target = ec.connect("memory://", clock=ec.FixedClock(NOW))
    for spec in events:
        _create(source, spec)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "events.csv"
        source.export_file(path)
        report = target.import_file(path)
    assert (0, _shape(source)) == (report.refused, _shape(target))
