"""``GET /<ns>/doc``: an OpenAPI 3.0 document generated from the declarations.

This module writes the paths and the document; ``openapi_schemas`` infers the component
schemas and ``openapi_prose`` holds the reference's descriptions.

Nothing here lists a record's fields. Response schemas are inferred from what ``wire.Wire``
actually emits for sample records, and the samples are built from the record declarations
(every writable field of ``records.input_fields`` filled, cleared, or left to its default;
links, a locked event, two venues): so a key the wire format gains or loses shows up here on its
own, with the JSON types it really takes. Enumerations come from the records' attrs types
(``status``). Paths, parameters and request bodies come from ``routes_spec.ROUTES``, which in
turn derives argument names from the record and query declarations.

What is written by hand is prose: the reference's descriptions of its schemas (``DESCRIPTIONS``,
its words where it has the property) and of responses. The top level follows the reference's
document (``openapi: 3.0.0``, the same ``info``, ``servers`` = the namespace root with its
trailing slash, paths keyed ``/doc``, ``/events``, ``/events/{id}`` ...; like it, the namespace
index, WordPress's own route, is left out). Unlike it, every method of every route is
documented, list responses are described as the envelopes they are, and the document is valid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..records import RECORD_CLASSES, Kind
from .feed_doc import FEED_DESCRIPTION, FEED_SUMMARY, feed_responses
from .openapi_constraints import body_constraints, json_body_constraints, query_constraints
from .openapi_schemas import REF, Schema, component_schemas, json_type, list_name, record_name
from .routes_spec import ROUTES, Arg, Computed, Endpoint, Method, Route, resolve_default
from .urls import _COLLECTIONS, Urls

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["component_schemas", "documented_routes", "openapi_document"]


# --- paths ---------------------------------------------------------------------------------

_WRITE_SECURITY: list[dict[str, list[str]]] = [{"applicationPassword": []}, {"bearerToken": []}]
_READ_SECURITY: list[dict[str, list[str]]] = [{}, *_WRITE_SECURITY]
_NOUN = {"category": "event category", "tag": "event tag"}


def _schema_of(arg: Arg, calendar: Calendar, namespace: str) -> Schema:
    """An argument's schema from the reference's keywords (``format: string`` is a type to it)."""
    spec = arg.spec
    kind = spec.get("type") or ("array" if "items" in spec else None)
    schema: Schema = {}
    if spec.get("format") == "double":
        kind = kind or "number"
        schema["format"] = "double"
    elif spec.get("format"):
        kind = kind or spec["format"]
    default = spec.get("default")
    static = default is not None and default not in (Computed.WINDOW_START, Computed.WINDOW_END)
    value = resolve_default(default, calendar, namespace) if static else None
    if kind is None and arg.location != "body":
        # A query or path value is text, and one the reference gives no type is not checked:
        # any text is read (only_with_upcoming=null is false), whatever its default's type.
        kind = "string"
    if kind is None and value is not None:
        kind = json_type(value)
    if kind:
        schema["type"] = kind
    if "items" in spec:
        schema["items"] = dict(spec["items"])
    if kind == "integer" and isinstance(value, str) and value.isdigit():
        value = int(value)
    elif kind == "boolean" and value in ("1", "0"):
        value = value == "1"
    if value is not None and (kind is None or json_type(value) == kind):
        schema["default"] = value
    return schema


def _constrained(
    kind: Kind | None,
    arg: Arg,
    schema: Schema,
    calendar: Calendar,
    *,
    json: bool = False,
    creating: bool = False,
) -> Schema:
    """``schema`` with what the server really accepts (``openapi_constraints``; ``json``: in
    a JSON body, ``creating``: of a create); a default the constraints replace the type of is
    dropped."""
    if kind is None or arg.location == "path":
        return schema
    if arg.location == "body":
        found: Schema | None = (
            json_body_constraints(kind, arg.name, creating=creating)
            if json
            else body_constraints(kind, arg.name)
        )
    else:
        found = query_constraints(kind, arg.name, calendar)
    if found is None:
        return schema
    default = schema.get("default")
    if default is not None and json_type(default) != found.get("type", json_type(default)):
        schema.pop("default")
    if "type" not in found:
        schema.pop("type", None)
    schema.pop("items", None)
    schema.update(found)
    return schema


#: A delete's ``password``, listed as the reference lists it: deleting needs the right to
#: edit the event, not its password, so it is not read (any text is taken).
_NOT_READ_BY_A_DELETE = "The event password (not read: a delete needs the right to edit the event)"


def _parameter(
    kind: Kind | None, arg: Arg, calendar: Calendar, namespace: str, *, read: bool = True
) -> Schema:
    """A path or query parameter; ``read=False``: one the operation does not read."""
    schema = _schema_of(arg, calendar, namespace)
    if read:
        schema = _constrained(kind, arg, schema, calendar)
    parameter: Schema = {
        "name": arg.name,
        "in": arg.location,
        "required": arg.location == "path" or arg.required,
        "description": arg.spec.get("description", "") if read else _NOT_READ_BY_A_DELETE,
        "schema": schema,
    }
    if schema.get("type") == "array":
        parameter.update(style="form", explode=False)  # a CSV list (``name[]`` also works)
    return parameter


def _input_name(route: Route, endpoint: Endpoint, *, json: bool = True) -> str:
    """``EventUpdate`` (a JSON body), ``EventUpdateForm`` (a form body); ``...BySlug`` where
    the by-slug body lacks the fields only an update by id takes (the event ``password``)."""
    assert route.kind is not None
    cls = RECORD_CLASSES[route.kind]
    name = cls.__name__ + endpoint.action.capitalize()
    if "by-slug" in route.pattern and cls.update_by_id_only:
        name += "BySlug"
    return name if json else name + "Form"


def _input_schema(
    kind: Kind, endpoint: Endpoint, calendar: Calendar, namespace: str, *, json: bool
) -> Schema:
    """A create or update body (``json``: a JSON one, which can send ``null`` and objects);
    update bodies are partial, so they show no defaults."""
    properties = {}
    for arg in endpoint.in_location("body"):
        schema = _schema_of(arg, calendar, namespace)
        creating = endpoint.action == "create"
        schema = _constrained(kind, arg, schema, calendar, json=json, creating=creating)
        if endpoint.action == "update":
            schema.pop("default", None)
        properties[arg.name] = {**schema, "description": arg.spec.get("description", "")}
    schema = {"type": "object", "properties": properties}
    required = [a.name for a in endpoint.in_location("body") if a.required]
    if required:
        schema["required"] = required
    return schema


def _input_schemas(calendar: Calendar, namespace: str) -> dict[str, Schema]:
    """``EventCreate``, ``EventUpdate`` ...: the bodies of the create and update endpoints."""
    found: dict[str, Schema] = {}
    for route in ROUTES:
        for endpoint in route.endpoints:
            if endpoint.action not in ("create", "update"):
                continue
            assert route.kind is not None
            for json in (True, False):
                schema = _input_schema(route.kind, endpoint, calendar, namespace, json=json)
                name = _input_name(route, endpoint, json=json)
                assert found.setdefault(name, schema) == schema
    return found


#: A JSON body that is not an object (an array, a number ...) holds no named parameters, as
#: WordPress reads it: an update that changes nothing. (A create then lacks its required
#: fields: a 400.)
_NOT_AN_OBJECT = {
    "not": {"type": "object"},
    "description": "Any JSON value but an object is read as no fields: nothing changes",
}


def _request_body(route: Route, endpoint: Endpoint) -> Schema:
    """A create or update body: a JSON object, or a form (one schema each: a form cannot
    send ``null`` or nested objects)."""
    json: Schema = {"$ref": REF + _input_name(route, endpoint)}
    if endpoint.action == "update":
        json = {"anyOf": [json, _NOT_AN_OBJECT]}
    form = {"$ref": REF + _input_name(route, endpoint, json=False)}
    return {
        "required": endpoint.action == "create",
        "content": {
            "application/json": {"schema": json},
            "application/x-www-form-urlencoded": {"schema": form},
        },
    }


def _json(description: str, schema: Schema | None = None) -> Schema:
    response: Schema = {"description": description}
    if schema is not None:
        response["content"] = {"application/json": {"schema": schema}}
    return response


#: Errors any request can get, whatever its route: from the sign-in (a bad ``Authorization``
#: header is refused even where none is needed), the routing (a path value the route's pattern
#: does not match) and the request limits (``http.limits``, ``http.throttle``).
_ANY_REQUEST_ERRORS = {
    "401": "The credentials sent are not valid",
    "404": "No route matches this path (a path value of the wrong form)",
    "413": "The body is larger than the server accepts",
    "414": "The URL is longer than the server accepts",
    "429": "Too many failed sign-ins from this address or for this login; see Retry-After",
    "503": (
        "The server cannot answer now: its database cannot be reached, or the worker holds"
        " as many request bodies as it may at once (rest_server_busy; see Retry-After)"
    ),
}


def _responses(route: Route, endpoint: Endpoint) -> Schema:
    """What an operation answers: its own statuses, then the errors any request can get."""
    error = {"$ref": REF + "Error"}
    found = _own_responses(route, endpoint, error)
    for status, why in _ANY_REQUEST_ERRORS.items():
        found.setdefault(status, _json(why, error))
    return dict(sorted(found.items()))


#: What a 400 also answers, which no schema can say (the reference's ``rest_invalid_param``).
_NO_RECORD = (
    "; an id or slug that names no record the caller may read (in the path, or in a "
    "filter or field that refers to one) is a bad value"
)


def _own_responses(route: Route, endpoint: Endpoint, error: Schema) -> Schema:
    if endpoint.action == "feed":
        return feed_responses(error)
    if route.kind is None:
        what = "The namespace index" if endpoint.action == "index" else "This OpenAPI document"
        return {"200": _json(what, {"type": "object"})}
    noun = _NOUN.get(route.kind, route.kind)
    plural = _COLLECTIONS[route.kind]
    record = {"$ref": REF + record_name(route)}
    post = route.kind not in _NOUN
    by = "slug" if route.by_slug else "id"
    unknown = _json(f"No {noun} has this {by}, or a parameter has a bad value{_NO_RECORD}", error)
    denied = {
        "401": _json("The request needs valid credentials", error),
        "403": _json(f"The caller may not do this to {plural}", error),
    }
    if endpoint.action == "list":
        count = {"schema": {"type": "integer"}}
        headers = {
            "X-TEC-Total": {**count, "description": "How many records match in all"},
            "X-TEC-TotalPages": {**count, "description": "How many pages there are"},
        }
        ok = _json(
            f"One page of the {plural} matching the filters", {"$ref": REF + list_name(route)}
        )
        found: Schema = {"200": {**ok, "headers": headers}}
        found["400"] = _json(f"A filter has a bad value{_NO_RECORD}", error)
        if post:
            found["404"] = _json("The requested page does not exist", error)
        return found
    if endpoint.action == "create":
        return {
            "201": _json(f"The created {noun}", record),
            "400": _json(
                f"A required field is missing or a field has a bad value{_NO_RECORD}", error
            ),
            **denied,
        }
    if endpoint.action == "read":
        return {
            "200": _json(f"The {noun}", record),
            "400": unknown,
            "403": _json(f"The {noun} is not accessible to the caller", error),
        }
    if endpoint.action == "update":
        updated = {"200": _json(f"The updated {noun}", record), "400": unknown, **denied}
        if not post:
            updated["409"] = _json(f"The slug asked for is another {noun}'s", error)
        return updated
    gone = "moved to the trash" if post else "deleted for good"
    responses = {"200": _json(f"The {noun}, {gone}", record), "400": unknown, **denied}
    if post:
        responses["410"] = _json(f"The {noun} is already in the trash", error)
    return responses


#: What a delete does to an event, venue or organizer (WordPress's trash).
_TRASH = (
    "Moves the record to the trash; nothing is deleted for good. A trashed record is still "
    "readable by editors and administrators (GET answers it, with status trash), and can be "
    "restored by an update of its status, which gives it back its slug; deleting it again "
    "answers 410."
)


def _summary(route: Route, endpoint: Endpoint) -> tuple[str, str]:
    """(summary, operationId stem) of an endpoint."""
    if route.kind is None:
        return (
            ("The namespace index: every route, its methods and arguments", "index")
            if endpoint.action == "index"
            else ("This OpenAPI document", "doc")
        )
    noun = _NOUN.get(route.kind, route.kind)
    article = "an" if noun[0] in "aeio" else "a"
    if endpoint.action == "feed":
        return FEED_SUMMARY, "feed_events"
    if endpoint.action == "list":
        return f"List {_COLLECTIONS[route.kind]}", f"list_{_COLLECTIONS[route.kind]}"
    if endpoint.action == "create":
        return f"Create {article} {noun}", f"create_{route.kind}"
    by = " by slug" if route.by_slug else ""
    verb = endpoint.action.capitalize()
    partial = " (only the fields sent change)" if endpoint.action == "update" else ""
    return (
        f"{verb} {article} {noun}{by or ' by id'}{partial}",
        f"{endpoint.action}_{route.kind}{by.replace(' ', '_')}",
    )


def _operation(
    route: Route, endpoint: Endpoint, method: Method, calendar: Calendar, namespace: str
) -> Schema:
    summary, stem = _summary(route, endpoint)
    operation: Schema = {
        "summary": summary,
        "operationId": stem if method in ("GET", "POST", "DELETE") else f"{stem}_{method.lower()}",
        "tags": [_COLLECTIONS[route.kind] if route.kind else "meta"],
    }
    in_body = endpoint.action in ("create", "update")
    unread = ("password",) if endpoint.action == "delete" else ()
    parameters = [
        _parameter(route.kind, a, calendar, namespace, read=a.name not in unread)
        for a in endpoint.args
        if a.location == "path" or (a.location == "query" and not in_body)
    ]
    if parameters:
        operation["parameters"] = parameters
    if in_body:
        operation["requestBody"] = _request_body(route, endpoint)
    if endpoint.action == "delete" and route.kind not in _NOUN:
        operation["description"] = _TRASH
    if endpoint.action == "feed":
        operation["description"] = FEED_DESCRIPTION
    operation["responses"] = _responses(route, endpoint)
    operation["security"] = _WRITE_SECURITY if endpoint.writes else _READ_SECURITY
    return operation


def documented_routes() -> list[Route]:
    """The routes ``/doc`` describes: all but the namespace index (WordPress's, not the API's)."""
    return [r for r in ROUTES if r.endpoints[0].action != "index"]


def _paths(calendar: Calendar, namespace: str) -> dict[str, Schema]:
    paths: dict[str, Schema] = {}
    for route in documented_routes():
        item = paths.setdefault(route.openapi_path, {})
        for endpoint in route.endpoints:
            for method in endpoint.methods:
                item[method.lower()] = _operation(route, endpoint, method, calendar, namespace)
    return paths


def openapi_document(urls: Urls, calendar: Calendar) -> dict[str, Any]:
    """The body of ``GET /<ns>/doc``."""
    return {
        "openapi": "3.0.0",
        "info": {
            "version": "1.0.0",
            "title": "The Events Calendar REST API",
            "description": "The Events Calendar REST API allows accessing upcoming events "
            "information easily and conveniently.",
        },
        "components": {
            "schemas": {
                **component_schemas(calendar),
                **_input_schemas(calendar, urls.namespace),
            },
            "securitySchemes": {
                "applicationPassword": {
                    "type": "http",
                    "scheme": "basic",
                    "description": "A user name and one of the user's application passwords",
                },
                "bearerToken": {"type": "http", "scheme": "bearer"},
            },
        },
        "servers": [{"url": f"{urls.root}/"}],
        "paths": _paths(calendar, urls.namespace),
    }
