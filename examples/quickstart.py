"""Build a small calendar with the Python API and print it.

Run it with ``.venv/bin/python examples/quickstart.py [DATABASE_URL]``. Without a URL it uses
its own database, ``sqlite:///quickstart.db`` in the current folder: not the served default
(``events.db``), which ``./scripts/serve`` seeds with a sample calendar whose categories this
example would collide with. The calendar is built once and printed on every run.
"""

from __future__ import annotations

import sys

import events_calendar as ec

#: The example's own database, apart from the one ``./scripts/serve`` seeds and serves.
DEFAULT_URL = "sqlite:///quickstart.db"


def build(cal: ec.Calendar) -> None:
    """A venue, an organizer, two categories and three events."""
    hall = cal.venues.create(venue="Town Hall", city="Lyon", country="France")
    acme = cal.organizers.create(organizer="Acme Events", email="hello@acme.example")
    music = cal.categories.create(name="Music")
    cal.categories.create(name="Jazz", parent=music.id)
    cal.events.create(
        title="Gala",
        start_date="2031-05-01 19:00",
        end_date="2031-05-01 23:00",
        timezone="Europe/Paris",
        venue=[hall.id],
        organizer=[acme.id],
        categories=["Music"],
        cost="25€",
    )
    cal.events.create(
        title="Jazz Night",
        start_date="2031-05-08 20:30",
        end_date="2031-05-08 23:30",
        timezone="Europe/Paris",
        venue=[hall.id],
        categories=["jazz"],
        tags=["Late"],
    )
    cal.events.create(
        title="Book Fair",
        start_date="2031-06-01",
        end_date="2031-06-02",
        all_day=True,
        timezone="Europe/Paris",
        venue=[hall.id],
        featured=True,
        cost="Free",
    )


def show(cal: ec.Calendar) -> None:
    page = cal.events.list(start_date="2031-01-01", end_date="2031-12-31")
    related = cal.events.related(page.items)
    print(f"{page.total} events")
    for event in page.items:
        venue = ", ".join(related.venues[i].venue for i in event.venue)
        categories = ", ".join(related.categories[i].name for i in event.categories)
        print(
            f"{event.start_date:%Y-%m-%d %H:%M} {event.timezone_abbr:<5} {event.title:<12}"
            f" at {venue or '-'}  [{categories or '-'}]  {event.cost or ''}"
        )


def main(url: str = DEFAULT_URL) -> None:
    with ec.connect(url) as cal:
        if cal.events.list(start_date="2031-01-01", end_date="2031-12-31").total == 0:
            build(cal)
        show(cal)


if __name__ == "__main__":
    main(*sys.argv[1:2])
