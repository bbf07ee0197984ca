"""Fallback load generator: keep-alive HTTP/1.1 GETs from asyncio + httpx, for a bounded time.

Usage (``run.py`` starts it as a separate process when wrk is not installed)::

    .venv/bin/python bench/http/loadgen.py URL --connections 4 --duration 15

Each of ``--connections`` coroutines sends one request at a time on its own connection, as a
wrk connection does (a closed loop), and records each request's latency. It prints one JSON
object: request count, elapsed seconds, non-2xx and error counts, and the latencies in
microseconds (the parent merges several processes' samples before taking percentiles).

A Python client costs far more CPU per request than wrk's C, and on a 2-core machine it
competes with the server for CPU, so its figures are a lower bound; prefer wrk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import httpx

__all__ = ["load"]


async def load(url: str, connections: int, duration: float, timeout: float) -> dict[str, Any]:
    """Drive ``url`` with ``connections`` closed-loop clients for ``duration`` seconds."""
    latencies: list[int] = []
    failures = {"non_2xx": 0, "errors": 0}
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    clock = time.perf_counter_ns
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        deadline = clock() + int(duration * 1e9)

        async def worker() -> None:
            while clock() < deadline:
                started = clock()
                try:
                    response = await client.get(url)
                    await response.aread()
                except httpx.HTTPError:
                    failures["errors"] += 1
                    continue
                latencies.append((clock() - started) // 1000)
                if not 200 <= response.status_code < 300:
                    failures["non_2xx"] += 1

        started = clock()
        await asyncio.gather(*(worker() for _ in range(connections)))
        elapsed = (clock() - started) / 1e9
    return {
        "requests": len(latencies),
        "seconds": elapsed,
        **failures,
        "latencies_us": latencies,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args(argv)
    if not args.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        parser.error("only loopback targets are allowed")
    result = asyncio.run(load(args.url, args.connections, args.duration, args.timeout))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
