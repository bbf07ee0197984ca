"""Slowing down password guessing: failed sign-ins per client address and per login.

A pure ASGI middleware in front of the app. A request that carries an ``Authorization`` header
and is answered 401 is a failed sign-in (a signed-in caller who lacks a right gets 403, so a 401
with credentials means the credentials were wrong). Within a sliding ``window``:

- a client address with ``per_address`` failures gets 429 for every request that carries
  credentials, until its oldest failure leaves the window;
- a login with ``per_login`` failures (from any addresses) gets 429 for sign-ins at it from
  every address that has itself failed at it in the window, unless that login has signed in
  there before (OWASP's "device cookie" idea, keyed by address).

So a guesser spread over many addresses gets one guess at a login under attack per address
and window, and the real user is never locked out: from an address that has not failed at
their login they sign in, wherever they are (a new network, a server restarted since they
last signed in). Refusing every address instead, as this did, let anyone lock a user out
with ``per_login`` wrong passwords a minute; and the secrets guessed at are 120+ random bits
the library picks (``users``), which no rate of guessing reaches.

The 429 carries ``Retry-After`` (seconds) and is answered before the request is read or any
credential is checked. Requests without credentials are never throttled here. Counts live in
this process's memory, bounded in size; with ``--workers N`` each worker counts on its own.
The client address is the connection's peer: behind a reverse proxy, let the proxy throttle or
run uvicorn with ``--proxy-headers`` so that the peer is the real client.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

import attrs
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .auth import SIGNED_IN, basic_credentials

__all__ = ["FailedSignIns", "SignInLimits", "SignInThrottle"]

#: At most this many addresses and logins are tracked; the least recently failed go first.
#: A login is kept as a 16-byte digest (``_login_key``), whatever its length, and a key whose
#: failures have all left the window is dropped as others fail, so at the default limits a
#: key costs about 900 bytes and the counts stay under ~200 MB at worst (``tracked``).
_MAX_KEYS = 100_000
#: At most this many trusted addresses are remembered per login.
_MAX_TRUSTED = 32


@attrs.frozen(kw_only=True)
class SignInLimits:
    """How many failed sign-ins are allowed in ``window`` seconds."""

    per_address: int = 20
    per_login: int = 10
    window: float = 60.0

    def __attrs_post_init__(self) -> None:
        if self.per_address < 1 or self.per_login < 1 or self.window <= 0:
            raise ValueError("sign-in limits and their window must be positive")


class _Window:
    """Failure instants per key inside a sliding window, least recently failed key first."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: OrderedDict[str | bytes, deque[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._failures)

    def add(self, key: str | bytes, now: float) -> None:
        times = self._failures.pop(key, None) or deque(maxlen=self.limit)
        times.append(now)
        self._failures[key] = times
        # Least recently failed first: while the first key's last failure has left the
        # window, all of its have, so it goes (each key once: amortised constant time).
        failures = self._failures
        while failures and next(iter(failures.values()))[-1] <= now - self.window:
            failures.popitem(last=False)
        while len(failures) > _MAX_KEYS:
            failures.popitem(last=False)

    def wait(self, key: str | bytes, now: float) -> float:
        """Seconds until ``key`` may try again; 0 when it may now."""
        times = self._failures.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return 0.0
        if len(times) < self.limit:
            return 0.0
        return times[0] + self.window - now


class _LastFailures:
    """The last failure instant per key inside a sliding window: a ``_Window`` of limit one,
    without a deque per key (one per (login, address) pair would double the memory a
    failure costs)."""

    def __init__(self, window: float) -> None:
        self.window = window
        self._last: OrderedDict[bytes, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._last)

    def add(self, key: bytes, now: float) -> None:
        last = self._last
        last.pop(key, None)
        last[key] = now
        while last and next(iter(last.values())) <= now - self.window:
            last.popitem(last=False)
        while len(last) > _MAX_KEYS:
            last.popitem(last=False)

    def wait(self, key: bytes, now: float) -> float:
        """Seconds until ``key``'s last failure leaves the window; 0 if it has or none."""
        when = self._last.get(key)
        return 0.0 if when is None else max(0.0, when + self.window - now)


class FailedSignIns:
    """The counts the middleware keeps (separate so that tests and embedders can use them)."""

    def __init__(self, limits: SignInLimits, *, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self._clock = clock
        self._addresses = _Window(limits.per_address, limits.window)
        self._logins = _Window(limits.per_login, limits.window)
        #: (login, address) pairs that failed in the window: where a login's limit applies.
        self._pairs = _LastFailures(limits.window)
        self._trusted: OrderedDict[bytes, OrderedDict[str, None]] = OrderedDict()

    def tracked(self) -> int:
        """How many addresses and logins the failure counts hold now."""
        return len(self._addresses) + len(self._logins) + len(self._pairs)

    def retry_after(self, address: str, login: str | None) -> int:
        """Whole seconds this sign-in must wait; 0 when it may go ahead."""
        now = self._clock()
        wait = self._addresses.wait(address, now)
        if login is not None:
            key = _login_key(login)
            if address not in self._trusted.get(key, {}):
                # Until the login's count falls below its limit or this address's failure
                # at it leaves the window, whichever comes first.
                locked = self._logins.wait(key, now)
                if locked:
                    wait = max(wait, min(locked, self._pairs.wait(_pair(key, address), now)))
        return math.ceil(wait) if wait > 0 else 0

    def failed(self, address: str, login: str | None) -> None:
        now = self._clock()
        self._addresses.add(address, now)
        if login is not None:
            key = _login_key(login)
            self._logins.add(key, now)
            self._pairs.add(_pair(key, address), now)

    def succeeded(self, address: str, login: str | None) -> None:
        if login is None:
            return
        key = _login_key(login)
        trusted = self._trusted.pop(key, None) or OrderedDict()
        trusted[address] = None
        while len(trusted) > _MAX_TRUSTED:
            trusted.popitem(last=False)
        self._trusted[key] = trusted
        while len(self._trusted) > _MAX_KEYS:
            self._trusted.popitem(last=False)


def _login_key(login: str) -> bytes:
    """What a login is counted by: a 16-byte digest, so a 48 KB login costs what ``ann``
    does (failed sign-ins send logins no account has, of any length), of the login without
    its case: ``Editor`` signs in as ``editor`` (``users``), so guesses at either spelling
    count against the one account."""
    folded = login.casefold().encode("utf-8", "surrogatepass")
    return hashlib.blake2b(folded, digest_size=16).digest()


def _pair(login_key: bytes, address: str) -> bytes:
    """A (login, address) pair as one 16-byte key, whatever the address's length."""
    return hashlib.blake2b(
        address.encode("utf-8", "surrogatepass"), key=login_key, digest_size=16
    ).digest()


def basic_login(header: str) -> str | None:
    """The login of ``Basic`` credentials; ``None`` for other schemes or unreadable ones."""
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    credentials = basic_credentials(value)
    return None if credentials is None else credentials[0]


class SignInThrottle:
    """ASGI middleware: 429 with ``Retry-After`` for addresses and logins that failed too often."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limits: SignInLimits,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.failures = FailedSignIns(limits, clock=clock)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("authorization")
        if not header:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        login = basic_login(header)
        wait = self.failures.retry_after(address, login)
        if wait:
            await _too_many(send, wait)
            return
        status = 0

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self.app(scope, receive, watch)
        if status == 401:
            self.failures.failed(address, login)
        elif scope.get(SIGNED_IN):  # verified: a 404 or 413 is answered before that
            self.failures.succeeded(address, login)


async def _too_many(send: Send, wait: int) -> None:
    body = (
        b'{"code":"too_many_sign_in_attempts","message":"Too many failed sign-in attempts; '
        b'try again later.","data":{"status":429,"retry_after":' + str(wait).encode() + b"}}"
    )
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json; charset=UTF-8"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(wait).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
