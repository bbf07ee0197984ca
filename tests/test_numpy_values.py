"""numpy and pandas values answer exactly as the plain Python values they stand for.

Each example builds two identical calendars on one backend (memory, SQLite, PostgreSQL), makes
the same calls on both, once with plain Python arguments and once with each argument replaced
by a numpy or pandas equivalent (``np.int64``, ``np.bool_``, ``pd.Timestamp``,
``np.datetime64``, arrays and Series for lists; ``NaN``, ``pd.NA`` or ``pd.NaT`` for ``None``),
and checks that every answer, every error and the stored data are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.errors import CalendarError
from events_calendar.storage import Backend
from events_calendar.testing.postgres import TestDatabase, server_url, test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
BACKENDS = ["memory", "sqlite", "postgres"]


@cache
def _second_database() -> TestDatabase:
    """The twin of this process's PostgreSQL test database."""
    return TestDatabase(server_url())


def _backends(kind: str) -> tuple[Backend, Backend]:
    if kind == "memory":
        return MemoryBackend(), MemoryBackend()
    if kind == "sqlite":
        return SQLiteBackend(), SQLiteBackend()
    databases = test_database(), _second_database()
    for database in databases:
        database.reset()
    return PostgresBackend(databases[0].url), PostgresBackend(databases[1].url)


@attrs.frozen
class Seed:
    """The ids of what every calendar starts with (the same on both twins)."""

    editor: int
    venue: int
    organizer: int
    music: int
    jazz: int
    tag: int
    event: int
    draft: int


def _seed(cal: ec.Calendar) -> Seed:
    editor = cal.users.create("editor", role="editor")
    venue = cal.venues.create(venue="Hall", city="Lyon")
    organizer = cal.organizers.create(organizer="Ada", email="ada@example.org")
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id)
    tag = cal.tags.create(name="Free")
    event = cal.events.create(
        title="Opening",
        start_date="2031-05-01 19:00",
        end_date="2031-05-01 21:00",
        venue=[venue.id],
        organizer=[organizer.id],
        categories=[jazz.id],
        tags=[tag.id],
        featured=True,
    )
    draft = cal.events.create(
        title="Draft", start_date="2031-06-01", end_date="2031-06-01", status="draft"
    )
    return Seed(editor.id, venue.id, organizer.id, music.id, jazz.id, tag.id, event.id, draft.id)


#: The seed's ids, the same in every calendar: strategies name them before calendars exist.
SEED = Seed(editor=1, venue=1, organizer=2, music=1, jazz=2, tag=3, event=3, draft=4)
UNKNOWN = 999


@contextmanager
def twins(kind: str) -> Iterator[tuple[ec.Calendar, ec.Calendar]]:
    """Two fresh calendars on ``kind`` holding the same seed."""
    first, second = (ec.Calendar(b, clock=ec.FixedClock(NOW)) for b in _backends(kind))
    try:
        for cal in (first, second):
            with cal.transaction():  # one commit: PostgreSQL pays per commit
                assert SEED == _seed(cal)
        yield first, second
    finally:
        first.close()
        second.close()


# --- numpy and pandas stand-ins for plain values ---------------------------------------------

#: What a missing value looks like in numpy and pandas data.
MISSING: list[object] = [
    None,
    float("nan"),
    np.nan,
    np.float64("nan"),
    pd.NA,
    pd.NaT,
    np.datetime64("NaT"),
]


def _ints(value: int) -> list[object]:
    found: list[object] = [value, np.int64(value), np.int32(value)]
    return found + ([np.uint64(value), np.uint16(value)] if 0 <= value < 2**16 else [])


def numpy_like(value: object) -> st.SearchStrategy[object]:
    """``value``, or a numpy or pandas value that stands for it."""
    if value is None:
        return st.sampled_from(MISSING)
    if isinstance(value, bool):
        return st.sampled_from([value, np.bool_(value)])
    if isinstance(value, int):
        return st.sampled_from(_ints(value))
    if isinstance(value, float):
        return st.sampled_from([value, np.float64(value)])
    if isinstance(value, str):
        return st.sampled_from([value, np.str_(value)])
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return st.sampled_from([value, pd.Timestamp(value), np.datetime64(value)])
        stamp = pd.Timestamp(value)
        return st.sampled_from([value, stamp, stamp.tz_convert("UTC")])
    if isinstance(value, list):
        items = st.tuples(*map(numpy_like, value)).map(list)
        if value and all(type(item) is int for item in value):
            arrays = [np.array(value), pd.Series(value), pd.array(value, dtype="Int64")]
            return st.one_of(items, st.sampled_from(arrays))
        return items
    if isinstance(value, dict):
        drawn = st.fixed_dictionaries({k: numpy_like(v) for k, v in value.items()})
        return drawn.map(lambda found: {k: found[k] for k in value})  # keyword order kept
    raise AssertionError(f"no stand-in for {value!r}")


# --- plain arguments -------------------------------------------------------------------------

_PARIS = ZoneInfo("Europe/Paris")
#: Naive on purpose: the API reads a naive datetime as wall time in the event's zone.
YEAR = (datetime(2031, 1, 1), datetime(2031, 12, 31))  # noqa: DTZ001
_NAIVE = st.datetimes(*YEAR).map(lambda d: d.replace(second=0, microsecond=0, fold=0))


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``strategy``, or (one time in four) ``None``: often a refused value, so not too often."""
    return st.integers(0, 3).flatmap(lambda n: strategy if n else st.none())


def mostly(usual: object, *others: object) -> st.SearchStrategy[Any]:
    """``usual`` three times in four, else one of ``others`` (unknown ids, ``None``)."""
    if not others:
        return st.just(usual)
    return st.integers(0, 3).flatmap(lambda n: st.just(usual) if n else st.sampled_from(others))


DATES = maybe(st.one_of(_NAIVE, _NAIVE.map(lambda d: d.replace(tzinfo=_PARIS))))


@st.composite
def event_fields(draw: st.DrawFn, *, creating: bool, refused: bool = True) -> dict[str, object]:
    """Create (or update) arguments for an event, ``None`` included where it means something.

    ``refused=False`` leaves out values the calendar refuses (``None`` for a required field or
    a flag, unknown ids), for rows of a bulk load, which one bad row refuses entirely.
    """
    some = maybe if refused else (lambda strategy: strategy)
    start = draw(some(st.one_of(_NAIVE, _NAIVE.map(lambda d: d.replace(tzinfo=_PARIS)))))
    hours = draw(st.integers(0, 30))
    end = start + timedelta(hours=hours) if start is not None else draw(DATES)
    required = {"title": draw(some(st.sampled_from(["Talk", "Late show"])))}
    required |= {"start_date": start, "end_date": end}
    optional = {
        "description": maybe(st.sampled_from(["", "Bring a friend"])),
        "featured": some(st.booleans()),
        "all_day": st.booleans(),
        "cost": maybe(st.one_of(st.integers(0, 90), st.sampled_from([12.5, 0.0]))),
        "venue": maybe(st.lists(mostly(SEED.venue, *[UNKNOWN] * refused), max_size=2)),
        "organizer": maybe(st.lists(st.just(SEED.organizer), max_size=1)),
        "categories": maybe(st.lists(st.sampled_from([SEED.jazz, SEED.music, "Talks"]))),
        "tags": maybe(st.lists(st.sampled_from([SEED.tag, "fresh"]), max_size=2)),
        "post_parent": st.sampled_from([SEED.event, 0, None]),
        "author": mostly(SEED.editor, *[UNKNOWN] * refused),
        "status": st.sampled_from(["publish", "draft"]),
    }
    chosen = draw(st.fixed_dictionaries({}, optional=optional))
    if creating:
        return required | chosen
    some = {name: st.just(value) for name, value in required.items()}
    return draw(st.fixed_dictionaries({}, optional=some)) | chosen


def ids(usual: int, *others: int) -> st.SearchStrategy[Any]:
    """Mostly the id of a record of the kind asked for; else another, unknown or missing."""
    return mostly(usual, *others, UNKNOWN, None)


FLAGS = maybe(st.booleans())


@attrs.frozen
class Call:
    """One call of the public API: ``cal.<collection>.<method>(*args, **kwargs)``."""

    collection: str
    method: str
    args: list[object]
    kwargs: dict[str, object]

    def on(self, cal: ec.Calendar, args: list[object], kwargs: dict[str, object]) -> object:
        return getattr(getattr(cal, self.collection), self.method)(*args, **kwargs)


def call(collection: str, method: str, *args: Any, **kwargs: Any) -> Call:
    return Call(collection, method, list(args), kwargs)


EVENT_IDS = ids(SEED.event, SEED.draft, SEED.venue)


def event_calls() -> st.SearchStrategy[Call]:
    lists = st.fixed_dictionaries(
        {"start_date": st.just(YEAR[0]), "end_date": st.just(YEAR[1])},
        optional={
            "venue": maybe(st.lists(st.sampled_from([SEED.venue, UNKNOWN]), max_size=2)),
            "organizer": st.sampled_from([[SEED.organizer], SEED.organizer, None]),
            "categories": maybe(st.lists(st.sampled_from([SEED.music, SEED.jazz]), min_size=1)),
            "tags": st.sampled_from([[SEED.tag], None]),
            "featured": FLAGS,
            "strict_dates": FLAGS,
            "starts_after": DATES,
            "include": maybe(st.lists(st.sampled_from([SEED.event, SEED.draft]), min_size=1)),
            "post_parent": st.sampled_from([SEED.event, None]),
            "status": st.sampled_from(["publish", "draft", None]),
            "page": st.sampled_from([1, 2]),
            "per_page": st.sampled_from([1, 10, None]),
        },
    )
    return st.one_of(
        event_fields(creating=True).map(lambda fields: call("events", "create", **fields)),
        st.builds(call, st.just("events"), st.just("get"), EVENT_IDS),
        st.builds(call, st.just("events"), st.just("get_by_slug"), maybe(st.just("opening"))),
        st.builds(
            lambda record_id, fields: call("events", "update", record_id, **fields),
            EVENT_IDS,
            event_fields(creating=False),
        ),
        st.builds(
            lambda record_id, force: call("events", "delete", record_id, force=force),
            EVENT_IDS,
            st.booleans(),
        ),
        lists.map(lambda filters: call("events", "list", **filters)),
    )


def linked_calls(collection: str, title: str, own: int) -> st.SearchStrategy[Call]:
    record_ids = ids(own, SEED.event)
    fields = st.fixed_dictionaries(
        {title: maybe(st.sampled_from(["Hall", "Annex"]))},
        optional={
            "description": maybe(st.just("Upstairs")),
            "show_map": FLAGS,
            "author": mostly(SEED.editor, UNKNOWN),
            "date": DATES,
        },
    )
    filters = st.fixed_dictionaries(
        {},
        optional={
            "event": st.sampled_from([SEED.event, SEED.draft, None]),
            "has_events": FLAGS,
            "page": st.sampled_from([1, 2]),
            "per_page": st.sampled_from([1, 10, None]),
        },
    )
    return st.one_of(
        fields.map(lambda data: call(collection, "create", **data)),
        st.builds(call, st.just(collection), st.just("get"), record_ids),
        st.builds(call, st.just(collection), st.just("get_by_slug"), maybe(st.just("hall"))),
        st.builds(
            lambda record_id, data: call(collection, "update", record_id, **data),
            record_ids,
            fields,
        ),
        st.builds(call, st.just(collection), st.just("delete"), record_ids),
        filters.map(lambda data: call(collection, "list", **data)),
    )


def term_calls(collection: str, own: int) -> st.SearchStrategy[Call]:
    term_ids = ids(own, SEED.tag if collection == "categories" else SEED.music)
    parents = (
        {"parent": st.sampled_from([SEED.music, 0, UNKNOWN])} if collection == "categories" else {}
    )
    fields = st.fixed_dictionaries(
        {"name": maybe(st.sampled_from(["Blues", "Free"]))},
        optional={"description": maybe(st.just("Slow")), **parents},
    )
    filters = st.fixed_dictionaries(
        {},
        optional={
            "include": maybe(st.lists(st.sampled_from([SEED.music, SEED.jazz, SEED.tag]))),
            "exclude": maybe(st.lists(st.sampled_from([SEED.jazz, SEED.tag]), min_size=1)),
            "post": st.sampled_from([SEED.event, None]),
            "hide_empty": FLAGS,
            "per_page": st.sampled_from([1, 10, None]),
            **parents,
        },
    )
    return st.one_of(
        fields.map(lambda data: call(collection, "create", **data)),
        st.builds(call, st.just(collection), st.just("get"), term_ids),
        st.builds(
            lambda term_id, data: call(collection, "update", term_id, **data), term_ids, fields
        ),
        st.builds(call, st.just(collection), st.just("delete"), term_ids),
        filters.map(lambda data: call(collection, "list", **data)),
    )


# --- outcomes --------------------------------------------------------------------------------


def outcome(run: Callable[..., object], *args: object) -> str:
    """What a call answered, or the error it raised (its type, code, fields and message).

    Compared as ``repr``: two datetimes of one instant in different zones are ``==``, but the
    calendar must keep the same wall clock and zone whichever value it was given.
    """
    try:
        return repr(run(*args))
    except CalendarError as error:
        return repr((type(error).__name__, error.code, dict(error.fields), str(error)))


def snapshot(cal: ec.Calendar) -> str:
    """Everything stored, as the public API reads it (a ``repr``, as ``outcome``)."""
    posts = {"status": "any", "per_page": 100}
    return repr(
        {
            "events": cal.events.list(
                **posts, start_date="1000-01-01", end_date="9999-12-31"
            ).items,
            "venues": cal.venues.list(**posts).items,
            "organizers": cal.organizers.list(**posts).items,
            "categories": cal.categories.list(per_page=100).items,
            "tags": cal.tags.list(per_page=100).items,
        }
    )


def same_answers(kind: str, data: st.DataObject, calls: st.SearchStrategy[Call]) -> None:
    """Plain and numpy/pandas arguments make the same answers and leave the same data."""
    with twins(kind) as (plain_cal, numpy_cal):
        for planned in data.draw(st.lists(calls, min_size=1, max_size=3)):
            args = data.draw(numpy_like(planned.args))
            kwargs = data.draw(numpy_like(planned.kwargs))
            expected = outcome(planned.on, plain_cal, planned.args, planned.kwargs)
            assert expected == outcome(planned.on, numpy_cal, args, kwargs)
        assert snapshot(plain_cal) == snapshot(numpy_cal)


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_event_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Event create, get, get_by_slug, update, delete and list filters."""
    same_answers(kind, data, event_calls())


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_venue_and_organizer_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Venue and organizer create, get, get_by_slug, update, delete and list filters."""
    calls = st.one_of(
        linked_calls("venues", "venue", SEED.venue),
        linked_calls("organizers", "organizer", SEED.organizer),
    )
    same_answers(kind, data, calls)


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_category_and_tag_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Category and tag create, get, update, delete and list filters."""
    same_answers(
        kind, data, st.one_of(term_calls("categories", SEED.jazz), term_calls("tags", SEED.tag))
    )


def _frame_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows as a DataFrame holds them: cells of numpy and pandas nullable types."""
    frame = pd.DataFrame(rows).convert_dtypes()
    return [{c: frame.at[i, c] for c in frame.columns} for i in range(len(frame))]


@st.composite
def frame_like_rows(draw: st.DrawFn) -> list[dict[str, object]]:
    """Event rows that all give the same fields, as the rows of a DataFrame do."""
    first = draw(event_fields(creating=True, refused=False))
    others = draw(st.lists(event_fields(creating=True, refused=False), max_size=3))
    return [first, *({name: row.get(name, first[name]) for name in first} for row in others)]


@pytest.mark.parametrize("kind", BACKENDS)
@given(rows=frame_like_rows(), data=st.data())
def test_bulk_create_answers_like_plain_values(
    kind: str, rows: list[dict[str, object]], data: st.DataObject
) -> None:
    """Rows of numpy values, or cells of a DataFrame, load as the plain rows do."""
    framed = data.draw(st.booleans())
    with twins(kind) as (plain_cal, numpy_cal):
        expected = outcome(plain_cal.events.bulk_create, rows)
        stand_ins = _frame_rows(rows) if framed else data.draw(numpy_like(rows))
        assert expected == outcome(numpy_cal.events.bulk_create, stand_ins)
        assert snapshot(plain_cal) == snapshot(numpy_cal)
