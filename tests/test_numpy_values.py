"""numpy and pandas values answer exactly as the plain Python values they stand for.

Each example builds two identical calendars on one backend (memory, SQLite, PostgreSQL), makes
the same calls on both, once with plain Python arguments and once with each argument replaced
by a numpy or pandas equivalent (``np.int64``, ``np.bool_``, ``pd.Timestamp``,
``np.datetime64``, arrays and Series for lists; ``NaN``, ``pd.NA`` or ``pd.NaT`` for ``None``;
whole floats for ids, as pandas gives for an integer column with a gap), and checks that every
answer, every error and the stored data are the same.

The calls are every public method of each collection: create, get, get_by_slug, update,
delete, list, iter, update_many, delete_many, to_dataframe and from_dataframe (a frame of
Python objects for the plain calendar; for the other one a frame pandas typed, with nullable
dtypes, or of numpy values), alone or several inside ``cal.transaction()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, cast
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
from events_calendar.io.dataframe import DataFrameReport
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


class Rows(list[dict[str, object]]):
    """Rows for ``from_dataframe``: given to the plain calendar as a frame of Python objects
    (``plain_frame``), to the other as a frame pandas typed (``numpy_like``)."""


def plain_frame(rows: Rows) -> pd.DataFrame:
    """The rows as a frame whose cells are the Python values themselves."""
    return pd.DataFrame(list(rows), dtype=object)


def numpy_like(value: object) -> st.SearchStrategy[object]:
    """``value``, or a numpy or pandas value that stands for it."""
    if isinstance(value, Rows):
        typed = pd.DataFrame(list(value))  # pandas' dtypes: an id column with a gap is float64
        return st.one_of(
            st.just(typed),
            st.just(typed.convert_dtypes()),  # nullable dtypes: Int64, boolean, string
            numpy_like(list(value)).map(lambda rows: plain_frame(Rows(cast(Any, rows)))),
        )
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
            floats = [np.array(value, dtype=float), pd.Series(value, dtype="float64")]
            return st.one_of(items, st.sampled_from(arrays + floats))
        return items
    if isinstance(value, dict):
        drawn = st.fixed_dictionaries({k: numpy_like(v) for k, v in value.items()})
        return drawn.map(lambda found: {k: found[k] for k in value})  # keyword order kept
    raise AssertionError(f"no stand-in for {value!r}")


def ids_like(args: list[object]) -> st.SearchStrategy[list[object]]:
    """Positional arguments (the ids a call names) as ``numpy_like`` gives them, where an id
    may also be a whole float (``3.0``, ``np.float64(3.0)``)."""

    def one(value: object) -> st.SearchStrategy[object]:
        if type(value) is int:
            return st.sampled_from([*_ints(value), float(value), np.float64(value)])
        return numpy_like(value)

    return st.tuples(*map(one, args)).map(list)


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
    # No ``None`` for a required field on update: ``None`` is read as a value there (what
    # JSON's null arrives as, refused as invalid) where its stand-ins NaN, NaT and pd.NA are
    # missing (tests/test_numpy_ids_and_empties.py checks both).
    some = {name: st.just(value) for name, value in required.items() if value is not None}
    return draw(st.fixed_dictionaries({}, optional=some)) | chosen


def ids(usual: int, *others: int) -> st.SearchStrategy[Any]:
    """Mostly the id of a record of the kind asked for; else another, unknown or missing."""
    return mostly(usual, *others, UNKNOWN, None)


FLAGS = maybe(st.booleans())


def answer(result: object) -> object:
    """What a call answered, in a form to compare: a stream read to its end, a frame's dtypes
    and cells, a ``from_dataframe`` report's rows."""
    if isinstance(result, pd.DataFrame):
        return (result.dtypes.astype(str).to_dict(), result.to_dict("list"))
    if isinstance(result, DataFrameReport):
        return result.rows
    if isinstance(result, Iterator):
        return list(result)
    return result


@attrs.frozen
class Call:
    """One call of the public API: ``cal.<collection>.<method>(*args, **kwargs)``."""

    collection: str
    method: str
    args: list[object]
    kwargs: dict[str, object]

    def run(self, cal: ec.Calendar, stand_ins: st.DataObject | None = None) -> object:
        """The call's answer on ``cal``, with the plain arguments, or with numpy and pandas
        ones drawn from ``stand_ins``."""
        if stand_ins is None:
            args = [plain_frame(a) if isinstance(a, Rows) else a for a in self.args]
            kwargs = self.kwargs
        else:
            args = stand_ins.draw(ids_like(self.args))
            kwargs = stand_ins.draw(numpy_like(self.kwargs))
        method = getattr(getattr(cal, self.collection), self.method)
        return answer(method(*args, **kwargs))


@attrs.frozen
class Transaction:
    """Calls made inside one ``with cal.transaction():``: an error undoes them all."""

    calls: list[Call]

    def run(self, cal: ec.Calendar, stand_ins: st.DataObject | None = None) -> object:
        with cal.transaction():
            return [planned.run(cal, stand_ins) for planned in self.calls]


def call(collection: str, method: str, *args: Any, **kwargs: Any) -> Call:
    return Call(collection, method, list(args), kwargs)


def with_transactions(calls: st.SearchStrategy[Call]) -> st.SearchStrategy[Call | Transaction]:
    """A call, or a few inside one transaction."""
    return st.one_of(calls, st.lists(calls, min_size=1, max_size=3).map(Transaction))


EVENT_IDS = ids(SEED.event, SEED.draft, SEED.venue)


def event_filters(*, paged: bool) -> st.SearchStrategy[dict[str, object]]:
    """Event list filters (with ``page`` and ``per_page`` when ``paged``: ``list()``)."""
    pages = {"page": st.sampled_from([1, 2]), "per_page": st.sampled_from([1, 10, None])}
    return st.fixed_dictionaries(
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
            **(pages if paged else {}),
        },
    )


@st.composite
def frame_calls(
    draw: st.DrawFn,
    collection: str,
    fields: st.SearchStrategy[dict[str, object]],
    keys: list[str | None],
    own: int,
) -> Call:
    """``from_dataframe`` of a few rows that give the same columns, as a frame's rows do, by
    one of ``keys`` (an ``id`` column, sometimes with a gap, when the key is ``id``)."""
    first = draw(fields)
    others = draw(st.lists(fields, max_size=2))
    rows = Rows([first, *({name: row.get(name, first[name]) for name in first} for row in others)])
    key = draw(st.sampled_from(keys))
    if key == "id":
        for row in rows:
            row["id"] = draw(ids(own, SEED.event))
    on_conflict = draw(st.sampled_from(["skip", "update"]))
    return call(collection, "from_dataframe", rows, key=key, on_conflict=on_conflict)


def bulk_calls(
    collection: str,
    record_ids: st.SearchStrategy[Any],
    filters: st.SearchStrategy[dict[str, object]],
    changes: st.SearchStrategy[dict[str, object]] | None,
) -> st.SearchStrategy[Call]:
    """``iter``, ``to_dataframe``, ``delete_many`` and (with ``changes``) ``update_many``, on
    ids or on a filter."""
    targets = st.one_of(st.lists(record_ids, min_size=1, max_size=3), filters)
    found = [
        filters.map(lambda given: call(collection, "iter", **given)),
        filters.map(lambda given: call(collection, "to_dataframe", **given)),
        targets.map(lambda target: call(collection, "delete_many", target)),
    ]
    if collection in ("events", "venues", "organizers"):
        found[-1] = st.builds(
            lambda target, force: call(collection, "delete_many", target, force=force),
            targets,
            st.booleans(),
        )
    if changes is not None:
        found.append(
            st.builds(
                lambda target, given: call(collection, "update_many", target, **given),
                targets,
                changes,
            )
        )
    return st.one_of(found)


def event_calls() -> st.SearchStrategy[Call]:
    lists = event_filters(paged=True)
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
        bulk_calls("events", EVENT_IDS, event_filters(paged=False), event_fields(creating=False)),
        frame_calls(
            "events",
            event_fields(creating=True),
            [None, "id", "title", "slug"],
            SEED.event,
        ),
    )


def without_none(data: dict[str, object], required: str) -> dict[str, object]:
    """Update arguments from create ones: the required field left out rather than ``None``
    (see ``event_fields``)."""
    return {name: value for name, value in data.items() if name != required or value is not None}


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
    changes = fields.map(lambda data: without_none(data, title))
    unpaged = st.fixed_dictionaries(
        {},
        optional={
            "event": st.sampled_from([SEED.event, SEED.draft, None]),
            "has_events": FLAGS,
        },
    )
    pages = {"page": st.sampled_from([1, 2]), "per_page": st.sampled_from([1, 10, None])}
    filters = st.builds(
        lambda given, paging: given | paging, unpaged, st.fixed_dictionaries({}, optional=pages)
    )
    return st.one_of(
        fields.map(lambda data: call(collection, "create", **data)),
        st.builds(call, st.just(collection), st.just("get"), record_ids),
        st.builds(call, st.just(collection), st.just("get_by_slug"), maybe(st.just("hall"))),
        st.builds(
            lambda record_id, data: call(collection, "update", record_id, **data),
            record_ids,
            changes,
        ),
        st.builds(call, st.just(collection), st.just("delete"), record_ids),
        filters.map(lambda data: call(collection, "list", **data)),
        bulk_calls(collection, record_ids, unpaged, changes),
        frame_calls(collection, fields, [None, "id", title, "description"], own),
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
    changes = fields.map(lambda data: without_none(data, "name"))
    unpaged = st.fixed_dictionaries(
        {},
        optional={
            "include": maybe(st.lists(st.sampled_from([SEED.music, SEED.jazz, SEED.tag]))),
            "exclude": maybe(st.lists(st.sampled_from([SEED.jazz, SEED.tag]), min_size=1)),
            "post": st.sampled_from([SEED.event, None]),
            "hide_empty": FLAGS,
            **parents,
        },
    )
    filters = st.builds(
        lambda given, paging: given | paging,
        unpaged,
        st.fixed_dictionaries({}, optional={"per_page": st.sampled_from([1, 10, None])}),
    )
    return st.one_of(
        fields.map(lambda data: call(collection, "create", **data)),
        st.builds(call, st.just(collection), st.just("get"), term_ids),
        st.builds(
            lambda term_id, data: call(collection, "update", term_id, **data), term_ids, changes
        ),
        st.builds(call, st.just(collection), st.just("delete"), term_ids),
        filters.map(lambda data: call(collection, "list", **data)),
        bulk_calls(collection, term_ids, unpaged, None),
    )


# --- outcomes --------------------------------------------------------------------------------


def outcome(run: Callable[..., object], *args: Any) -> str:
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
        for planned in data.draw(st.lists(with_transactions(calls), min_size=1, max_size=3)):
            expected = outcome(planned.run, plain_cal)
            assert expected == outcome(planned.run, numpy_cal, data)
        assert snapshot(plain_cal) == snapshot(numpy_cal)


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_event_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Event create, get, get_by_slug, update, delete, list and iter filters, bulk changes
    and DataFrames, alone or in a transaction."""
    same_answers(kind, data, event_calls())


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_venue_and_organizer_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Venue and organizer create, get, get_by_slug, update, delete, list and iter filters,
    bulk changes and DataFrames, alone or in a transaction."""
    calls = st.one_of(
        linked_calls("venues", "venue", SEED.venue),
        linked_calls("organizers", "organizer", SEED.organizer),
    )
    same_answers(kind, data, calls)


@pytest.mark.parametrize("kind", BACKENDS)
@given(data=st.data())
def test_category_and_tag_calls_answer_like_plain_values(kind: str, data: st.DataObject) -> None:
    """Category and tag create, get, update, delete, list and iter filters, delete_many and
    to_dataframe, alone or in a transaction."""
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
