"""Where a request's time goes: the served app driven in-process, split into layers.

Usage::

    .venv/bin/python bench/http/profile.py --events 100000 --db-dir /tmp/ec-http-bench
    .venv/bin/python bench/http/profile.py --db /tmp/ec-http-bench/http-events-....db \\
        --target list --requests 200 --pyinstrument /tmp/list.txt

The app is the one ``events-calendar serve`` runs, built by the same factory
(``app_from_environment``) from the same settings, on the database ``run.py`` serves. Requests
go straight into the ASGI app through a minimal call loop (no socket, no HTTP parser), one at a
time, so uvicorn's own cost is left out: ``run.py``'s ceiling measures that part.

Three passes over the same requests:

1. **plain**: no instrumentation; the in-process time per request (and the requests/s one
   worker could reach if nothing else cost anything);
2. **split**: light wrappers around the layer boundaries time each layer *exclusively*
   (a layer's time excludes the layers it calls), so the shares add up to the whole:

   | layer | what is timed |
   |---|---|
   | ``sql`` | ``SQLiteEngine._run`` (every statement) and fetching its rows (SQLite's own work) |
   | ``backend`` | ``SQLStore``'s public methods, less SQL and record building |
   | ``records`` | ``SQLStore._records``: rows to attrs records (cattrs, link lists) |
   | ``core`` | ``Calendar.as_user``, ``event_filter``, ``events.list/related/get/may_edit`` |
   | ``wire`` | ``Wire.event/venue/organizer/term`` and ``Urls.listing`` (presentation) |
   | ``json`` | ``http.responses.dumps`` (orjson) |
   | ``adapter`` | the route handler (``_Api.endpoint``), less all of the above |
   | ``framework`` | the rest of the ASGI call: Starlette routing, middleware, Request/Response |

   It also times each SQL statement shape (IN-lists folded), the usual suspects;
3. **cProfile**: the ``--top`` functions by cumulative time, and by self time.

``--pyinstrument FILE`` adds a statistical call tree (``pip install pyinstrument``), which
cProfile's per-call overhead does not distort.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import io
import json
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from database import DEFAULT_DB_DIR, DEFAULT_SEED, ensure_database, serve_environment
from inprocess import API, Asgi, asgi_get, cProfile, pstats

__all__ = ["Split", "main"]

LAYERS = ("sql", "backend", "records", "core", "wire", "json", "adapter", "framework")


# -- exclusive layer timing -----------------------------------------------------------------
_IN_LIST = re.compile(r"\((?:\?, )*\?\)")


class _Rows:
    """A cursor whose rows were fetched inside the timed ``execute`` (reads only)."""

    def __init__(self, cursor: Any) -> None:
        self.description = cursor.description
        self.rowcount = getattr(cursor, "rowcount", -1)
        self.lastrowid = getattr(cursor, "lastrowid", None)
        self._rows = cursor.fetchall() if cursor.description else []
        self._at = 0

    def fetchall(self) -> list[Any]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def __iter__(self) -> Any:
        return iter(self.fetchall())


class Split:
    """Times layers exclusively: a section's time excludes the sections opened inside it."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.statements: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        self._stack: list[list[float]] = []  # [started, time spent in children]
        self._undo: list[Callable[[], None]] = []

    def _open(self) -> None:
        self._stack.append([time.perf_counter(), 0.0])

    def _close(self, layer: str) -> float:
        started, children = self._stack.pop()
        elapsed = time.perf_counter() - started
        self.seconds[layer] += elapsed - children
        self.calls[layer] += 1
        if self._stack:
            self._stack[-1][1] += elapsed
        return elapsed

    def wrap(self, layer: str, function: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                self._open()
                try:
                    return await function(*args, **kwargs)
                finally:
                    self._close(layer)

            return timed_async

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._open()
            try:
                return function(*args, **kwargs)
            finally:
                self._close(layer)

        return timed

    def patch(self, owner: Any, name: str, layer: str) -> None:
        original = owner.__dict__[name] if name in owner.__dict__ else getattr(owner, name)
        setattr(owner, name, self.wrap(layer, original))
        self._undo.append(lambda: setattr(owner, name, original))

    def _patch_sql(self) -> None:
        from events_calendar.backends.sqlite import SQLiteEngine

        original = SQLiteEngine._run
        split = self

        def run(engine: Any, connection: Any, sql: str, params: Any = ()) -> Any:
            split._open()
            try:
                return _Rows(original(engine, connection, sql, params))
            finally:
                elapsed = split._close("sql")
                shape = split.statements[_IN_LIST.sub("(...)", sql)[:160]]
                shape[0] += 1
                shape[1] += elapsed

        SQLiteEngine._run = run  # type: ignore[method-assign]
        self._undo.append(lambda: setattr(SQLiteEngine, "_run", original))

    def install(self, app: Any) -> None:
        """Wrap the layer boundaries of the library and of ``app``'s routes."""
        from starlette.routing import request_response

        from events_calendar import calendar, events, posts
        from events_calendar.backends.sql import store
        from events_calendar.http import responses, urls, wire

        self._patch_sql()
        backend = store.SQLStore  # every SQL backend's storage methods live here
        for name, member in list(vars(backend).items()):
            if not name.startswith("_") and inspect.isfunction(member) and name != "transaction":
                self.patch(backend, name, "backend")
        self.patch(backend, "_records", "records")
        self.patch(calendar.Calendar, "as_user", "core")
        self.patch(events, "event_filter", "core")
        for name in ("list", "related"):
            self.patch(events.EventCollection, name, "core")
        for name in ("get", "get_by_slug", "may_edit"):
            self.patch(posts.PostCollection, name, "core")
        for name in ("event", "venue", "organizer", "term"):
            self.patch(wire.Wire, name, "wire")
        self.patch(urls.Urls, "listing", "wire")
        self.patch(responses, "dumps", "json")
        for route in app.routes:
            # One route a path; its endpoints, by method, are in ``route.endpoint.apps``.
            by_method = getattr(route, "endpoint", None)
            for method, endpoint in getattr(by_method, "endpoints", {}).items():
                method_app = by_method.apps[method]
                by_method.apps[method] = request_response(self.wrap("adapter", endpoint))
                self._undo.append(functools.partial(by_method.apps.__setitem__, method, method_app))

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    async def request(self, app: Asgi, path: str, query: str = "") -> tuple[int, bytes]:
        """One request, its time outside every section counted as ``framework``."""
        self._open()
        try:
            return await asgi_get(app, path, query)
        finally:
            self._close("framework")


# -- passes -----------------------------------------------------------------------------------
def _drive(
    app: Asgi,
    path: str,
    count: int,
    budget_s: float,
    *,
    send: Callable[[Asgi, str], Awaitable[tuple[int, bytes]]] | None = None,
) -> list[float]:
    """Run up to ``count`` requests (at least 5, at most ``budget_s`` seconds); their times."""
    send = send or asgi_get

    async def run() -> list[float]:
        times: list[float] = []
        deadline = time.perf_counter() + budget_s
        for number in range(count):
            if number >= 5 and time.perf_counter() > deadline:
                break
            started = time.perf_counter()
            status, body = await send(app, path)
            times.append(time.perf_counter() - started)
            if status != 200:
                raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")
        return times

    return asyncio.run(run())


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def profile_target(
    app: Any, name: str, path: str, args: argparse.Namespace
) -> tuple[dict[str, Any], str]:
    """The three passes over one path; returns the figures and a printable report."""
    _drive(app, path, args.warmup, budget_s=60)
    plain = _drive(app, path, args.requests, args.budget)
    mean = statistics.fmean(plain)
    result: dict[str, Any] = {
        "path": path,
        "requests": len(plain),
        "mean_ms": round(mean * 1e3, 3),
        "p50_ms": round(_percentile(plain, 0.5) * 1e3, 3),
        "p99_ms": round(_percentile(plain, 0.99) * 1e3, 3),
        "in_process_rps": round(1 / mean, 1),
    }

    split = Split()
    split.install(app)
    try:
        timed = _drive(app, path, len(plain), args.budget * 2, send=split.request)
    finally:
        split.uninstall()
    n = len(timed)
    total = sum(split.seconds.values())
    layers = {
        layer: {
            "ms_per_request": round(split.seconds[layer] / n * 1e3, 3),
            "share": round(split.seconds[layer] / total, 4) if total else 0.0,
            "calls_per_request": round(split.calls[layer] / n, 2),
        }
        for layer in LAYERS
    }
    statements = sorted(split.statements.items(), key=lambda kv: -kv[1][1])
    result["split"] = {
        "requests": n,
        "ms_per_request": round(total / n * 1e3, 3),
        "instrumented_overhead_ms": round((total / n - mean) * 1e3, 3),
        "layers": layers,
        "sql_statements_per_request": round(split.calls["sql"] / n, 2),
        "sql_by_statement": [
            {"sql": sql, "per_request": round(c / n, 2), "ms_per_request": round(s / n * 1e3, 3)}
            for sql, (c, s) in statements
        ],
    }

    profiler = cProfile.Profile()
    runs = max(5, min(len(plain), args.profile_requests))

    async def profiled() -> None:
        for _ in range(runs):
            profiler.enable()
            await asgi_get(app, path)
            profiler.disable()

    asyncio.run(profiled())
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(args.top)
    cumulative_text = out.getvalue()
    out.seek(0)
    out.truncate()
    stats.sort_stats("tottime").print_stats(args.top)
    result["cprofile_requests"] = runs
    result["cprofile_top_cumulative"] = _top_rows(stats, args.top, column=3)
    result["cprofile_top_self"] = _top_rows(stats, args.top, column=2)

    if args.pyinstrument:
        from pyinstrument import Profiler

        sampler = Profiler(interval=0.0002, async_mode="disabled")
        sampler.start()
        _drive(app, path, len(plain), args.budget)
        sampler.stop()
        target = args.pyinstrument.with_name(f"{args.pyinstrument.stem}-{name}.txt")
        target.write_text(sampler.output_text(unicode=True, color=False, show_all=False))
        result["pyinstrument"] = str(target)

    return result, _render(name, result, cumulative_text, out.getvalue())


def _top_rows(stats: pstats.Stats, top: int, *, column: int) -> list[dict[str, Any]]:
    """The ``top`` rows by self (``column`` 2) or cumulative (3) time, as data."""
    table = stats.stats  # type: ignore[attr-defined]
    rows = sorted(table.items(), key=lambda kv: -kv[1][column])[:top]
    found = []
    for (filename, line, function), (_, calls, tottime, cumtime, _callers) in rows:
        short = filename
        for marker in ("site-packages/", "src/"):
            if marker in filename:
                short = filename.split(marker, 1)[1]
        found.append(
            {
                "function": f"{short}:{line}({function})",
                "calls": calls,
                "tottime_s": round(tottime, 4),
                "cumtime_s": round(cumtime, 4),
            }
        )
    return found


def _render(name: str, result: dict[str, Any], cumulative: str, own: str) -> str:
    split = result["split"]
    lines = [
        f"== {name}: GET {result['path']}",
        f"plain: {result['requests']} requests, mean {result['mean_ms']:.2f} ms,"
        f" p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms"
        f" -> at most {result['in_process_rps']:,.0f} req/s on one worker before HTTP",
        f"split ({split['ms_per_request']:.2f} ms/request instrumented,"
        f" {split['sql_statements_per_request']:.0f} SQL statements/request):",
    ]
    for layer, figures in split["layers"].items():
        lines.append(
            f"  {layer:<10} {figures['ms_per_request']:>9.3f} ms  {100 * figures['share']:5.1f}%"
        )
    lines.append("SQL by statement (ms/request, count/request):")
    for row in split["sql_by_statement"][:8]:
        lines.append(f"  {row['ms_per_request']:>9.3f} ms  x{row['per_request']:<5} {row['sql']}")
    for title, text in (("cumulative", cumulative), ("self (tottime)", own)):
        lines.append(f"cProfile, {result['cprofile_requests']} requests, top by {title} time:")
        body = text.split("ncalls", 1)
        lines.append("   ncalls" + body[1].rstrip() if len(body) > 1 else text)
    return "\n".join(lines)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--db-dir", type=Path, default=DEFAULT_DB_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--db", type=Path, help="profile this database file instead")
    parser.add_argument("--target", choices=("list", "get", "both"), default="both")
    parser.add_argument("--requests", type=int, default=200, help="requests per pass")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per pass, at most")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--profile-requests", type=int, default=50, help="requests profiled")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--pyinstrument", type=Path, help="write call trees to FILE-<target>.txt")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    if args.db:
        db = args.db
    else:
        db, _ = ensure_database(args.db_dir, args.events, seed=args.seed)
    os.environ.update(serve_environment(db))
    from events_calendar.http.server import app_from_environment

    app = app_from_environment()
    status, body = asyncio.run(asgi_get(app, f"{API}/events"))
    if status != 200:
        raise SystemExit(f"GET /events answered {status}: {body[:300]!r}")
    first = json.loads(body)["events"][0]["id"]
    targets = {"list": f"{API}/events", "get": f"{API}/events/{first}"}
    chosen = ("list", "get") if args.target == "both" else (args.target,)
    report: dict[str, Any] = {"db": str(db), "python": sys.version.split()[0], "targets": {}}
    for name in chosen:
        result, text = profile_target(app, name, targets[name], args)
        report["targets"][name] = result
        print(text, flush=True)
        print()
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
        print(f"JSON: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
