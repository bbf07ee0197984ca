"""A realistic sample calendar, for demos and first runs (``events-calendar seed --sample``).

Events are placed relative to the calendar's clock, so a freshly seeded calendar always has
upcoming events in the default list window whatever the day.
"""

from __future__ import annotations

import random
from datetime import timedelta

from .calendar import Calendar

__all__ = ["seed_sample"]

_VENUES = [
    {
        "venue": "Town Hall",
        "address": "1 Place de la Comédie",
        "city": "Lyon",
        "country": "France",
        "zip": "69001",
        "website": "https://townhall.example.org",
    },
    {
        "venue": "Riverside Park",
        "address": "Quai Victor Augagneur",
        "city": "Lyon",
        "country": "France",
        "show_map": "1",
    },
    {
        "venue": "The Blue Note Club",
        "address": "12 Rue Mercière",
        "city": "Lyon",
        "country": "France",
        "phone": "+33 4 00 00 00 00",
    },
    {
        "venue": "Grand Hall",
        "address": "1 Main Street",
        "city": "Springfield",
        "state": "IL",
        "country": "United States",
        "zip": "62701",
    },
]
_ORGANIZERS = [
    {"organizer": "Acme Events", "email": "hello@acme.example", "website": "https://acme.example"},
    {"organizer": "City Arts Council", "phone": "+33 4 11 11 11 11"},
    {"organizer": "Jazz Collective", "email": "band@jazz.example"},
]
_CATEGORIES = {
    "Music": ["Jazz", "Rock", "Classical"],
    "Sport": [],
    "Talks": ["Science"],
    "Family": [],
}
_TAGS = ["Free", "Outdoor", "Indoor", "Kids", "Late night", "Accessible"]
_TITLES = [
    ("Jazz Night", "Jazz"),
    ("Rock in the Park", "Rock"),
    ("String Quartet", "Classical"),
    ("City Marathon", "Sport"),
    ("Astronomy Evening", "Science"),
    ("Book Fair", "Family"),
    ("Open Mic", "Music"),
    ("Science Café", "Talks"),
    ("Family Picnic", "Family"),
    ("Chamber Choir", "Classical"),
    ("Five-a-side Tournament", "Sport"),
    ("Blues Jam", "Jazz"),
]
_COSTS = ["", "Free", "10", "$15", "5 - 20", "25€"]
_ZONES = ["Europe/Paris", "Europe/Paris", "America/Chicago", "UTC"]


def seed_sample(calendar: Calendar, *, events: int = 36, seed: int = 2031) -> int:
    """Add venues, organizers, categories, tags and ``events`` events; returns the count."""
    pick = random.Random(seed)  # noqa: S311 - sample data, not secrets
    venues = [calendar.venues.create(**v).id for v in _VENUES]
    organizers = [calendar.organizers.create(**o).id for o in _ORGANIZERS]
    for name, children in _CATEGORIES.items():
        parent = calendar.categories.create(name=name)
        for child in children:
            calendar.categories.create(name=child, parent=parent.id)
    for tag in _TAGS:
        calendar.tags.create(name=tag)
    today = calendar.now().astimezone(calendar.zone).replace(hour=0, minute=0, second=0)
    rows = []
    for n in range(events):
        title, category = _TITLES[n % len(_TITLES)]
        day = today + timedelta(days=n * 3 - 10 + pick.randint(0, 2))
        start = day.replace(hour=pick.choice([10, 14, 18, 19, 20]))
        hours = pick.choice([1, 2, 2, 3, 4])
        all_day = n % 9 == 4
        rows.append(
            {
                "title": f"{title} #{n // len(_TITLES) + 1}" if n >= len(_TITLES) else title,
                "description": f"{title}: a sample event of the {category} category.",
                "start_date": start.strftime("%Y-%m-%d %H:%M"),
                "end_date": (start + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M"),
                "all_day": all_day,
                "timezone": pick.choice(_ZONES),
                "venue": [pick.choice(venues)],
                "organizer": pick.sample(organizers, pick.randint(0, 2)),
                "categories": [category],
                "tags": pick.sample(_TAGS, pick.randint(0, 2)),
                "cost": pick.choice(_COSTS),
                "featured": n % 7 == 0,
            }
        )
    return len(calendar.events.bulk_create(rows))
