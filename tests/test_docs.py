"""Every Python example in README.md and docs/ runs, and its assertions hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _examples() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for n, match in enumerate(BLOCK.finditer(path.read_text(encoding="utf-8"))):
            found.append((f"{path.relative_to(ROOT)}#{n}", match.group(1)))
    return found


EXAMPLES = _examples()


def test_the_docs_have_examples() -> None:
    """The README's usage example is found, so the parametrised run below is not empty."""
    assert any(name.startswith("README.md") for name, _ in EXAMPLES)


@pytest.mark.parametrize(("name", "code"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_example_runs(name: str, code: str) -> None:
    """The example executes without error in a fresh namespace (blocks of one file share one)."""
    exec(compile(code, name, "exec"), {"__name__": "__docs__"})  # noqa: S102 - our own docs
