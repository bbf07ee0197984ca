"""A deterministic, realistic events dataset for the storage benchmark.

Why it looks like this: a benchmark is only as honest as its data. Uniform random dates would
put as many events in 2020 as next month, so every windowed query would see the same share of
rows whatever the window; real calendars bunch around "now" (most events are recent or
upcoming, a long tail of archive and far-future ones). Likewise venues, organizers and terms are
not used evenly: a few busy venues host many events. The generator reproduces those shapes with
a seeded ``random.Random`` so that every run (and every machine) loads exactly the same rows.

What it produces, per the benchmark issue:

- 1,000 venues, 500 organizers, 50 categories (10 top-level, 40 sub-categories, so a category
  filter exercises sub-category expansion), 200 tags, created through the public API;
- N event rows (dicts of the fields ``cal.events.bulk_create`` takes): dates over 2020-2032,
  skewed towards ``NOW``; durations from one hour to several days; ~10 IANA zones; 2% all-day;
  5% featured; 90% published (the rest draft, pending or private); 1% hidden from listings;
  1 venue, 0-2 organizers, 1-2 categories, 0-3 tags each; titles and descriptions built from
  word lists, so that a search for a word in ``SEARCH_WORD`` hits a known share of events.

Dates are given as text (``"2026-07-01 19:30"``) in the event's own zone, the way an import
from CSV or a form sends them, so the load measures the parsing a real import pays for.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import events_calendar as ec

__all__ = [
    "NOW",
    "SEARCH_WORD",
    "Catalog",
    "CatalogSpec",
    "create_catalog",
    "event_rows",
]

#: The fixed "now" of every benchmark calendar: inside the data range, so the default window
#: (yesterday .. +24 months) covers the dense part of the data, as it does on a live site.
NOW = datetime(2026, 6, 15, 14, 30, tzinfo=UTC)

#: First and last day events may start on.
FIRST_DAY = date(2020, 1, 1)
LAST_DAY = date(2032, 12, 20)

#: A word every search query looks for: one of the genres, so ~1 event in 40 has it in its
#: title (and a few more in their description).
SEARCH_WORD = "jazz"

#: Zones events are written in, with weights (a mostly European/American calendar with some
#: events elsewhere). Includes zones with and without DST, north and south, and a half-hour
#: offset (Asia/Kolkata).
ZONES: tuple[tuple[str, int], ...] = (
    ("Europe/Paris", 24),
    ("Europe/London", 14),
    ("America/New_York", 16),
    ("America/Chicago", 8),
    ("America/Los_Angeles", 10),
    ("America/Sao_Paulo", 5),
    ("Asia/Tokyo", 6),
    ("Asia/Kolkata", 5),
    ("Australia/Sydney", 6),
    ("Africa/Johannesburg", 3),
    ("UTC", 3),
)

_ADJECTIVES = (
    "Spring", "Summer", "Autumn", "Winter", "Midnight", "Sunday", "Friday", "Grand", "Little",
    "Open", "Late", "Early", "Annual", "Community", "Family", "Riverside", "Downtown", "Garden",
    "Rooftop", "Candlelight", "Acoustic", "Electric", "Urban", "Village", "Harbour", "Royal",
    "Secret", "Golden", "Silver", "Northern", "Southern", "Eastern", "Western", "Modern",
    "Classic", "Wild", "Quiet", "Lively", "Festive", "Starlit",
)  # fmt: skip
_GENRES = (
    "Jazz", "Blues", "Folk", "Rock", "Opera", "Ballet", "Poetry", "Comedy", "Cinema", "Theatre",
    "Chamber", "Choir", "Salsa", "Tango", "Swing", "Techno", "Hip-Hop", "Reggae", "Soul",
    "Gospel", "Pottery", "Painting", "Photography", "Science", "History", "Wine", "Cheese",
    "Coffee", "Yoga", "Running", "Cycling", "Chess", "Gardening", "Astronomy", "Robotics",
    "Startup", "Design", "Fashion", "Literature", "Architecture",
)  # fmt: skip
_FORMATS = (
    "Night", "Festival", "Workshop", "Meetup", "Concert", "Tasting", "Market", "Fair",
    "Lecture", "Tour", "Session", "Showcase", "Gala", "Brunch", "Marathon", "Retreat", "Camp",
    "Jam", "Screening", "Reading", "Class", "Masterclass", "Exhibition", "Party", "Walk",
)  # fmt: skip
_DESCRIPTION_WORDS = (
    "join", "us", "for", "an", "evening", "of", "music", "art", "and", "conversation", "with",
    "local", "artists", "guests", "friends", "neighbours", "tickets", "available", "at", "the",
    "door", "doors", "open", "early", "seating", "is", "limited", "bring", "your", "own",
    "blanket", "chair", "drinks", "food", "served", "all", "ages", "welcome", "children",
    "free", "entry", "members", "discount", "workshop", "materials", "provided", "beginners",
    "experts", "alike", "hosted", "by", "our", "team", "volunteers", "partners", "sponsors",
    "outdoor", "indoor", "stage", "hall", "garden", "terrace", "river", "park", "square",
    "library", "museum", "gallery", "studio", "theatre", "cafe", "bar", "restaurant", "night",
    "weekend", "season", "series", "edition", "anniversary", "celebration", "programme",
    "schedule", "speakers", "panel", "discussion", "questions", "answers", "networking",
    "raffle", "prizes", "costume", "dance", "floor", "live", "band", "trio", "quartet",
    "orchestra", "soloist", "choir", "premiere", "tour", "exhibition", "opening", "closing",
    "lecture", "demonstration", "tasting", "market", "stalls", "crafts", "vintage", "books",
    "records", "plants", "bicycles", "games", "puzzles", "science", "history", "nature",
    "wildlife", "photography", "film", "screening", "director", "premiere", "accessible",
    "wheelchair", "parking", "nearby", "public", "transport", "recommended", "rain", "shine",
)  # fmt: skip
_VENUE_KINDS = (
    "Hall", "Theatre", "Club", "Gallery", "Park", "Library", "Museum", "Studio", "Arena",
    "Centre", "Church", "Garden", "Warehouse", "Cafe", "Loft", "Pavilion", "Barn", "Cinema",
    "Auditorium", "Market",
)  # fmt: skip
_VENUE_NAMES = (
    "Riverside", "Old Mill", "Harbour", "Kingsway", "Oak Tree", "Blue Door", "Red Lion",
    "Lighthouse", "Granary", "Foundry", "Observatory", "Orchard", "Meadow", "Crown", "Anchor",
    "Phoenix", "Union", "Victoria", "Albert", "Station", "Canal", "Bridge", "Castle", "Abbey",
    "Quay", "Fountain", "Willow", "Elm", "Cedar", "Maple",
)  # fmt: skip
_CITIES = (
    ("Lyon", "FR", "Europe/Paris"),
    ("Paris", "FR", "Europe/Paris"),
    ("London", "GB", "Europe/London"),
    ("Bristol", "GB", "Europe/London"),
    ("New York", "US", "America/New_York"),
    ("Boston", "US", "America/New_York"),
    ("Chicago", "US", "America/Chicago"),
    ("Los Angeles", "US", "America/Los_Angeles"),
    ("São Paulo", "BR", "America/Sao_Paulo"),
    ("Tokyo", "JP", "Asia/Tokyo"),
    ("Mumbai", "IN", "Asia/Kolkata"),
    ("Sydney", "AU", "Australia/Sydney"),
    ("Cape Town", "ZA", "Africa/Johannesburg"),
)
_FIRST_NAMES = (
    "Ada", "Ben", "Chloé", "David", "Elena", "Farid", "Grace", "Hiro", "Inès", "João", "Kofi",
    "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tara",
)  # fmt: skip
_ORG_KINDS = (
    "Society", "Collective", "Association", "Club", "Foundation", "Productions", "Trust",
    "Ensemble", "Guild", "Network",
)  # fmt: skip

#: Zipf-like exponent for how unevenly venues, organizers and terms are used: the busiest
#: venue hosts ~10x the events of a median one, as on real sites.
_SKEW = 0.8


@dataclass(frozen=True)
class CatalogSpec:
    """How many of each linked record to create (the issue's numbers by default)."""

    venues: int = 1000
    organizers: int = 500
    categories: int = 50
    top_categories: int = 10
    tags: int = 200


@dataclass(frozen=True)
class Catalog:
    """The linked records created for a dataset: ids in popularity order (busiest first)."""

    venue_ids: tuple[int, ...]
    organizer_ids: tuple[int, ...]
    #: Top-level categories first, then sub-categories.
    category_ids: tuple[int, ...]
    category_slugs: tuple[str, ...]
    top_category_count: int
    tag_ids: tuple[int, ...]

    @property
    def leaf_category_ids(self) -> tuple[int, ...]:
        """Categories events are mostly filed under (sub-categories when there are any)."""
        leaves = self.category_ids[self.top_category_count :]
        return leaves or self.category_ids


def create_catalog(cal: ec.Calendar, spec: CatalogSpec | None = None, *, seed: int = 1) -> Catalog:
    """Create venues, organizers, categories and tags through the public API.

    Created one by one with ``create`` (there is no bulk API for them): it is what a site does,
    and these few thousand records are not what the benchmark measures.
    """
    spec = spec or CatalogSpec()
    rng = random.Random(seed)
    venue_ids = []
    for n in range(spec.venues):
        city, country, _ = _CITIES[n % len(_CITIES)]
        name = (
            f"{_VENUE_NAMES[n % len(_VENUE_NAMES)]} "
            f"{_VENUE_KINDS[(n // len(_VENUE_NAMES)) % len(_VENUE_KINDS)]}"
        )
        if n >= len(_VENUE_NAMES) * len(_VENUE_KINDS):
            name += f" {n // (len(_VENUE_NAMES) * len(_VENUE_KINDS)) + 1}"
        venue = cal.venues.create(
            venue=f"{name} {city}",
            address=f"{rng.randint(1, 250)} {rng.choice(_VENUE_NAMES)} Street",
            city=city,
            country=country,
            zip=f"{rng.randint(10000, 99999)}",
        )
        venue_ids.append(venue.id)
    organizer_ids = []
    for n in range(spec.organizers):
        first = _FIRST_NAMES[n % len(_FIRST_NAMES)]
        kind = _ORG_KINDS[(n // len(_FIRST_NAMES)) % len(_ORG_KINDS)]
        organizer = cal.organizers.create(
            organizer=f"{first}'s {kind} {n + 1}",
            email=f"contact{n + 1}@example.org",
            website=f"https://example.org/organizers/{n + 1}",
        )
        organizer_ids.append(organizer.id)
    category_ids: list[int] = []
    category_slugs: list[str] = []
    top = min(spec.top_categories, spec.categories)
    for n in range(spec.categories):
        if n < top:
            category = cal.categories.create(name=f"{_GENRES[n % len(_GENRES)]} Events")
        else:
            parent = category_ids[(n - top) % top] if top else 0
            category = cal.categories.create(
                name=f"{_FORMATS[n % len(_FORMATS)]} {n}", parent=parent
            )
        category_ids.append(category.id)
        category_slugs.append(category.slug)
    tag_ids = [
        cal.tags.create(name=f"tag {_DESCRIPTION_WORDS[n % len(_DESCRIPTION_WORDS)]} {n}").id
        for n in range(spec.tags)
    ]
    return Catalog(
        venue_ids=tuple(venue_ids),
        organizer_ids=tuple(organizer_ids),
        category_ids=tuple(category_ids),
        category_slugs=tuple(category_slugs),
        top_category_count=top,
        tag_ids=tuple(tag_ids),
    )


def catalog_from_file(path: Path) -> tuple[Catalog, list[int]]:
    """The catalog and event ids of a file the benchmark loaded (ids follow creation order,
    which is the generator's popularity order)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:

        def ids(table: str) -> tuple[int, ...]:
            return tuple(r[0] for r in conn.execute(f"SELECT id FROM {table} ORDER BY id"))

        categories = conn.execute("SELECT id, slug, parent FROM categories ORDER BY id").fetchall()
        catalog = Catalog(
            venue_ids=ids("venues"),
            organizer_ids=ids("organizers"),
            category_ids=tuple(c[0] for c in categories),
            category_slugs=tuple(c[1] for c in categories),
            top_category_count=sum(1 for c in categories if c[2] == 0),
            tag_ids=ids("tags"),
        )
        return catalog, list(ids("events"))
    finally:
        conn.close()


class _Skewed:
    """Draws from a sequence with Zipf-like weights (earlier items more often)."""

    def __init__(self, items: tuple[int, ...]) -> None:
        self.items = items
        self.cum: list[float] = []
        total = 0.0
        for rank in range(len(items)):
            total += 1.0 / (rank + 1) ** _SKEW
            self.cum.append(total)

    def pick(self, rng: random.Random, k: int = 1) -> list[int]:
        """``k`` distinct items (fewer if there are not that many)."""
        k = min(k, len(self.items))
        picked: dict[int, None] = {}
        while len(picked) < k:
            picked.update(dict.fromkeys(rng.choices(self.items, cum_weights=self.cum, k=1)))
        return list(picked)


def _start_day(rng: random.Random, now: datetime) -> date:
    """A start day: two thirds bunched around now (a bell ~8 months wide, leaning to the
    future), the rest spread evenly over the whole range."""
    span = (LAST_DAY - FIRST_DAY).days
    if rng.random() < 0.65:
        offset = rng.gauss(45, 240)
        day = now.date() + timedelta(days=round(offset))
        if FIRST_DAY <= day <= LAST_DAY:
            return day
    return FIRST_DAY + timedelta(days=rng.randrange(span + 1))


_HOURS = tuple(range(8, 23))
_HOUR_WEIGHTS = (2, 3, 4, 4, 3, 3, 3, 3, 4, 5, 8, 10, 10, 6, 3)


def _span(rng: random.Random, start: datetime) -> datetime:
    """An end: mostly 1-3 h, then half-days, full days and multi-day events."""
    r = rng.random()
    if r < 0.55:
        minutes = rng.choice((60, 90, 120, 150, 180))
    elif r < 0.85:
        minutes = rng.randrange(180, 481, 30)
    elif r < 0.95:
        minutes = rng.randrange(480, 24 * 60 + 1, 60)
    else:
        minutes = rng.randrange(1, 8) * 24 * 60 + rng.randrange(0, 8 * 60, 60)
    return start + timedelta(minutes=minutes)


def _status(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.90:
        return "publish"
    if r < 0.94:
        return "draft"
    if r < 0.97:
        return "pending"
    return "private"


def _cost(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return ""
    if r < 0.6:
        return "Free"
    if r < 0.9:
        return f"${rng.choice((5, 10, 12, 15, 20, 25, 30, 45, 60))}"
    low = rng.choice((5, 10, 15, 20))
    return f"€{low} - {low + rng.choice((5, 10, 20, 40))}"


def _description(rng: random.Random, genre: str) -> str:
    words = rng.choices(_DESCRIPTION_WORDS, k=rng.randint(15, 60))
    if rng.random() < 0.3:  # the genre again, further down the text
        words.insert(rng.randrange(len(words) + 1), genre.lower())
    sentences = []
    while words:
        size = rng.randint(6, 14)
        sentences.append(" ".join(words[:size]).capitalize() + ".")
        words = words[size:]
    return " ".join(sentences)


def event_rows(
    n: int, catalog: Catalog, *, seed: int = 0, now: datetime = NOW
) -> Iterator[dict[str, Any]]:
    """``n`` event rows for ``cal.events.bulk_create``, always the same for the same seed."""
    rng = random.Random(seed)
    zones = [z for z, _ in ZONES]
    zone_weights = [w for _, w in ZONES]
    venues = _Skewed(catalog.venue_ids)
    organizers = _Skewed(catalog.organizer_ids)
    leaves = _Skewed(catalog.leaf_category_ids)
    tops = _Skewed(catalog.category_ids[: catalog.top_category_count] or catalog.category_ids)
    tags = _Skewed(catalog.tag_ids)
    venue_label = {
        vid: f"{_VENUE_NAMES[i % len(_VENUE_NAMES)]}" for i, vid in enumerate(catalog.venue_ids)
    }
    for number in range(n):
        day = _start_day(rng, now)
        zone = rng.choices(zones, weights=zone_weights, k=1)[0]
        genre = rng.choice(_GENRES)
        venue = venues.pick(rng)[0]
        title = (
            f"{rng.choice(_ADJECTIVES)} {genre} {rng.choice(_FORMATS)}"
            f" at {venue_label[venue]} {rng.choice(_VENUE_KINDS)}"
        )
        row: dict[str, Any] = {
            "title": title,
            "timezone": zone,
            "status": _status(rng),
            "featured": rng.random() < 0.05,
            "hide_from_listings": rng.random() < 0.01,
            "venue": [venue],
            "organizer": organizers.pick(rng, rng.choice((0, 1, 1, 1, 2))),
            "categories": leaves.pick(rng, 1) + (tops.pick(rng, 1) if rng.random() < 0.3 else []),
            "tags": tags.pick(rng, rng.randint(0, 3)),
            "description": _description(rng, genre),
            "cost": _cost(rng),
        }
        if rng.random() < 0.5:
            row["excerpt"] = f"{genre} {rng.choice(_FORMATS).lower()} in {rng.choice(_CITIES)[0]}"
        if rng.random() < 0.3:
            row["website"] = f"https://example.org/events/{number + 1}"
        if rng.random() < 0.02:
            row["all_day"] = True
            row["start_date"] = day.isoformat()
            row["end_date"] = (day + timedelta(days=rng.choice((0, 0, 0, 1, 2)))).isoformat()
        else:
            hour = rng.choices(_HOURS, weights=_HOUR_WEIGHTS, k=1)[0]
            start = datetime(day.year, day.month, day.day, hour, rng.choice((0, 15, 30, 45)))  # noqa: DTZ001 - wall time in the row's own zone
            end = _span(rng, start)
            row["start_date"] = start.strftime("%Y-%m-%d %H:%M")
            row["end_date"] = end.strftime("%Y-%m-%d %H:%M")
        yield row
