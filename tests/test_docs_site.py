"""The generated parts of the documentation site (``scripts/mkdocs_hooks.py``).

``./scripts/docs`` builds the whole site strictly; these check, without MkDocs, that what the
hooks generate says what the code does.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from events_calendar.http.openapi import documented_routes

ROOT = Path(__file__).resolve().parent.parent


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts/mkdocs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOKS = _hooks()


def test_rest_reference_has_a_section_per_route_and_method() -> None:
    """Every method of every route ``/doc`` documents has its section, in the table's order."""
    expected = [
        f"{method} `{route.openapi_path}`"
        for route in documented_routes()
        for endpoint in route.endpoints
        for method in endpoint.methods
    ]
    sections = re.findall(r"^### ([A-Z]+ `[^`]+`)$", HOOKS.rest_reference(), re.MULTILINE)
    assert sorted(expected) == sorted(sections)


def test_rest_reference_links_resolve_to_its_schema_sections() -> None:
    """Every schema link in the REST reference points at a schema section of the page."""
    page = HOOKS.rest_reference()
    anchors = set(re.findall(r"\{#(schema-[a-z]+)\}", page))
    assert set(re.findall(r"\]\(#(schema-[a-z]+)\)", page)) <= anchors


def test_an_included_file_links_to_site_pages_and_names_other_files() -> None:
    """A root file's link into docs/ becomes a site link; one elsewhere becomes its path."""
    text = "[roles](docs/permissions.md) and [the long run](bench/schemathesis.md#run)"
    expected = (
        "[roles](permissions.md) and the long run (`bench/schemathesis.md` in the repository)"
    )
    assert expected == HOOKS._relink(text, "", "")


def test_a_page_link_to_an_included_root_file_points_at_its_page() -> None:
    """``../SECURITY.md`` from a page becomes the site page that includes SECURITY.md."""
    assert "see [security](security.md#x)" == HOOKS._relink(
        "see [security](../SECURITY.md#x)", "docs", ""
    )
