"""How fast an .ics file loads into SQLite: parsing (``io.ical.read_rows``) and writing
(``cal.events.bulk_create`` over the rows), timed apart, then the export back (``write_events``).

    .venv/bin/python bench/ical.py                       # 100,000 events
    .venv/bin/python bench/ical.py --events 10000 --db /tmp/ical.db

The file is generated (seeded, so every run reads the same bytes) the way calendar applications
write them: a VTIMEZONE per zone, DTSTART/DTEND with TZID, SUMMARY, DESCRIPTION, LOCATION (one
of 200 venues), CATEGORIES (1-2 of 20) and URL; 2% all-day events; no recurrences (a series
expands to ordinary rows, so the cost per row is the same). The target of issue 11 is 20,000
events/s in all.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar

import events_calendar as ec
from events_calendar.io.ical import read_rows, write_events

ZONES = ("Europe/Paris", "Europe/London", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
WINDOW = (datetime(2020, 1, 1, tzinfo=UTC), datetime(2040, 1, 1, tzinfo=UTC))
NOW = datetime(2030, 6, 15, 12, tzinfo=UTC)


def ics_file(count: int, *, seed: int = 11) -> bytes:
    """``count`` VEVENTs in one VCALENDAR, with a VTIMEZONE for every zone used."""
    rng = random.Random(seed)
    zones = "".join(
        icalendar.Timezone.from_tzid(z, first_date=date(2029, 1, 1))
        .to_ical()
        .decode()
        .replace("\r\n", "\n")
        for z in ZONES
    )
    out = [
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//bench//ical//EN\nCALSCALE:GREGORIAN\n",
        zones,
    ]
    for n in range(count):
        zone = rng.choice(ZONES)
        start = datetime(2030, 1, 1, 9, tzinfo=UTC) + timedelta(
            days=rng.randrange(900), hours=rng.randrange(12)
        )
        categories = ",".join(rng.sample([f"Genre {g}" for g in range(20)], rng.randint(1, 2)))
        common = (
            f"UID:bench-{n}@example.org\nDTSTAMP:20300101T000000Z\n"
            f"SUMMARY:Concert number {n}\nDESCRIPTION:An evening of music\\, number {n}.\n"
            f"LOCATION:Hall {rng.randrange(200)}\nCATEGORIES:{categories}\n"
            f"URL:https://example.org/events/{n}\n"
        )
        if rng.random() < 0.02:
            dates = (
                f"DTSTART;VALUE=DATE:{start:%Y%m%d}\n"
                f"DTEND;VALUE=DATE:{start + timedelta(days=1):%Y%m%d}\n"
            )
        else:
            end = start + timedelta(hours=rng.randint(1, 4))
            dates = (
                f"DTSTART;TZID={zone}:{start:%Y%m%dT%H%M%S}\n"
                f"DTEND;TZID={zone}:{end:%Y%m%dT%H%M%S}\n"
            )
        out.append(f"BEGIN:VEVENT\n{common}{dates}END:VEVENT\n")
    out.append("END:VCALENDAR\n")
    return "".join(out).replace("\n", "\r\n").encode()


def main(argv: list[str] | None = None) -> int:
    """Generate the file, load it, export it back, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="SQLite file (default: a temporary one)")
    args = parser.parse_args(argv)

    data = ics_file(args.events)
    print(f"{args.events:,} events, {len(data) / 1e6:.1f} MB of iCalendar")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "ical.db"
        path.unlink(missing_ok=True)
        cal = ec.connect(f"sqlite:///{path}", clock=ec.FixedClock(NOW))
        clock = _Clock()
        rows = list(read_rows(data, where="bench.ics", window=WINDOW, zone=ZoneInfo("UTC")))
        parse = clock.lap()
        ids = cal.events.bulk_create([row.fields for row in rows])
        write = clock.lap()
        exported = write_events(cal, _all(cal, ids))
        export = clock.lap()
        cal.close()
    assert len(ids) == args.events
    assert not any(r.refused for r in rows)
    total = (parse[0] + write[0], parse[1] + write[1])
    print("phase   wall s  events/s   CPU s  events/CPU s")
    for name, (wall, cpu), what in (
        ("parse", parse, "read_rows"),
        ("write", write, "bulk_create"),
        ("total", total, "target 20,000 events/s"),
        ("export", export, f"write_events, {len(exported) / 1e6:.1f} MB"),
    ):
        print(
            f"{name:6} {wall:7.2f} {args.events / wall:9,.0f} {cpu:7.2f} {args.events / cpu:9,.0f}"
            f"  ({what})"
        )
    return 0


class _Clock:
    """Wall and CPU time per phase: on a shared machine the CPU figure is the honest one."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        lap = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return lap


def _all(cal: ec.Calendar, ids: list[int]) -> list[ec.Event]:
    """The loaded events, read back by id in batches (what an export of them reads)."""
    found: list[ec.Event] = []
    for at in range(0, len(ids), 1000):
        batch = cal.backend.get_many(ec.Event, ids[at : at + 1000])
        found.extend(batch[i] for i in ids[at : at + 1000])
    return found


if __name__ == "__main__":
    raise SystemExit(main())
