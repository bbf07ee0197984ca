"""MkDocs hooks (``mkdocs.yml``): the parts of the site that are generated, not written.

- ``reference/rest-api.md`` is rendered at build time from the OpenAPI document the server
  serves at ``/doc`` (``http.openapi.openapi_document``, itself made from the route table), so
  a route, parameter or field added to the code shows up on the site with no edit here.
- ``--8<-- "FILE"`` on a line of its own includes a file of the repository (the CHANGELOG),
  the syntax of pymdownx.snippets. It is expanded here rather than by that extension so that
  the included file's links, written relative to the repository root, are rewritten for the
  site before MkDocs validates them.
- A page's link to a repository file outside ``docs/`` points at the page that includes that
  file (``../SECURITY.md`` -> ``security.md``), else becomes the path in code: the site has no
  repository browser, and a dangling link would fail the strict build.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the REST reference renders without MkDocs installed (tests/test_docs_site.py)
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REST_PAGE = "reference/rest-api.md"
INCLUDE = re.compile(r'^--8<-- "([^"]+)"$', re.MULTILINE)
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s#]+)(#[^)\s]*)?\)")


# --- the REST reference --------------------------------------------------------------------


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the REST reference page, rendered from the served OpenAPI document."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, REST_PAGE, content=rest_reference()))
    return files


def _anchor(name: str) -> str:
    return f"schema-{name.lower()}"


def _type(schema: dict[str, Any]) -> str:
    """A schema as one short phrase, with links to the named schemas it uses."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{_anchor(name)})"
    if len(schema.get("allOf", ())) == 1:  # a described $ref
        return _type(schema["allOf"][0])
    for combined in ("oneOf", "anyOf"):
        if combined in schema:
            return " or ".join(_type(s) for s in schema[combined])
    kind = schema.get("type", "any")
    if kind == "array":
        kind = f"array of {_type(schema.get('items', {}))}"
    if "enum" in schema:
        kind += ": " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if schema.get("nullable"):
        kind += " or null"
    return kind


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _operation(method: str, path: str, operation: dict[str, Any]) -> list[str]:
    lines = [f"### {method.upper()} `{path}`", "", operation["summary"] + ".", ""]
    if "description" in operation:
        lines += [operation["description"], ""]
    anonymous = {} in operation.get("security", [])
    lines += [f"Authentication: {'optional' if anonymous else 'required'}.", ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | type | default | description |", "|---|---|---|---|---|"]
        for p in parameters:
            name = f"`{p['name']}`" + (" (required)" if p["required"] else "")
            default = p["schema"].get("default")
            shown = "" if default is None else f"`{default}`"
            lines.append(
                f"| {name} | {p['in']} | {_cell(_type(p['schema']))} | {_cell(shown)} "
                f"| {_cell(p['description'])} |"
            )
        lines.append("")
    if "requestBody" in operation:
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        lines += [f"Body (JSON or form): {_type(body)}.", ""]
    lines += ["| status | answer |", "|---|---|"]
    for status, response in operation["responses"].items():
        content = response.get("content", {}).get("application/json")
        shown = f" ({_type(content['schema'])})" if content else ""
        lines.append(f"| {status} | {_cell(response['description'])}{shown} |")
    return [*lines, ""]


def _schema(name: str, schema: dict[str, Any]) -> list[str]:
    lines = [f"### {name} {{#{_anchor(name)}}}", ""]
    properties = schema.get("properties")
    # /doc gives record schemas their `description` field's text as their own description
    # (http.openapi_schemas._describe); that sentence describes the field, not the record.
    described = {spec.get("description") for spec in (properties or {}).values()}
    if "description" in schema and schema["description"] not in described:
        lines += [schema["description"], ""]
    if not properties:
        return [*lines, f"Type: {_type(schema)}.", ""]
    required = set(schema.get("required", ()))
    lines += ["| field | type | description |", "|---|---|---|"]
    for field, spec in properties.items():
        shown = f"`{field}`" + (" (required)" if field in required else "")
        lines.append(f"| {shown} | {_cell(_type(spec))} | {_cell(spec.get('description', ''))} |")
    return [*lines, ""]


def rest_reference() -> str:
    """The REST API reference as Markdown, from the document ``GET /<ns>/doc`` answers."""
    import events_calendar as ec
    from events_calendar.http.openapi import openapi_document
    from events_calendar.http.urls import Urls

    urls = Urls(site="http://127.0.0.1:8000", base_path="/wp-json", namespace="tribe/events/v1")
    with ec.connect("memory://") as cal:
        document = openapi_document(urls, cal)
    lines = [
        "# REST API reference",
        "",
        "Generated when the site is built from the OpenAPI document the server answers at "
        "`/wp-json/tribe/events/v1/doc`, which is made from the same route table as the routes "
        "themselves: what is listed here is what the server serves. Paths are relative to the "
        "namespace root, `{base_path}/{vendor}/events/v1` (by default `/wp-json/tribe/events/v1`). "
        "Every route also answers `HEAD` and `OPTIONS`. Writes authenticate with HTTP Basic "
        "(a login and an application password) or `Authorization: Bearer <token>`; see "
        "[Point a client of the reference at us](../howto-existing-client.md). Error answers "
        "are [Error](#schema-error) bodies.",
        "",
    ]
    groups: dict[str, list[str]] = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            groups.setdefault(operation["tags"][0], []).extend(_operation(method, path, operation))
    for group, sections in groups.items():
        lines += [f"## {group.capitalize()}", "", *sections]
    lines += ["## Schemas", ""]
    for name, schema in document["components"]["schemas"].items():
        lines += _schema(name, schema)
    return "\n".join(lines)


# --- includes and links outside docs/ ------------------------------------------------------


def _includes() -> dict[str, str]:
    """Repository files included by a page: ``{"CHANGELOG.md": "changelog.md"}``."""
    found = {}
    for page in DOCS.rglob("*.md"):
        for target in INCLUDE.findall(page.read_text(encoding="utf-8")):
            found[posixpath.normpath(target)] = page.relative_to(DOCS).as_posix()
    return found


def _relink(markdown: str, source_dir: str, page_dir: str) -> str:
    """Links written relative to ``source_dir`` (repository-relative), rewritten for a page in
    ``page_dir`` (docs-relative)."""
    included = _includes()

    def replace(match: re.Match[str]) -> str:
        text, target, fragment = match.group(1), match.group(2), match.group(3) or ""
        if "://" in target or target.startswith(("mailto:", "/")):
            return match.group(0)
        in_repo = posixpath.normpath(posixpath.join(source_dir, target))
        if in_repo.startswith("docs/"):
            site_target = in_repo.removeprefix("docs/")
        elif in_repo in included:
            site_target = included[in_repo]
        else:
            return f"{text} (`{in_repo}` in the repository)"
        return f"[{text}]({posixpath.relpath(site_target, page_dir or '.')}{fragment})"

    return LINK.sub(replace, markdown)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Expand includes and point links outside ``docs/`` at the site's pages."""
    page_dir = posixpath.dirname(page.file.src_uri)

    def include(match: re.Match[str]) -> str:
        target = posixpath.normpath(match.group(1))
        text = (ROOT / target).read_text(encoding="utf-8")
        return _relink(text, posixpath.dirname(target), page_dir)

    markdown = INCLUDE.sub(include, markdown)
    return _relink(markdown, posixpath.join("docs", page_dir), page_dir)
