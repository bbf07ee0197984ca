"""Single writes after a bulk load, against how widely SQLite's search indexes merge.

Usage::

    .venv/bin/python bench/search_merges.py --source /tmp/ec-http-bench/http-events-100000-*.db \\
        --creates 40000 --level-segments 16 4

For each width given (FTS5's ``usermerge``; ``crisismerge`` is four times it, as migration
0015 sets), a scratch copy of ``--source`` (a loaded file: ``bench/http/database.py`` builds
one) takes ``--creates`` events through ``cal.events.create``, one transaction each, with the
background thread merging as in any process; their texts are the file's own, so the index
grows as it would. Printed per width: creates a second, their p50, p99 and slowest, the
search index's segments per level afterwards, and the median time of ten searches (pages 1-3,
the total counted once per data generation as in any list).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import events_calendar as ec

WORDS = (
    "jazz",
    "concert",
    "festival",
    "theatre",
    "workshop",
    "night",
    "open air",
    "quartet",
    "family",
    "summer",
)


def _varint(block: bytes, at: int) -> tuple[int, int]:
    """An SQLite varint of ``block`` at ``at``, and where the next value starts."""
    value = 0
    for n in range(9):
        byte = block[at]
        at += 1
        if n == 8:
            return (value << 8) | byte, at
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at
    raise AssertionError("unreachable")


def segments_per_level(path: Path, table: str = "events_fts") -> dict[int, int]:
    """Segments on each level of an FTS5 index, read from its structure record (FTS5's
    ``fts5StructureDecode`` layout: a cookie, the counts, then per level its segments)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        block = db.execute(f"SELECT block FROM [{table}_data] WHERE id = 10").fetchone()[0]
    at = 4
    levels, at = _varint(block, at)
    _, at = _varint(block, at)  # segments in all
    _, at = _varint(block, at)  # write counter
    found = {}
    for level in range(levels):
        _, at = _varint(block, at)  # segments being merged
        count, at = _varint(block, at)
        for _ in range(3 * count):  # id, first page, last page
            _, at = _varint(block, at)
        if count:
            found[level] = count
    return found


def run(source: Path, creates: int, width: int) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="ec-search-merges-"))
    path = scratch / "cal.db"
    try:
        shutil.copyfile(source, path)
        with sqlite3.connect(path) as db:
            texts = db.execute(
                "SELECT title, description, excerpt FROM events ORDER BY id LIMIT 2000"
            ).fetchall()
        cal = ec.connect(f"sqlite:///{path}")
        engine = cal.backend.engine  # type: ignore[attr-defined]
        for setting, value in (("usermerge", width), ("crisismerge", 4 * width)):
            engine.execute(
                "INSERT INTO events_fts(events_fts, rank) VALUES (?, ?)", [setting, value]
            )
        took = []
        began = time.perf_counter()
        for n in range(creates):
            title, description, excerpt = texts[n % len(texts)]
            day = 1 + n % 28
            one = time.perf_counter()
            cal.events.create(
                title=title,
                description=description,
                excerpt=excerpt,
                start_date=f"2027-03-{day:02d} 19:00",
                end_date=f"2027-03-{day:02d} 21:00",
            )
            took.append(time.perf_counter() - one)
        seconds = time.perf_counter() - began
        time.sleep(2)  # a merge step under way ends
        searches = {}
        for word in WORDS:
            times = []
            for n in range(7):
                one = time.perf_counter()
                cal.events.list(
                    search=word, start_date="2019-01-01", end_date="2034-01-01", page=1 + n % 3
                )
                times.append(time.perf_counter() - one)
            searches[word] = round(statistics.median(times) * 1000, 2)
        cal.close()
        took.sort()
        return {
            "level_segments": width,
            "creates": creates,
            "creates_per_s": round(creates / seconds),
            "p50_ms": round(took[len(took) // 2] * 1000, 2),
            "p99_ms": round(took[int(len(took) * 0.99)] * 1000, 2),
            "max_ms": round(took[-1] * 1000, 1),
            "segments_per_level": segments_per_level(path),
            "search_median_ms": searches,
            "search_sum_ms": round(sum(searches.values()), 2),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="a loaded SQLite file")
    parser.add_argument("--creates", type=int, default=40_000)
    parser.add_argument("--level-segments", type=int, nargs="+", default=[16, 4])
    args = parser.parse_args()
    for width in args.level_segments:
        print(run(args.source, args.creates, width), flush=True)


if __name__ == "__main__":
    main()
