"""``http.protocol``: what is written in one turn of the event loop leaves in one write, and
uvicorn serving through it answers byte for byte as the app does (pipelined requests, HEAD,
a large body, a connection the client closes)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import events_calendar as ec
from events_calendar.cli import main as cli_main
from events_calendar.http import create_app
from events_calendar.http.protocol import SEND_AT_BYTES, GatheringTransport, SingleWriteProtocol
from events_calendar.sample import seed_sample
from loopback import serving
from test_serve_smoke import free_port

API = "/wp-json/tribe/events/v1"


class Recorder(asyncio.Transport):
    """A transport that records what reaches it."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.closing = False

    def write(self, data: Any) -> None:
        self.calls.append(("write", bytes(data)))

    def close(self) -> None:
        self.calls.append(("close", None))
        self.closing = True

    def abort(self) -> None:
        self.calls.append(("abort", None))
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        self.calls.append(("pause_reading", None))

    def get_write_buffer_size(self) -> int:
        return 7

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 1)}.get(name, default)


def in_a_loop(body: Any) -> list[tuple[str, Any]]:
    """Run ``body(transport)`` (a coroutine function) on a fresh loop; the recorded calls."""
    recorder = Recorder()

    async def go() -> None:
        await body(GatheringTransport(recorder, asyncio.get_running_loop()))

    asyncio.run(go())
    return recorder.calls


def test_writes_of_one_turn_leave_in_one_write_at_its_end() -> None:
    seen: list[list[tuple[str, Any]]] = []

    async def body(transport: GatheringTransport) -> None:
        recorder = transport._transport
        assert isinstance(recorder, Recorder)
        transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
        transport.write(b"")
        transport.write(memoryview(b"body"))
        seen.append(list(recorder.calls))  # nothing sent within the turn
        assert 30 == transport.get_write_buffer_size()  # 7 in the socket's buffer, 23 kept
        await asyncio.sleep(0)
        transport.writelines([b"next", b" turn"])
        await asyncio.sleep(0)

    calls = in_a_loop(body)
    assert [[], [("write", b"HTTP/1.1 200 OK\r\n\r\nbody"), ("write", b"next turn")]] == [
        *seen,
        calls,
    ]


def test_a_large_write_is_sent_at_once() -> None:
    big = b"x" * SEND_AT_BYTES
    seen: list[int] = []

    async def body(transport: GatheringTransport) -> None:
        transport.write(b"head")
        transport.write(big)
        recorder = transport._transport
        assert isinstance(recorder, Recorder)
        seen.append(len(recorder.calls))
        transport.write(b"tail")

    calls = in_a_loop(body)
    assert ([1], [("write", b"head" + big), ("write", b"tail")]) == (seen, calls)


def test_closing_sends_what_is_kept_first_and_an_abort_drops_it() -> None:
    async def closed(transport: GatheringTransport) -> None:
        transport.write(b"last words")
        transport.close()
        await asyncio.sleep(0)

    async def aborted(transport: GatheringTransport) -> None:
        transport.write(b"lost")
        transport.abort()
        await asyncio.sleep(0)

    assert [("write", b"last words"), ("close", None)] == in_a_loop(closed)
    assert [("abort", None)] == in_a_loop(aborted)


def test_nothing_is_written_to_a_closing_transport_and_the_rest_passes_through() -> None:
    async def body(transport: GatheringTransport) -> None:
        recorder = transport._transport
        assert isinstance(recorder, Recorder)
        transport.write(b"too late")
        recorder.closing = True
        await asyncio.sleep(0)
        transport.pause_reading()
        assert transport.is_closing()
        assert ("127.0.0.1", 1) == transport.get_extra_info("peername")

    assert [("pause_reading", None)] == in_a_loop(body)


def read_answers(
    sock: socket.socket, methods: list[str]
) -> list[tuple[bytes, dict[str, str], bytes]]:
    """The HTTP/1.1 answers to requests of ``methods`` read off ``sock``: status line,
    headers, body (none for a HEAD)."""
    data: bytes = b""
    answers: list[tuple[bytes, dict[str, str], bytes]] = []
    while len(answers) < len(methods):
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            status, *lines = data[:head_end].decode("latin-1").split("\r\n")
            headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines)}
            head = methods[len(answers)] == "HEAD"
            size = 0 if head else int(headers.get("content-length", "0"))
            if status.startswith("HTTP/1.1") and len(data) >= head_end + 4 + size:
                body = data[head_end + 4 : head_end + 4 + size]
                answers.append((status.encode(), headers, body))
                data = data[head_end + 4 + size :]
                continue
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed after {len(answers)} answers"
        data += chunk
    return answers


def in_process(app: Any, host: str, paths: list[str]) -> list[bytes]:
    """The bodies the app answers in process to GETs of ``paths`` sent to ``host``."""

    async def go() -> list[bytes]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as c:
            return [(await c.get(path)).content for path in paths]

    return asyncio.run(go())


@pytest.fixture(scope="module")
def calendar() -> Iterator[ec.Calendar]:
    cal = ec.connect("memory://")
    seed_sample(cal)
    yield cal
    cal.close()


def test_pipelined_requests_are_answered_as_the_app_answers_them(calendar: ec.Calendar) -> None:
    """Three requests sent at once on one connection (a list of 50 events, a HEAD, a single
    event): the answers come back in order, each with the body the app gives in process."""
    app = create_app(calendar)
    first = calendar.events.list(per_page=1).items[0].id
    paths = [f"{API}/events?per_page=50", f"{API}/events/{first}", f"{API}/events/{first}"]

    served = serving(app, http=SingleWriteProtocol, ws="none")
    with served as port, socket.create_connection(("127.0.0.1", port)) as sock:
        host = f"127.0.0.1:{port}"
        expected = in_process(app, host, paths)
        methods = ["GET", "HEAD", "GET"]
        sock.sendall(
            b"".join(
                f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
                for method, path in zip(methods, paths, strict=True)
            )
        )
        answers = read_answers(sock, methods)
    statuses = [status.split(b" ")[1] for status, _, _ in answers]
    assert [b"200", b"200", b"200"] == statuses
    assert [expected[0], b"", expected[2]] == [body for _, _, body in answers]
    assert str(len(expected[1])) == answers[1][1]["content-length"]  # HEAD: the GET's length
    assert len(expected[0]) > 20_000  # the list's body is a large one


def test_a_client_gone_before_its_answer_leaves_the_server_serving(
    calendar: ec.Calendar, caplog: pytest.LogCaptureFixture
) -> None:
    """Clients that close or reset their connection right after asking for a large list: the
    server logs no error for the answers it can no longer send, and answers the next client in
    full."""
    app = create_app(calendar)
    path = f"{API}/events?per_page=50"
    # No log_config: uvicorn's loggers then reach the root logger, where caplog listens.
    served = serving(app, http=SingleWriteProtocol, ws="none", log_config=None)
    with caplog.at_level(logging.WARNING), served as port:
        for reset in [False, True] * 3:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                if reset:  # SO_LINGER with a zero timeout: close() resets the connection
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        answered = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10)
        expected = in_process(app, f"127.0.0.1:{port}", [path])
    assert (200, expected[0]) == (answered.status_code, answered.content)
    assert len(expected[0]) > 20_000  # a large answer, as in the pipelined test
    assert [] == [record.getMessage() for record in caplog.records]


def test_serve_runs_uvicorn_with_the_single_write_protocol(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    ran: dict[str, Any] = {}
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: ran.update(kwargs))
    port = str(free_port())  # serve checks that it can listen there before it says so
    assert 0 == cli_main(["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--port", port])
    assert SingleWriteProtocol is ran["http"]


@pytest.mark.parametrize("size", [9_000, 70_000, 1_000_000])
def test_a_url_too_long_for_the_parser_is_the_apps_414(calendar: ec.Calendar, size: int) -> None:
    """Past 64 KiB uvicorn's parser cannot read a URL and answered a plain-text 400; the
    protocol answers what the app answers any URL over ``--max-url``: 414, in JSON. (Sent
    by hand: httpx refuses to send such a URL.)"""
    app = create_app(calendar)
    with serving(app, http=SingleWriteProtocol, ws="none") as port:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            target = f"{API}/events?search={'a' * size}"
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            ((status, headers, body),) = read_answers(sock, ["GET"])
        after = httpx.get(f"http://127.0.0.1:{port}{API}/events", timeout=10)
    assert (b"HTTP/1.1 414", "application/json; charset=UTF-8", "rest_url_too_long", 200) == (
        status[:12],
        headers["content-type"],
        json.loads(body)["code"],
        after.status_code,
    )


def _answer_or_close(sock: socket.socket, head: bytes, rest: bytes = b"") -> bytes:
    """What the server sends back (until it closes) for ``head`` and then ``rest`` sent in
    1 MiB pieces: sending stops when the server has closed."""
    sock.settimeout(10)
    try:
        sock.sendall(head)
        for start in range(0, len(rest), 1 << 20):
            sock.sendall(rest[start : start + (1 << 20)])
    except OSError:  # refused mid-way: the answer was written before the close
        pass
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


@pytest.mark.parametrize(
    ("head", "rest"),
    [
        (f"GET {API}/events HTTP/1.1\r\nHost: x\r\nX-Big: ".encode(), b"a" * 50_000_000),
        (f"GET {API}/events HTTP/1.1\r\nHost: x\r\n".encode(), b"X-A: 1\r\n" * 101 + b"\r\n"),
        (f"GET {API}/events HTTP/1.1\r\n".encode(), b"X-A: " + b"b" * 70_000 + b"\r\n\r\n"),
    ],
    ids=["a 50 MB header", "101 headers", "70 KB of headers"],
)
def test_a_head_too_large_is_a_431_and_the_server_serves_on(
    calendar: ec.Calendar, head: bytes, rest: bytes
) -> None:
    """Headers past ``MAX_HEADERS`` fields or ``MAX_HEADER_BYTES`` are refused with 431, the
    head counted as it arrives (a 50 MB header was read whole, and answered)."""
    with serving(create_app(calendar), http=SingleWriteProtocol, ws="none") as port:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            answer = _answer_or_close(sock, head, rest)
        after = httpx.get(f"http://127.0.0.1:{port}{API}/events", timeout=10)
    status, _, body = answer.partition(b"\r\n")
    assert (b"HTTP/1.1 431 Request Header Fields Too Large", "rest_headers_too_large", 200) == (
        status,
        json.loads(body.partition(b"\r\n\r\n")[2])["code"],
        after.status_code,
    )


def test_headers_within_the_limits_are_served(calendar: ec.Calendar) -> None:
    """Ninety headers of 60 KB in all (and the client's own few): served."""
    headers = {f"X-H{n}": "v" * 660 for n in range(90)}
    with serving(create_app(calendar), http=SingleWriteProtocol, ws="none") as port:
        answer = httpx.get(f"http://127.0.0.1:{port}{API}/events", headers=headers, timeout=10)
    assert 200 == answer.status_code


def test_a_burst_of_pipelined_requests_is_no_head_too_large(calendar: ec.Calendar) -> None:
    """A quarter of a MiB of small pipelined requests may arrive in one read: each head is
    counted on its own, so all of them are answered."""
    pad = "p" * 2000
    request = f"GET {API}/events HTTP/1.1\r\nHost: x\r\nX-Pad: {pad}\r\n\r\n".encode()
    with (
        serving(create_app(calendar), http=SingleWriteProtocol, ws="none") as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        sock.settimeout(30)
        sock.sendall(request * 120)  # 250 KB
        answers = read_answers(sock, ["GET"] * 120)
    assert {b"HTTP/1.1 200 OK"} == {status for status, _, _ in answers}


class _Impatient(SingleWriteProtocol):
    head_timeout = 0.4
    body_timeout = 0.4


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        f"GET {API}/events HTTP/1.1\r\nHost: x\r\n".encode(),
        f"POST {API}/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{{".encode(),
    ],
    ids=["nothing", "half a head", "a stalled body"],
)
def test_a_request_that_does_not_arrive_is_dropped(calendar: ec.Calendar, sent: bytes) -> None:
    """A connection whose head is not whole in ``head_timeout`` seconds, or whose body
    stalls for ``body_timeout``, is closed (one that sent half a request stayed open, its
    file descriptor held, for ever)."""
    with (
        serving(create_app(calendar), http=_Impatient, ws="none") as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        sock.sendall(sent)
        sock.settimeout(10)
        assert b"" == sock.recv(100)  # closed, with no answer


def test_a_slow_client_within_the_deadlines_is_served(calendar: ec.Calendar) -> None:
    """A head sent in pieces, and a second request after a pause longer than the deadlines
    on a kept-alive connection, are answered: the deadlines run only while a request is
    arriving, from its first byte."""
    request = f"GET {API}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    with (
        serving(create_app(calendar), http=_Impatient, ws="none") as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        for piece in (request[:10], request[10:20], request[20:]):
            sock.sendall(piece)
            time.sleep(0.1)
        first = read_answers(sock, ["GET"])
        time.sleep(0.8)
        sock.sendall(request)
        second = read_answers(sock, ["GET"])
    assert [b"HTTP/1.1 200 OK", b"HTTP/1.1 200 OK"] == [first[0][0], second[0][0]]


class _Deadline(SingleWriteProtocol):
    body_timeout = 5.0
    body_deadline = 0.5


def test_a_body_trickling_past_its_deadline_is_dropped(calendar: ec.Calendar) -> None:
    """A body sent a byte at a time, each well within ``body_timeout``, is dropped once
    ``body_deadline`` has passed since its head (each byte gave it another 30 s)."""
    head = f"POST {API}/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".encode()
    sent = 0
    with (
        serving(create_app(calendar), http=_Deadline, ws="none") as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        sock.sendall(head)
        sock.settimeout(0.1)
        received = None
        while received is None and sent < 100:  # 100 bytes: 10 s at most
            try:
                received = sock.recv(100)
            except TimeoutError:
                sock.sendall(b"x")
                sent += 1
            except ConnectionResetError:  # a byte sent as the server closed: closed too
                received = b""
    assert (b"", True) == (received, sent < 100)  # closed, with no answer, within 100 bytes
