"""The storage benchmark (``bench/``) still runs, so it cannot rot between the runs that use it.

A tiny size keeps this fast; the point is that every query still runs through both the library
and the hand-written SQL and that the two still return the same rows.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_storage_benchmark_reports_every_query_with_matching_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 300-event run times every query on both sides, with the same rows on each."""
    monkeypatch.syspath_prepend(str(BENCH))
    storage = importlib.import_module("storage")
    out = tmp_path / "storage.json"

    status = storage.main(
        [
            "--in-process",
            "--sizes=300",
            "--repeat=3",
            "--warmup=1",
            f"--db-dir={tmp_path / 'db'}",
            f"--out={out}",
        ]
    )

    (run,) = json.loads(out.read_text())["runs"]
    summary = {
        name: (
            query["ids_match"],
            *(
                type(query[side][stat])
                for side in ("library", "hand")
                for stat in ("p50_ms", "p95_ms")
            ),
        )
        for name, query in run["queries"].items()
    }
    expected = dict.fromkeys(storage.QUERIES, (True, float, float, float, float))
    assert (0, 300, expected) == (status, run["load"]["events"], summary)
