"""Every public name the API reference renders has a docstring of its own.

The reference (``docs/reference/``) is generated from docstrings and hides what has none, so a
public name without one would silently vanish from the site: this test is what fails instead.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
import events_calendar.errors
import events_calendar.io
import events_calendar.storage
import events_calendar.testing

MODULES = [
    ec,
    events_calendar.errors,
    events_calendar.io,
    events_calendar.storage,
    events_calendar.testing,
]


def _own_doc(owner: Any, name: str) -> str | None:
    """The docstring written on ``owner.name`` itself (inherited class docstrings don't count)."""
    member = inspect.getattr_static(owner, name)
    if isinstance(member, staticmethod | classmethod):
        member = member.__func__
    if isinstance(member, type):
        return member.__dict__.get("__doc__")
    return getattr(member, "__doc__", None)


def _public_methods(cls: type) -> Iterator[str]:
    """Public functions and properties defined on ``cls`` (not inherited, not overriding a
    documented base method: the base's docstring is the contract)."""
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if not isinstance(member, types.FunctionType | property | staticmethod | classmethod):
            continue
        overridden = any(_own_doc(base, name) for base in cls.__mro__[1:] if name in vars(base))
        if not overridden:
            yield name


def _collection_classes() -> list[type]:
    """The classes of a calendar's collections (``cal.events``, ``cal.users`` ...): not in
    ``__all__``, but the API every script uses."""
    with ec.connect("memory://") as cal:
        found = {type(value) for name, value in vars(cal).items() if not name.startswith("_")}
    return sorted(found, key=lambda cls: cls.__qualname__)


def _documented() -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = [(m.__name__, m) for m in MODULES]
    for module in MODULES:
        found += [(f"{module.__name__}.{n}", getattr(module, n)) for n in module.__all__]
    found += [(f"{c.__module__}.{c.__qualname__}", c) for c in _collection_classes()]
    for name, value in list(found):
        if isinstance(value, type):
            found += [(f"{name}.{m}", (value, m)) for m in _public_methods(value)]
    return found


DOCUMENTED = _documented()


def _assignment_docstrings() -> dict[str, str]:
    """Module-level names documented by a string right after their assignment, as the API
    reference reads them: constants and type aliases carry no docstring at run time."""
    found = {}
    for path in Path(ec.__file__).parent.rglob("*.py"):
        body = ast.parse(path.read_text(encoding="utf-8")).body
        for statement, following in itertools.pairwise(body):
            target = getattr(statement, "target", None) or next(
                iter(getattr(statement, "targets", ())), None
            )
            if (
                isinstance(target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                found[target.id] = following.value.value
    return found


ASSIGNMENT_DOCSTRINGS = _assignment_docstrings()


def _docstring(name: str, value: Any) -> str | None:
    if isinstance(value, tuple):
        return _own_doc(*value)
    if isinstance(value, type):
        return value.__dict__.get("__doc__")
    if isinstance(value, types.ModuleType) or inspect.isroutine(value):
        return getattr(value, "__doc__", None)
    return ASSIGNMENT_DOCSTRINGS.get(name.rsplit(".", 1)[-1])


def test_the_walk_finds_the_api() -> None:
    """The walk reaches the calendar's collections and their methods, so it is not vacuous."""
    names = {name for name, _ in DOCUMENTED}
    assert {"events_calendar.connect", "events_calendar.events.EventCollection.list"} <= names


@pytest.mark.parametrize(("name", "value"), DOCUMENTED, ids=[name for name, _ in DOCUMENTED])
def test_public_name_has_a_docstring(name: str, value: Any) -> None:
    """The public name carries a docstring of its own, which the API reference renders."""
    assert (_docstring(name, value) or "").strip(), f"{name} has no docstring"
