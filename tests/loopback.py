"""An ASGI app served by uvicorn in a background thread on a free loopback port: for the tests
that need a real socket (the golden replay, schemathesis, the HTTP protocol); and the end of
an ``events-calendar serve`` process a test started (``stop``)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

STARTUP_SECONDS = 10


@contextlib.contextmanager
def serving(app: Any, **config: Any) -> Iterator[int]:
    """``app`` served until the block ends (``config``: more ``uvicorn.Config`` options);
    yields the port."""
    options = {"log_level": "warning", "access_log": False, "lifespan": "off", **config}
    server = uvicorn.Server(uvicorn.Config(app, **options))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not server.started:
            assert thread.is_alive(), "the app stopped before serving"
            assert time.monotonic() < deadline, f"the app did not start in {STARTUP_SECONDS} s"
            time.sleep(0.01)
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End a server process a test started: asked to stop, then killed if it has not in
    10 s (a worker lingering on a refused upload takes up to 2 s more)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
