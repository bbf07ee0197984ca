"""The realistic mix: Zipf-distributed anonymous reads over ~3,700 URLs plus a share of writes.

Usage::

    .venv/bin/python bench/http/mix.py --events 100000 --duration 15 --write-share 0.01 \\
        --db-dir /tmp/ec-http-bench --out bench/results/http-mix.json

One URL answered from the response cache says little about a public calendar, which sees many
URLs, a few of them often and most of them rarely, and now and then a write. This loads one
``events-calendar serve`` worker (``run.py``'s server, database and ceiling) with:

- requests drawn from a Zipf distribution (exponent ``--zipf``, 1.1) over the URLs a public
  calendar sees (``plan_urls``): 50 pages of the default window; 30 month windows x 5 pages;
  50 categories x 3 pages; 200 venues; 100 organizers; 18 search words x 3 pages; 2,900
  single events; venue, organizer, category and tag lists and pages. The URLs are ranked by a
  seeded shuffle, so which of them is popular is arbitrary but the same every run;
- a ``--write-share`` of authenticated ``POST /events`` (1% by default), each a new published
  event in the default window, from a user the script creates with an application password;
- the same bare-Starlette ceiling as ``run.py`` (a static body the size of ``GET /events``),
  loaded in the same run, so the mix's requests/s is also reported as a ratio of it.

The load comes from wrk with a generated Lua script (the request sequence is drawn in Python,
seeded, and each wrk thread walks it from its own offset). Without wrk the mix cannot be
replayed (``loadgen.py`` sends one URL); install it (``apt-get install -y wrk``).

The database is a scratch copy of ``run.py``'s file, so the writes of one run never change the
data the next run measures. ``--backend postgresql://...`` serves the same data from PostgreSQL
(``pgdatabase.py``: the file copied into a kept ``ec_mix_*`` database, a template copy per run),
and ``--workers N`` is ``serve --workers N``. ``--write-share`` takes several shares (1 = writes
only), loaded one after another against the same server. Each load reports who used the CPU
(``cpushare.py``): on a 2-core machine, wrk, the workers and PostgreSQL share two cores.
"""

from __future__ import annotations

import argparse
import base64
import calendar as months
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from ceiling import body_of_size
from cpushare import CpuWindow, settle
from database import DEFAULT_DB_DIR, DEFAULT_SEED, anchor_now, ensure_database
from pgdatabase import PREFIX, PgDatabases, is_postgres
from run import (
    API,
    HOST,
    Served,
    _machine,
    _serve_command,
    free_port,
    http_get,
    parse_wrk,
    server_stack,
    wait_ready,
)

import events_calendar as ec

__all__ = ["lua_script", "main", "plan_urls", "writer_password", "zipf_sequence"]

_HERE = Path(__file__).resolve().parent
#: The issue's targets for the mix on one worker at 100k events.
TARGET_RPS = 2500.0
TARGET_P99_MS = 25.0
#: Words of ``bench/dataset.py``'s descriptions, as a visitor would search for them.
SEARCH_WORDS = (
    "music", "art", "workshop", "dance", "garden", "theatre", "choir", "exhibition", "river",
    "festival", "jazz", "market", "film", "family", "night", "library", "quartet", "tour",
)  # fmt: skip
WRITER = "bench-writer"


def _ids(base: str, path: str, key: str, pages: int) -> list[int]:
    """Ids of up to ``pages`` x 50 records of a list route, in its order."""
    found: list[int] = []
    for page in range(1, pages + 1):
        status, _, body = http_get(f"{base}{path}?{urlencode({'per_page': 50, 'page': page})}")
        if status != 200:
            break
        found.extend(item["id"] for item in json.loads(body)[key])
    return found


def plan_urls(base: str, today: date) -> list[str]:
    """The mix's distinct URLs (paths under the API root), asking the server for real ids."""
    events = _ids(base, "/events", "events", 58)[:2900]
    categories = _ids(base, "/categories", "categories", 1)[:50]
    venues = _ids(base, "/venues", "venues", 20)[:200]
    organizers = _ids(base, "/organizers", "organizers", 10)[:100]
    tags = _ids(base, "/tags", "tags", 4)
    urls = [f"/events?page={p}" for p in range(1, 51)]
    first = date(today.year, today.month, 1)
    for shift in range(-6, 24):  # 30 month windows around today
        year, month = divmod(first.month - 1 + shift, 12)
        start = date(first.year + year, month + 1, 1)
        end = start.replace(day=months.monthrange(start.year, start.month)[1])
        for page in range(1, 6):
            query = urlencode({"start_date": f"{start}", "end_date": f"{end}", "page": page})
            urls.append(f"/events?{query}")
    urls += [f"/events?categories={c}&page={p}" for c in categories for p in (1, 2, 3)]
    urls += [f"/events?venue={v}" for v in venues]
    urls += [f"/events?organizer={o}" for o in organizers]
    urls += [f"/events?search={w}&page={p}" for w in SEARCH_WORDS for p in (1, 2, 3)]
    urls += [f"/events/{e}" for e in events]
    urls += [f"/venues?page={p}" for p in range(1, 11)] + [f"/venues/{v}" for v in venues[:100]]
    urls += [f"/organizers?page={p}" for p in range(1, 6)]
    urls += [f"/organizers/{o}" for o in organizers[:50]]
    urls += ["/categories", "/categories?page=2"] + [f"/categories/{c}" for c in categories]
    urls += [f"/tags?page={p}" for p in range(1, 5)] + [f"/tags/{t}" for t in tags[:50]]
    return [API + url for url in urls]


def zipf_sequence(
    count: int, *, length: int, exponent: float, write_share: float, seed: int
) -> list[int]:
    """``length`` draws: 1-based ranks from Zipf(``exponent``) over ``count`` items, or 0 for a
    write with probability ``write_share``."""
    rng = random.Random(seed)
    weights = [1 / rank**exponent for rank in range(1, count + 1)]
    reads = rng.choices(range(1, count + 1), weights=weights, k=length)
    return [0 if rng.random() < write_share else read for read in reads]


def lua_script(urls: Sequence[str], sequence: Sequence[int], *, auth: str, day: date) -> str:
    """A wrk script replaying ``sequence`` (0 = ``POST /events``) from per-thread offsets and
    counting the writes answered 201."""
    paths = ",\n".join(json.dumps(u) for u in urls)
    seq = ",".join(str(i) for i in sequence)
    starts = [(day + timedelta(days=d)).isoformat() for d in range(1, 200, 7)]
    return f"""
local paths = {{ {paths} }}
local seq = {{ {seq} }}
local starts = {{ {",".join(json.dumps(s) for s in starts)} }}
local reqs = {{}}
local pos, made = 0, 0
writes, written = 0, 0  -- globals: done() reads them with thread:get
local threads = {{}}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("offset", (counter - 1) * math.floor(#seq / 7))
  thread:set("id", counter)
  table.insert(threads, thread)
end
function init(args)
  pos = offset
  for i, p in ipairs(paths) do reqs[i] = wrk.format("GET", p) end
end
function request()
  pos = pos % #seq + 1
  local i = seq[pos]
  if i ~= 0 then return reqs[i] end
  made = made + 1
  writes = writes + 1
  local day = starts[made % #starts + 1]
  local body = '{{"title":"Bench write ' .. id .. '-' .. made .. '","status":"publish",' ..
    '"start_date":"' .. day .. ' 18:00:00","end_date":"' .. day .. ' 20:00:00"}}'
  return wrk.format("POST", "{API}/events", {{
    ["Authorization"] = "{auth}", ["Content-Type"] = "application/json"}}, body)
end
function response(status, headers, body)
  if status == 201 then written = written + 1 end
end
function done(summary, latency, requests)
  local w, ok = 0, 0
  for _, t in ipairs(threads) do w = w + t:get("writes"); ok = ok + t:get("written") end
  io.write(string.format("MIX writes %d written %d\\n", w, ok))
end
"""


def run_wrk_script(
    url: str, script: Path | None, args: argparse.Namespace, seconds: int
) -> dict[str, Any]:
    import subprocess

    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s"]
    command += ["--timeout", "5s", "--latency", *(["-s", str(script)] if script else []), url]
    done = subprocess.run(  # noqa: S603 - wrk, our own script, loopback url
        command, capture_output=True, text=True, timeout=seconds + 60, check=True
    )
    result = parse_wrk(done.stdout)
    for line in done.stdout.splitlines():
        if line.startswith("MIX writes"):
            parts = line.split()
            result["writes_sent"], result["writes_201"] = int(parts[2]), int(parts[4])
    return result


def _measure(
    served: Served,
    url: str,
    script: Path | None,
    args: argparse.Namespace,
    seconds: int,
    db_pids: Callable[[], set[int]] | None = None,
) -> dict[str, Any]:
    settle(served.pid)
    window, load_before = CpuWindow(served.pid, db_pids), os.getloadavg()[0]
    window.start()
    result = run_wrk_script(url, script, args, seconds)
    result["cpu_percent_of_one_core"] = window.stop()
    result["server_cpu_percent"] = result["cpu_percent_of_one_core"]["server"]
    result["loadavg_1m_before_after"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    if seconds_run := result.get("seconds"):  # the reads alone, for the write share's toll
        # writes_sent counts the writes wrk made, up to a connection's worth still in flight
        reads = max(0, result["requests"] - result.get("writes_sent", 0))
        result["read_rps"] = round(reads / seconds_run, 1)
    if not served.alive():
        raise RuntimeError(f"{served.name} died under load:\n{served.log_tail()}")
    return result


def writer_password(url: str) -> str:
    """An application password of the writer (created if missing) on the served database."""
    cal = ec.connect(url)
    try:
        if WRITER not in {u.login for u in cal.users.list()}:
            cal.users.create(WRITER, role="administrator")
        return cal.users.issue_password(WRITER, label="mix benchmark")
    finally:
        cal.close()


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the database")
    parser.add_argument("--duration", type=int, default=15, help="seconds of load per target")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unrecorded mix first")
    parser.add_argument(
        "--write-share",
        type=float,
        nargs="+",
        default=[0.01],
        help="share of POST /events (1 = writes only); several values load the mix once each,"
        " in the order given",
    )
    parser.add_argument(
        "--read-only-too", action="store_true", help="also load the mix with no writes"
    )
    parser.add_argument("--zipf", type=float, default=1.1, help="Zipf exponent of the reads")
    parser.add_argument(
        "--no-prime",
        dest="prime",
        action="store_false",
        help="start from a cold cache (by default every URL is read once before the load)",
    )
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections")
    parser.add_argument("--db-dir", type=Path, default=DEFAULT_DB_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--backend",
        default="sqlite",
        help="'sqlite' (a scratch copy of the file) or a postgresql:// URL: the same data in"
        f" a database {PREFIX}<N>_s<seed>_<month> on its server, served from a scratch copy",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="PostgreSQL: keep the built database for later runs (dropped at the end otherwise)",
    )
    parser.add_argument("--workers", type=int, default=1, help="serve --workers (uvicorn)")
    parser.add_argument("--out", type=Path, default=Path("bench/results/http-mix.json"))
    args = parser.parse_args(argv)
    if not all(0 <= share <= 1 for share in args.write_share) or not 1 <= args.duration <= 300:
        parser.error("--write-share is 0..1 and --duration 1..300 s")
    if args.backend != "sqlite" and not is_postgres(args.backend):
        parser.error(f"--backend: 'sqlite' or a postgresql:// URL, not {args.backend!r}")
    if not 1 <= args.workers <= 16:
        parser.error("--workers is 1..16")
    if args.read_only_too and 0.0 not in args.write_share:
        args.write_share.append(0.0)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    if not shutil.which("wrk"):
        raise SystemExit("the mix needs wrk: apt-get install -y wrk")
    source, db_facts = ensure_database(args.db_dir, args.events, seed=args.seed)
    scratch = Path(tempfile.mkdtemp(prefix="ec-http-mix-"))
    pg, run_db, db_pids = None, "", None
    if is_postgres(args.backend):
        pg = PgDatabases(args.backend, args.events, args.seed, f"{anchor_now():%Y%m%d}")
        db_facts = {"sqlite_source": db_facts, **pg.ensure(source), "database": pg.name}
        run_db = pg.scratch()
        db_url = pg.url(run_db)
        db_pids = pg.backends_of(run_db)
    else:
        shutil.copyfile(source, scratch / "mix.db")
        db_url = f"sqlite:///{scratch / 'mix.db'}"
    port, ceiling_port = free_port(), free_port()
    serve = _serve_command(db_url, port, workers=args.workers)
    api = Served("events-calendar serve", serve, scratch / "serve.log")
    ceiling = Served("ceiling", [], scratch / "ceiling.log")
    results: dict[str, Any] = {}
    try:
        auth = "Basic " + base64.b64encode(f"{WRITER}:{writer_password(db_url)}".encode()).decode()
        api.start()
        root = f"http://{HOST}:{port}"
        wait_ready(api, f"{root}{API}/")
        urls = plan_urls(f"{root}{API}", anchor_now().date())
        random.Random(args.seed).shuffle(urls)  # the popularity ranks: arbitrary, repeatable
        status, _, body = http_get(f"{root}{API}/events")
        if status != 200:
            raise RuntimeError(f"GET /events answered {status}")
        ceiling.command = [sys.executable, str(_HERE / "ceiling.py"), "--host", HOST]
        ceiling.command += ["--port", str(ceiling_port), "--size", str(len(body))]
        ceiling.start()
        wait_ready(ceiling, f"http://{HOST}:{ceiling_port}/")
        if http_get(f"http://{HOST}:{ceiling_port}/")[2] != body_of_size(len(body)):
            raise RuntimeError("the ceiling answered wrong")
        if args.prime:
            # A live site's cache is warm: every URL once, the most popular last (the cache
            # keeps the most recently used), so the load starts from the steady state.
            print(f"priming: {len(urls):,} URLs once each", flush=True)
            for url in reversed(urls):
                http_get(f"{root}{url}")
        today = datetime.now(UTC).date()
        for share in dict.fromkeys(args.write_share):
            sequence = zipf_sequence(
                len(urls), length=200_000, exponent=args.zipf, write_share=share, seed=args.seed
            )
            script = scratch / f"mix-{share}.lua"
            script.write_text(lua_script(urls, sequence, auth=auth, day=today))
            name = f"mix_writes_{share:g}"
            if args.warmup:
                print(f"warming up the mix ({args.warmup} s)", flush=True)
                _measure(api, root, script, args, args.warmup)
            print(f"loading the mix, {share:.1%} writes ({args.duration} s)", flush=True)
            results[name] = _measure(api, root, script, args, args.duration, db_pids)
        print(f"loading the ceiling ({args.duration} s)", flush=True)
        results["ceiling"] = _measure(
            ceiling, f"http://{HOST}:{ceiling_port}/", None, args, args.duration
        )
    finally:
        for served in (api, ceiling):
            served.stop()
        logs = {s.name: s.log_tail() for s in (api, ceiling)}
        shutil.rmtree(scratch, ignore_errors=True)
        if pg is not None:
            pg.drop(run_db)
            if not args.keep:
                pg.drop(pg.name)
    ceiling_rps = results["ceiling"]["rps"]
    for result in results.values():
        result["ratio_to_ceiling"] = round(result["rps"] / ceiling_rps, 4)
    report = {
        "benchmark": "http-mix",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "distinct_urls": len(urls),
        "machine": _machine(),
        "server_stack": server_stack({}),
        "backend": "postgresql" if pg else "sqlite",
        "serve_command": serve,
        "database": {"path": str(source), **db_facts},
        "results": results,
        "targets": {"rps": TARGET_RPS, "p99_ms": TARGET_P99_MS},
        "server_log_tails": logs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{len(urls):,} distinct URLs, Zipf {args.zipf}, {args.events:,} events")
    print(f"{report['backend']}, serve --workers {args.workers}; CPU in % of one core")
    print(
        f"{'load':<20} {'req/s':>8} {'reads/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'x ceil':>7}"
        f" {'non-2xx':>7} {'server':>6} {'wrk':>5} {'pg':>5} {'busy':>5}"
    )
    for name, r in results.items():
        cpu = r["cpu_percent_of_one_core"]
        print(
            f"{name:<20} {r['rps']:>8,.0f} {r.get('read_rps', 0):>8,.0f} {r['p50_ms']:>7.2f}"
            f" {r['p99_ms']:>7.2f} {r['ratio_to_ceiling']:>7.3f} {r['non_2xx']:>7}"
            f" {cpu['server']:>6.0f} {cpu['wrk']:>5.0f} {cpu['postgres']:>5.0f}"
            f" {cpu['machine_busy']:>5.0f}"
            + (f"  writes {r['writes_201']}/{r['writes_sent']} 201" if r.get("writes_sent") else "")
        )
    print(f"\nJSON: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
