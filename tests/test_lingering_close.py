"""A request refused while it is still arriving (413, 414, 431, 503) is answered, and the
connection then lingers: what the client still sends is read and dropped, for a bounded time
and number of bytes, before the socket is closed (``http.protocol.SingleWriteProtocol``).

Closed at once with the client's body unread, the kernel reset the connection, and a client
that sends its whole body before reading (``urllib``, ``requests``) got "connection reset by
peer" or a broken pipe instead of the answer: 20 times in 20 for 20 MB over a 1 MiB limit.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.limits import HttpLimits
from events_calendar.http.protocol import LINGER_TIME, SingleWriteProtocol
from loopback import serving, stop
from test_serve_smoke import STARTUP_SECONDS, console_script, free_port

API = "/wp-json/tribe/events/v1"
MAX_BODY = 1 << 20
#: Times each refusal is tried: a reset depended on timing, and came most of the time.
ATTEMPTS = 8
#: A "slowly-ish" client: pieces of this size with a pause between, 4 MiB in about 0.3 s.
PIECE = 128 * 1024
PAUSE = 0.01
#: What the client may take, past the server's bound, to see the connection closed.
SLACK = 3.0


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``events-calendar serve --max-body 1048576`` on an SQLite file (uvloop, httptools and
    the protocol, as deployed)."""
    home = tmp_path_factory.mktemp("linger")
    chosen = free_port()
    log_path = home / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(  # noqa: S603 - our own console script
            [
                console_script(),
                *("serve", "--db", f"sqlite:///{home}/x.db", "--host", "127.0.0.1"),
                *("--port", str(chosen), "--max-body", str(MAX_BODY)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=home,
        )
        try:
            _wait_for(proc, chosen, log_path)
            yield chosen
        finally:
            stop(proc)


def _wait_for(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        if proc.poll() is not None:
            pytest.fail(f"serve exited with {proc.returncode}: {log.read_text()}")
        try:
            httpx.get(f"http://127.0.0.1:{port}{API}/", timeout=1.0)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                pytest.fail(f"serve did not answer within {STARTUP_SECONDS} s")
            time.sleep(0.1)


def _send_slowly(sock: socket.socket, data: bytes) -> None:
    for start in range(0, len(data), PIECE):
        sock.sendall(data[start : start + PIECE])
        time.sleep(PAUSE)


def _read_to_end(sock: socket.socket) -> bytes:
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def _outcome(answer: bytes) -> str:
    """``"413 rest_body_too_large"`` for a whole refusal, else what was wrong with it."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/1.1 ") else "?"
    try:
        return f"{status} {json.loads(body)['code']}"
    except ValueError:
        return f"{status} with a body of {len(body)} bytes"


def _try(port: int, head: bytes, rest: bytes) -> str:
    """Send ``head``, then ``rest`` slowly-ish, then read the answer: its status and code,
    or the error the client met."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(head)
            _send_slowly(sock, rest)
            return _outcome(_read_to_end(sock))
    except OSError as error:
        return type(error).__name__


def _chunked(body: bytes) -> bytes:
    pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


BODY = b"x" * (4 << 20)
POST = f"POST {API}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
SIZED = f"Content-Length: {len(BODY)}\r\n\r\n"
TOO_LARGE = "413 rest_body_too_large"
REFUSALS = {
    "413 declared": (POST + SIZED, BODY, TOO_LARGE),
    "413 chunked": (POST + "Transfer-Encoding: chunked\r\n\r\n", _chunked(BODY), TOO_LARGE),
    "414 by the app": (
        f"POST {API}/events?q={'a' * 9000} HTTP/1.1\r\nHost: x\r\n{SIZED}",
        BODY,
        "414 rest_url_too_long",
    ),
    "414 by the protocol": (
        f"POST {API}/events?q={'a' * 70_000} HTTP/1.1\r\nHost: x\r\n{SIZED}",
        BODY,
        "414 rest_url_too_long",
    ),
    "431": (POST + "X-A: 1\r\n" * 101 + SIZED, BODY, "431 rest_headers_too_large"),
}


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_a_refused_client_still_sending_reads_its_answer(port: int, kind: str) -> None:
    """A client that sends its whole request, slowly-ish, before it reads, reads the refusal
    every time: the server reads and drops the rest of the request rather than resetting."""
    head, rest, expected = REFUSALS[kind]
    outcomes = [_try(port, head.encode(), rest) for _ in range(ATTEMPTS)]
    assert [expected] * ATTEMPTS == outcomes


def test_urllib_posting_20_mb_reads_the_413(port: int) -> None:
    """The reported client: ``urllib.request`` POSTing 20 MB over a 1 MiB limit."""
    data = b"x" * 20_000_000
    outcomes = []
    for _ in range(ATTEMPTS):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{API}/events",
            data=data,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30):  # noqa: S310 - our server
                outcomes.append("not refused")
        except urllib.error.HTTPError as error:
            outcomes.append(f"{error.code} {json.loads(error.read())['code']}")
        except OSError as error:  # urllib.error.URLError: reset, broken pipe
            outcomes.append(str(error))
    assert [TOO_LARGE] * ATTEMPTS == outcomes


def _seconds_until_closed(sock: socket.socket, pause: float, budget: float) -> float:
    """Send pieces with ``pause`` between, never reading, until the server's close makes a
    send fail (a reset or a broken pipe): the seconds that took, ``budget`` at most."""
    sock.settimeout(budget)
    started = time.monotonic()
    piece = b"x" * 65536
    try:
        while time.monotonic() - started < budget:
            sock.sendall(piece)
            time.sleep(pause)
    except OSError:  # ECONNRESET, EPIPE; or a full buffer past the budget (TimeoutError)
        pass
    return time.monotonic() - started


def test_a_client_sending_for_ever_is_closed_within_the_bound(port: int) -> None:
    """A refused client that never stops sending (about 10 MB/s, every read well within the
    idle timeout, far fewer bytes than the bound) holds its connection ``LINGER_TIME``
    seconds, not for ever."""
    head = f"{POST}Content-Length: {10**12}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        took = _seconds_until_closed(sock, pause=0.005, budget=LINGER_TIME + 10)
    assert took < LINGER_TIME + SLACK


class _Patient(SingleWriteProtocol):
    """Lingering bounded only by the idle timeout (1 s), or (``_FewBytes``) by bytes (1 MiB)."""

    linger_time = 60.0
    linger_timeout = 1.0
    linger_bytes = 60 << 30


class _FewBytes(_Patient):
    linger_timeout = 60.0
    linger_bytes = 1 << 20


@pytest.fixture(scope="module")
def calendar() -> Iterator[ec.Calendar]:
    cal = ec.connect("memory://")
    yield cal
    cal.close()


def test_lingering_ends_after_its_bytes(calendar: ec.Calendar) -> None:
    """A client sending as fast as it can is closed once the bytes it may send are read,
    without waiting for the time bound (60 s here)."""
    app = create_app(calendar, limits=HttpLimits(max_body=MAX_BODY))
    head = f"{POST}Content-Length: {10**12}\r\n\r\n".encode()
    with (
        serving(app, http=_FewBytes, ws="none") as served,
        socket.create_connection(("127.0.0.1", served)) as sock,
    ):
        sock.sendall(head)
        took = _seconds_until_closed(sock, pause=0, budget=30)
    assert took < 10


def test_lingering_ends_when_the_client_pauses(calendar: ec.Calendar) -> None:
    """A client that stops sending (without closing) for longer than the idle timeout is
    closed then, not at the time bound (60 s here). Before the pause it reads its 413, and
    sees it end at once: the server shuts its sending side as it starts to linger."""
    app = create_app(calendar, limits=HttpLimits(max_body=MAX_BODY))
    head = f"{POST}Content-Length: {10**12}\r\n\r\n".encode()
    with (
        serving(app, http=_Patient, ws="none") as served,
        socket.create_connection(("127.0.0.1", served)) as sock,
    ):
        sock.sendall(head)
        _send_slowly(sock, BODY[: 2 << 20])
        started = time.monotonic()
        answer = _read_to_end(sock)  # the answer, then the server's half close
        read_in = time.monotonic() - started
        time.sleep(1.5)  # past the idle timeout: the server closes
        took = _seconds_until_closed(sock, pause=0.05, budget=5)  # at once: a reset
    assert (TOO_LARGE, True, True) == (_outcome(answer), read_in < 0.5, took < 1)


class _Impatient(SingleWriteProtocol):
    head_timeout = body_timeout = 0.4


@pytest.mark.parametrize(
    "sent",
    [f"GET {API}/events HTTP/1.1\r\nHost: x\r\n", f"{POST}Content-Length: 100\r\n\r\n{{"],
    ids=["half a head", "a stalled body"],
)
def test_a_request_dropped_at_its_deadline_does_not_linger(
    calendar: ec.Calendar, sent: str
) -> None:
    """A request dropped for its head or body deadlines had no answer to miss: its
    connection is closed at once, whatever the client sends next."""
    with (
        serving(create_app(calendar), http=_Impatient, ws="none") as served,
        socket.create_connection(("127.0.0.1", served)) as sock,
    ):
        sock.sendall(sent.encode())
        sock.settimeout(10)
        dropped = sock.recv(100)
        took = _seconds_until_closed(sock, pause=0.05, budget=5)
    assert (b"", True) == (dropped, took < 1)


def test_a_body_refused_for_want_of_room_is_a_503_the_client_reads(calendar: ec.Calendar) -> None:
    """The 503 ``rest_server_busy`` of ``max_buffered`` is answered as the body still
    arrives, and read by the client that sends all of it first."""
    app = create_app(calendar, limits=HttpLimits(max_body=MAX_BODY, max_buffered=MAX_BODY))
    head = f"{POST}Content-Length: {MAX_BODY}\r\n\r\n".encode()
    with (
        serving(app, http=SingleWriteProtocol, ws="none") as served,
        socket.create_connection(("127.0.0.1", served)) as holder,
    ):
        holder.sendall(head + b"x" * (MAX_BODY - 4096))  # held, all but 4 KiB of its body
        time.sleep(0.5)  # read and counted
        outcomes = [_try(served, head, b"x" * MAX_BODY) for _ in range(ATTEMPTS)]
    assert ["503 rest_server_busy"] * ATTEMPTS == outcomes
