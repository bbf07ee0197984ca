"""``examples/notebook.ipynb`` runs top to bottom in a real kernel, and says what it should.

The notebook is the walk-through ``docs/notebooks.md`` points at: it loads a season from a
DataFrame, filters it, reschedules a venue's events, exports a DataFrame and plots it. Each
check below reads one cell's output, so a change of behaviour shows as a wrong figure here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).parents[1] / "examples" / "notebook.ipynb"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The notebook executed in a fresh folder; one dict of output texts per code cell."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    folder = tmp_path_factory.mktemp("notebook")
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        seen: dict[str, Any] = {"stdout": "", "stderr": "", "data": {}}
        for output in cell.outputs:
            if output.output_type == "stream":
                seen[output.name] += output.text
            elif output.output_type in ("execute_result", "display_data"):
                seen["data"].update(output.data)
        cells.append(seen)
    return cells


def test_the_season_loads_from_a_dataframe(outputs: list[dict[str, Any]]) -> None:
    """Loading the DataFrame creates one event per row and reports it."""
    assert (
        "DataFrameReport(52 rows: 52 created, 0 updated, 0 unchanged, 0 skipped, 0 errors)"
        == outputs[1]["data"]["text/plain"]
    )


def test_filtering_prints_a_one_line_page(outputs: list[dict[str, Any]]) -> None:
    """A filtered page prints as one line, indexes like a list, and iter() sees every match."""
    assert [
        "Page(5 of 26 events, page 1/6)",
        "Jazz night 1 2031-01-07 20:00:00+01:00",
        "26 events at the town hall",
    ] == outputs[2]["stdout"].splitlines()


def test_the_venue_s_march_events_are_rescheduled(outputs: list[dict[str, Any]]) -> None:
    """The town hall's four March concerts move to the club, an hour earlier."""
    assert [
        "4 moved; DataFrameReport(4 rows: 0 created, 4 updated, 0 unchanged, 0 skipped, 0 errors)",
        "2031-03-07 18:30:00+01:00",
    ] == outputs[3]["stdout"].splitlines()


def test_the_export_has_typed_columns(outputs: list[dict[str, Any]]) -> None:
    """The exported frame's instants are UTC datetimes and its table renders as HTML."""
    printed = outputs[4]["stdout"]
    assert "'start_date': datetime64[ns, UTC], 'end_date': datetime64[ns, UTC]" in printed
    assert "<table" in outputs[4]["data"]["text/html"]


def test_the_plot_is_drawn(outputs: list[dict[str, Any]]) -> None:
    """The events-per-week cell shows a picture."""
    assert outputs[5]["data"]["image/png"]


def test_the_counts_per_venue_add_up(outputs: list[dict[str, Any]]) -> None:
    """After the move the club has 30 events and the town hall 22."""
    assert "{'Blue Note Club': 30, 'Town Hall': 22}\n" == outputs[6]["stdout"]
