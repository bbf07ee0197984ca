"""``import events_calendar`` stays light: no database driver, no web framework, no pandas.

The library is imported by scripts, notebooks and every server worker; what a caller does not
use must not cost them. Backends are loaded by URL scheme when one is opened.
"""

from __future__ import annotations

import subprocess
import sys

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


@pytest.mark.parametrize(
    ("url", "driver"), [("memory://", "sqlite_utils"), ("sqlite://", "psycopg")]
)
def test_opening_a_backend_imports_only_its_own_driver(url: str, driver: str) -> None:
    """Opening one scheme's backend leaves the other schemes' drivers unimported."""
    loaded = _modules_after(f"import events_calendar as ec\nec.connect({url!r})")
    assert driver not in loaded
