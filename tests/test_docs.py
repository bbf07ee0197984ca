"""Every example in README.md and docs/ runs, and its assertions hold.

Each Python block runs in a fresh namespace of its own.
``pycon`` blocks are interpreter sessions, run as doctests (``...`` stands for any text) in
one namespace per page, so a page reads like a notebook and every answer it shows is checked.
A ``python title="test_*.py"`` block is a test module a reader saves and runs: it is saved
and run with pytest, and must pass.
``console`` blocks are terminal sessions run in process by ``docs_console`` (the commands
``events-calendar``, ``./scripts/serve`` and ``curl`` against the served app), in an empty
folder per page, and what each command prints is checked against the page.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from docs_console import Console, sessions

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
TEST_FILE = re.compile(r'^```python title="(test_\w+\.py)"\n(.*?)^```', re.DOTALL | re.MULTILINE)
SESSION = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _examples() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for n, match in enumerate(BLOCK.finditer(path.read_text(encoding="utf-8"))):
            found.append((f"{path.relative_to(ROOT)}#{n}", match.group(1)))
    return found


EXAMPLES = _examples()
CONSOLE_PAGES = [
    path.relative_to(ROOT).as_posix() for path in DOCS if sessions(path.read_text(encoding="utf-8"))
]


SESSION_PAGES = [
    path.relative_to(ROOT).as_posix()
    for path in DOCS
    if SESSION.search(path.read_text(encoding="utf-8"))
]


TEST_FILES = [
    (f"{path.relative_to(ROOT).as_posix()}:{name}", name, code)
    for path in DOCS
    for name, code in TEST_FILE.findall(path.read_text(encoding="utf-8"))
]


def test_the_docs_have_examples() -> None:
    """The README's usage example is found, so the parametrised run below is not empty."""
    assert any(name.startswith("README.md") for name, _ in EXAMPLES)


def test_the_tutorial_is_a_console_page() -> None:
    """The tutorial's terminal session is found, so the console run below is not empty."""
    assert "docs/tutorial.md" in CONSOLE_PAGES


@pytest.mark.parametrize(("name", "code"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_example_runs(name: str, code: str) -> None:
    """The example executes without error in a fresh namespace."""
    exec(compile(code, name, "exec"), {"__name__": "__docs__"})  # noqa: S102 - our own docs


def test_the_python_tutorial_is_a_session_page() -> None:
    """The Python tutorial's session is found, so the doctest run below is not empty."""
    assert "docs/tutorial-python.md" in SESSION_PAGES


@pytest.mark.parametrize("page", SESSION_PAGES)
def test_python_session_answers_what_the_page_shows(page: str) -> None:
    """Each statement of the page's interpreter sessions gives the answer the page shows."""
    text = (ROOT / page).read_text(encoding="utf-8")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace = {"__name__": "__docs__"}
    for n, match in enumerate(SESSION.finditer(text)):
        line = text.count("\n", 0, match.start(1))
        test = doctest.DocTestParser().get_doctest(
            match.group(1), namespace, f"{page}#{n}", page, line
        )
        runner.run(test, clear_globs=False)
        namespace = test.globs  # the next block goes on from here, as in a notebook
    assert (0, runner.tries) == (runner.failures, runner.tries)


@pytest.mark.parametrize("page", CONSOLE_PAGES)
def test_console_session_prints_what_the_page_shows(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command of the page's terminal sessions runs and prints what the page shows."""
    monkeypatch.chdir(tmp_path)
    # `serve` hands its settings to the app through the environment: keep them in this test.
    monkeypatch.setattr(os, "environ", {**os.environ})
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    console = Console(monkeypatch)
    for steps in sessions((ROOT / page).read_text(encoding="utf-8")):
        for command, expected in steps:
            console.check(command, expected)


def test_the_new_backend_guide_has_a_test_module() -> None:
    """The contract suite example is found, so the run below is not empty."""
    assert [n for n, _, _ in TEST_FILES] == ["docs/howto-new-backend.md:test_my_backend.py"]


@pytest.mark.parametrize(("where", "name", "code"), TEST_FILES, ids=[w for w, _, _ in TEST_FILES])
def test_test_module_passes(where: str, name: str, code: str, tmp_path: Path) -> None:
    """The test module, saved under its name and run with pytest as the page says, passes."""
    (tmp_path / name).write_text(code, encoding="utf-8")
    run = subprocess.run(  # noqa: S603 - our own interpreter on our own page's code
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == run.returncode, run.stdout[-3000:] + run.stderr[-3000:]
