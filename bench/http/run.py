"""HTTP benchmark: requests/s and p50/p99 latency of the served API beside a bare-Starlette ceiling.

Usage::

    .venv/bin/python bench/http/run.py --events 100000 --duration 15 \\
        --db-dir /tmp/ec-http-bench --out bench/results/http.json

What it does, in order:

1. builds (or reuses, keyed by N, seed and month) an SQLite file of N generated events
   (``database.py``: ``bench/dataset.py`` rows through ``cal.events.bulk_create``);
2. starts ``events-calendar serve`` on it (one uvicorn worker, no access log) on a free
   loopback port, and ``ceiling.py`` (one static JSON route, the byte size of a real
   ``GET /events`` answer, the same uvicorn settings) on another;
3. checks each target answers what it should (200, ten events, the same event id, the same
   byte size), warms each up, then loads it with wrk from a separate process (2 threads,
   8 connections, ``--latency``), one target at a time;
4. prints a table (req/s, p50, p99, ratio to the ceiling, the server's CPU use) and writes
   every figure to the JSON report; the server processes are stopped whatever happens.

Without wrk (``apt-get install wrk``) it falls back to ``loadgen.py`` (asyncio + httpx, one
process per wrk thread), whose own CPU use on a 2-core machine makes its figures a lower bound.
Only loopback addresses are loaded, and every run is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ceiling import body_of_size
from database import CALENDAR_ZONE, DEFAULT_DB_DIR, DEFAULT_SEED, ensure_database

__all__ = ["main", "parse_wrk"]

HOST = "127.0.0.1"
API = "/wp-json/tribe/events/v1"
#: The issue's targets for ``GET /events`` on one worker.
TARGET_RPS = 2500.0
TARGET_P99_MS = 20.0
#: What the issue measured on this kind of machine (wrk, 2 threads, 8 connections).
REFERENCE = {"ceiling_rps": 22700, "reference_events_list_rps": 26}
_HERE = Path(__file__).resolve().parent
_STARTUP_TIMEOUT_S = 60.0


# -- processes ------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    """A server subprocess in its own process group, with its log file."""

    name: str
    command: list[str]
    log: Path
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own commands
                self.command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, **self.env},
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        """SIGTERM to this server's own process group, SIGKILL after 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            pass


def http_get(url: str, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (names lower-cased) and body of one GET (errors included)."""
    assert url.startswith(f"http://{HOST}:")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - loopback
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    return status, {k.lower(): v for k, v in headers.items()}, body


def wait_ready(served: Served, url: str) -> None:
    """Poll ``url`` until it answers; fail with the server's log if it dies or never does."""
    deadline = time.monotonic() + _STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if not served.alive():
            raise RuntimeError(f"{served.name} exited:\n{served.log_tail()}")
        try:
            http_get(url, timeout=2)
            return
        except (OSError, urllib.error.URLError):
            time.sleep(0.1)
    raise RuntimeError(f"{served.name} did not answer {url} in {_STARTUP_TIMEOUT_S:.0f} s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process group ``pid`` leads has used (Linux ``/proc``):
    a server with ``--workers N`` is a supervisor and N worker processes, all in the group
    ``Served`` starts them in."""
    from cpushare import processes

    return sum(p.cpu for p in processes().values() if p.group == pid)


def settle(pid: int, *, idle_share: float = 0.05, limit_s: float = 30.0) -> None:
    """Wait until the server is idle: requests a load left in flight are finished first."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(0.2)
        if cpu_seconds(pid) - before < idle_share * 0.2:
            return


# -- load generators ------------------------------------------------------------------------
_UNITS_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match[1]) * _UNITS_MS[match[2]]


def parse_wrk(output: str) -> dict[str, Any]:
    """Requests/s, latency percentiles (ms), counts and errors from ``wrk --latency`` output."""
    result: dict[str, Any] = {}
    if match := re.search(r"Requests/sec:\s+([\d.]+)", output):
        result["rps"] = float(match[1])
    for pct, value in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)\s*$", output, re.MULTILINE):
        result[f"p{pct}_ms"] = round(_ms(value), 3)
    if match := re.search(r"Latency\s+(\S+)\s+(\S+)\s+(\S+)", output):
        result["mean_ms"], result["max_ms"] = round(_ms(match[1]), 3), round(_ms(match[3]), 3)
    if match := re.search(r"(\d+) requests in ([\d.]+)(\w+),", output):
        result["requests"] = int(match[1])
        result["seconds"] = round(_ms(match[2] + match[3]) / 1e3, 3)
    match = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    result["non_2xx"] = int(match[1]) if match else 0
    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    kinds = ("connect", "read", "write", "timeout")
    counts = [int(g) for g in errors.groups()] if errors else [0, 0, 0, 0]
    result["socket_errors"] = sum(counts)
    result["socket_error_kinds"] = dict(zip(kinds, counts, strict=True))
    missing = {"rps", "p50_ms", "p99_ms"} - set(result)
    if missing:
        raise RuntimeError(f"could not read {sorted(missing)} from wrk's output:\n{output}")
    return result


def run_wrk(url: str, threads: int, connections: int, seconds: int) -> dict[str, Any]:
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "5s",
        "--latency",
        url,
    ]
    done = subprocess.run(  # noqa: S603 - wrk, fixed arguments, loopback url
        command, capture_output=True, text=True, timeout=seconds + 60, check=True
    )
    return parse_wrk(done.stdout)


def _nearest_rank(sorted_values: Sequence[int], q: float) -> int:
    index = max(0, min(len(sorted_values) - 1, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


def run_httpx(url: str, threads: int, connections: int, seconds: int) -> dict[str, Any]:
    """``threads`` loadgen.py processes sharing ``connections`` connections; merged figures."""
    per = [connections // threads + (1 if i < connections % threads else 0) for i in range(threads)]
    children = [
        subprocess.Popen(  # noqa: S603 - our own script
            [
                sys.executable,
                str(_HERE / "loadgen.py"),
                url,
                f"--connections={n}",
                f"--duration={seconds}",
            ],
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        for n in per
        if n
    ]
    outputs = []
    try:
        for child in children:
            out, _ = child.communicate(timeout=seconds + 60)
            outputs.append(json.loads(out))
    finally:
        for child in children:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    samples = sorted(s for o in outputs for s in o["latencies_us"])
    if not samples:
        raise RuntimeError(f"the httpx load generator completed no request on {url}")
    elapsed = max(o["seconds"] for o in outputs)
    result = {
        "rps": round(len(samples) / elapsed, 2),
        "requests": len(samples),
        "seconds": round(elapsed, 3),
        "mean_ms": round(statistics.fmean(samples) / 1e3, 3),
        "max_ms": samples[-1] / 1e3,
        "non_2xx": sum(o["non_2xx"] for o in outputs),
        "socket_errors": sum(o["errors"] for o in outputs),
    }
    for q in (50, 75, 90, 99):
        result[f"p{q}_ms"] = _nearest_rank(samples, q / 100) / 1e3
    return result


# -- the benchmark --------------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    name: str
    label: str
    url: str
    served: Served


def _measure(
    target: Target, args: argparse.Namespace, loadgen: str, *, seconds: int
) -> dict[str, Any]:
    run = run_wrk if loadgen == "wrk" else run_httpx
    settle(target.served.pid)
    cpu_before, wall_before = cpu_seconds(target.served.pid), time.monotonic()
    load_before = os.getloadavg()[0]
    result = run(target.url, args.threads, args.connections, seconds)
    # Other work on the machine skews every figure: the 1-minute load average says how much.
    result["loadavg_1m_before_after"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    cpu = cpu_seconds(target.served.pid) - cpu_before
    wall = time.monotonic() - wall_before
    result["server_cpu_percent"] = round(100 * cpu / wall, 1)
    if result.get("requests"):
        result["server_cpu_ms_per_request"] = round(1e3 * cpu / result["requests"], 4)
    if not target.served.alive():
        raise RuntimeError(f"{target.served.name} died under load:\n{target.served.log_tail()}")
    return result


def _summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round with the median requests/s stands for the target (its own latencies)."""
    ranked = sorted(rounds, key=lambda r: r["rps"])
    chosen = dict(ranked[(len(ranked) - 1) // 2])
    chosen["rounds"] = rounds
    return chosen


_STACK_PROBE = """
import importlib.metadata as m, importlib.util as u, json
def version(name):
    try:
        return m.version(name)
    except m.PackageNotFoundError:
        return None
names = ("starlette", "uvicorn", "h11", "orjson", "uvloop", "httptools")
print(json.dumps({
    "packages": {n: version(n) for n in names},
    "uvicorn_loop": "uvloop" if u.find_spec("uvloop") else "asyncio",
    "uvicorn_http": "httptools" if u.find_spec("httptools") else "h11",
}))
"""


def server_stack(env: dict[str, str]) -> dict[str, Any]:
    """What uvicorn's ``auto`` settings pick in the servers' environment (uvloop and
    httptools when importable, else asyncio and h11), and the package versions there."""
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed probe
        [sys.executable, "-c", _STACK_PROBE],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
        timeout=60,
    )
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _serve_command(url: str, port: int, *, workers: int = 1) -> list[str]:
    script = Path(sys.executable).with_name("events-calendar")
    head = [str(script)] if script.exists() else [sys.executable, "-m", "events_calendar.cli"]
    return [
        *head,
        "serve",
        "--db",
        url,
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--timezone",
        CALENDAR_ZONE,
    ]


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise RuntimeError(message)


def _table(report: dict[str, Any]) -> str:
    results = report["results"]
    ceiling = results["ceiling"]["rps"]
    lines = [
        f"{'target':<44} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'x ceiling':>10} {'srv CPU':>8}",
    ]
    for result in results.values():
        lines.append(
            f"{result['label']:<44} {result['rps']:>9,.0f} {result['p50_ms']:>8.2f}"
            f" {result['p99_ms']:>8.2f} {result['rps'] / ceiling:>10.3f}"
            f" {result['server_cpu_percent']:>7.0f}%"
            + ("  (errors!)" if result["non_2xx"] or result["socket_errors"] else "")
        )
    verdict = report["verdict"]
    lines.append(
        f"Target GET /events >= {TARGET_RPS:,.0f} req/s: "
        f"{'ok' if verdict['rps_ok'] else 'MISS'}; p99 < {TARGET_P99_MS:.0f} ms: "
        f"{'ok' if verdict['p99_ok'] else 'MISS'}"
        f"  ({verdict['x_reference']:.2g}x the reference's {REFERENCE['reference_events_list_rps']}"
        " req/s)"
    )
    return "\n".join(lines)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the database")
    parser.add_argument("--duration", type=int, default=15, help="seconds of load per target")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unrecorded load first")
    parser.add_argument("--rounds", type=int, default=1, help="measured runs per target")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections")
    parser.add_argument(
        "--db-dir",
        type=Path,
        default=DEFAULT_DB_DIR,
        help="where the SQLite file is built and kept for reuse",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=Path("bench/results/http.json"))
    parser.add_argument(
        "--loadgen", choices=("auto", "wrk", "httpx"), default="auto", help="auto: wrk if found"
    )
    parser.add_argument(
        "--pythonpath",
        type=Path,
        help="prepend DIR to both servers' PYTHONPATH (e.g. uvloop and httptools installed"
        " there with pip --target, to compare uvicorn's server stacks)",
    )
    args = parser.parse_args(argv)
    if min(args.duration, args.rounds, args.threads, args.connections) < 1 or args.warmup < 0:
        parser.error("durations, rounds, threads and connections must be positive")
    if args.duration > 300:
        parser.error("keep --duration at 300 s or less")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    loadgen = args.loadgen
    if loadgen == "auto":
        loadgen = "wrk" if shutil.which("wrk") else "httpx"
    if loadgen == "wrk" and not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk (or --loadgen httpx)")
    db, db_facts = ensure_database(args.db_dir, args.events, seed=args.seed)
    env: dict[str, str] = {}
    if args.pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(args.pythonpath.resolve()), os.environ.get("PYTHONPATH")) if p
        )
    stack = server_stack(env)
    print(f"server stack: uvicorn {stack['uvicorn_loop']} + {stack['uvicorn_http']}", flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="ec-http-"))
    api_port, ceiling_port = free_port(), free_port()
    api = Served(
        "events-calendar serve",
        _serve_command(f"sqlite:///{db}", api_port),
        scratch / "serve.log",
        env=env,
    )
    ceiling = Served("ceiling", [], scratch / "ceiling.log", env=env)
    try:
        api.start()
        base = f"http://{HOST}:{api_port}{API}"
        wait_ready(api, f"{base}/")
        status, headers, body = http_get(f"{base}/events")
        _check(status == 200, f"GET /events answered {status}: {body[:300]!r}")
        listing = json.loads(body)
        _check(len(listing["events"]) == 10, "GET /events did not answer 10 events")
        event_id = listing["events"][0]["id"]  # published, visible, in the window
        status, _, event_body = http_get(f"{base}/events/{event_id}")
        _check(status == 200, f"GET /events/{event_id} answered {status}")
        _check(json.loads(event_body)["id"] == event_id, "GET /events/<id> answered another id")

        ceiling.command = [
            sys.executable,
            str(_HERE / "ceiling.py"),
            "--host",
            HOST,
            "--port",
            str(ceiling_port),
            "--size",
            str(len(body)),
        ]
        ceiling.start()
        ceiling_url = f"http://{HOST}:{ceiling_port}/"
        wait_ready(ceiling, ceiling_url)
        status, _, static = http_get(ceiling_url)
        _check(status == 200 and static == body_of_size(len(body)), "the ceiling answered wrong")

        targets = [
            Target(
                "events_list", "GET /events (default window, per_page 10)", f"{base}/events", api
            ),
            Target("event_by_id", f"GET /events/{event_id}", f"{base}/events/{event_id}", api),
            Target("ceiling", f"ceiling: static JSON, {len(body):,} B", ceiling_url, ceiling),
        ]
        rounds: dict[str, list[dict[str, Any]]] = {t.name: [] for t in targets}
        for number in range(args.rounds):
            for target in targets:
                if number == 0 and args.warmup:
                    print(f"warming up {target.label} ({args.warmup} s)", flush=True)
                    _measure(target, args, loadgen, seconds=args.warmup)
                print(f"loading {target.label} ({args.duration} s, {loadgen})", flush=True)
                rounds[target.name].append(_measure(target, args, loadgen, seconds=args.duration))
                last = rounds[target.name][-1]
                print(
                    f"  {last['rps']:,.0f} req/s  p50 {last['p50_ms']:.2f} ms"
                    f"  p99 {last['p99_ms']:.2f} ms",
                    flush=True,
                )
    finally:
        for served in (api, ceiling):
            served.stop()
        logs = {s.name: s.log_tail() for s in (api, ceiling)}
        shutil.rmtree(scratch, ignore_errors=True)

    results = {}
    for target in targets:
        results[target.name] = {"label": target.label, **_summary(rounds[target.name])}
    ceiling_rps = results["ceiling"]["rps"]
    for result in results.values():
        result["ratio_to_ceiling"] = round(result["rps"] / ceiling_rps, 4)
    listed = results["events_list"]
    verdict = {
        "rps_ok": listed["rps"] >= TARGET_RPS,
        "p99_ok": listed["p99_ms"] < TARGET_P99_MS,
        "x_reference": listed["rps"] / REFERENCE["reference_events_list_rps"],
        "clean": all(not r["non_2xx"] and not r["socket_errors"] for r in results.values()),
    }
    report = {
        "benchmark": "http",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": {
            "events": args.events,
            "duration_s": args.duration,
            "warmup_s": args.warmup,
            "rounds": args.rounds,
            "threads": args.threads,
            "connections": args.connections,
            "loadgen": loadgen,
            "serve_command": api.command,
            "ceiling_command": ceiling.command,
            "calendar_zone": CALENDAR_ZONE,
            "pythonpath": str(args.pythonpath) if args.pythonpath else None,
        },
        "machine": _machine(),
        "server_stack": stack,
        "database": {"path": str(db), **db_facts},
        "responses": {
            "events_list_bytes": len(body),
            "event_bytes": len(event_body),
            "window_total": int(headers.get("x-tec-total", "0")),
            "event_id": event_id,
        },
        "results": results,
        "targets": {"events_list_rps": TARGET_RPS, "events_list_p99_ms": TARGET_P99_MS},
        "verdict": verdict,
        "reference": REFERENCE,
        "server_log_tails": logs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print()
    print(_table(report))
    print(f"\nJSON: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
