"""``import events_calendar`` stays light: no database driver, no web framework, no pandas.

The library is imported by scripts, notebooks and every server worker; what a caller does not
use must not cost them. Backends are loaded by URL scheme when one is opened.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ["sqlite_utils", "psycopg", "psycopg_pool", "starlette", "uvicorn", "pandas", "numpy"]


def _modules_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"
    output = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return set(output.split())


def test_importing_the_library_imports_no_driver_framework_or_pandas() -> None:
    """None of the optional heavy packages is imported by ``import events_calendar``."""
    loaded = _modules_after("import events_calendar")
    assert [] == [name for name in HEAVY if name in loaded]


def test_importing_the_library_leaves_its_io_package_for_later() -> None:
    """Files and DataFrames (``events_calendar.io``) load when a method first needs them:
    importing them with the library cost 8% of its import time (125 against 136 ms,
    median of eight alternated runs), and issue 7 gives the whole import 150 ms."""
    loaded = _modules_after("import events_calendar")
    assert [] == sorted(name for name in loaded if name.startswith("events_calendar.io"))


@pytest.mark.parametrize(
    ("url", "driver"), [("memory://", "sqlite_utils"), ("sqlite://", "psycopg")]
)
def test_opening_a_backend_imports_only_its_own_driver(url: str, driver: str) -> None:
    """Opening one scheme's backend leaves the other schemes' drivers unimported."""
    loaded = _modules_after(f"import events_calendar as ec\nec.connect({url!r})")
    assert driver not in loaded


def test_opening_an_up_to_date_sqlite_file_imports_no_sqlite_utils_or_pandas(
    tmp_path: Path,
) -> None:
    """sqlite-utils applies migrations, and importing it imports pandas and numpy when they
    are installed (about 0.6 s and 56 MB a process): a file already up to date needs none of it,
    for reads, writes and searches alike."""
    url = f"sqlite:///{tmp_path / 'cal.db'}"
    _modules_after(f"import events_calendar as ec\nec.connect({url!r}).close()")  # migrates
    loaded = _modules_after(
        "import events_calendar as ec\n"
        f"cal = ec.connect({url!r})\n"
        "cal.events.create(title='Jazz night', start_date='2031-05-01 20:00:00',"
        " end_date='2031-05-01 23:00:00')\n"
        "found = cal.events.list(search='jazz', start_date='2031-01-01', end_date='2032-01-01')\n"
        "assert ['Jazz night'] == [e.title for e in found.items], found\n"
        "cal.close()"
    )
    assert [] == [name for name in ("sqlite_utils", "pandas", "numpy") if name in loaded]
