"""Failed sign-ins are throttled per client address and per login (issue 9, item 6)."""

from __future__ import annotations

import asyncio
import tracemalloc

import httpx
import pytest

from events_calendar.http import create_app
from events_calendar.http.limits import HttpLimits
from events_calendar.http.throttle import FailedSignIns, SignInLimits
from http_helpers import SITE, Site, basic

LIMITS = SignInLimits(per_address=3, per_login=5, window=60)


@pytest.fixture
def site() -> Site:
    site = Site()
    site.app = create_app(site.cal, limits=HttpLimits(sign_ins=LIMITS))
    return site


def get(
    site: Site, address: str, authorization: str | None, path: str = "/events"
) -> httpx.Response:
    """GET ``path`` from ``address`` with that ``Authorization`` header (or none)."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=site.app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            headers = {"Authorization": authorization} if authorization else {}
            return await client.get(site.prefix + path, headers=headers)

    return asyncio.run(send())


def wrong(login: str = "editor") -> str:
    return basic(login, "aaaa bbbb cccc dddd eeee ffff")


def test_an_address_is_throttled_after_its_failed_sign_ins(site: Site) -> None:
    """After ``per_address`` failures the next sign-in from that address is a 429."""
    statuses = [get(site, "10.0.0.1", wrong()).status_code for _ in range(4)]
    assert [401, 401, 401, 429] == statuses


def test_a_throttled_answer_says_when_to_retry(site: Site) -> None:
    """The 429 carries ``Retry-After`` in seconds and a stable code."""
    for _ in range(3):
        get(site, "10.0.0.1", wrong())
    response = get(site, "10.0.0.1", wrong())
    assert ("60", "too_many_sign_in_attempts") == (
        response.headers["retry-after"],
        response.json()["code"],
    )


def test_a_throttled_address_refuses_even_the_right_password(site: Site) -> None:
    """While throttled, credentials are not even checked (no oracle for the guesser)."""
    for _ in range(3):
        get(site, "10.0.0.1", wrong())
    assert 429 == get(site, "10.0.0.1", basic("editor", site.passwords["editor"])).status_code


def test_anonymous_reads_from_a_throttled_address_still_work(site: Site) -> None:
    """Requests without credentials are not throttled."""
    for _ in range(3):
        get(site, "10.0.0.1", wrong())
    assert 200 == get(site, "10.0.0.1", None).status_code


def test_a_login_is_throttled_across_addresses(site: Site) -> None:
    """``per_login`` failures at one login, from many addresses, throttle that login at
    each of them, although none has reached ``per_address``; an address new to the login
    has one guess, then is throttled too."""
    for n in range(5):
        assert 401 == get(site, f"10.0.1.{n}", wrong()).status_code
    assert [429] * 5 == [get(site, f"10.0.1.{n}", wrong()).status_code for n in range(5)]
    assert [401, 429] == [get(site, "10.0.2.1", wrong()).status_code for _ in range(2)]
    # The limit is the login's: another login from those addresses is not refused.
    assert 200 == get(site, "10.0.1.0", basic("author", site.passwords["author"])).status_code


def test_the_real_user_is_not_locked_out_at_a_new_address(site: Site) -> None:
    """A login under attack from many addresses still signs in from an address that has
    not failed at it, one it never signed in from before included (a new network, or a
    server restarted since): a guesser cannot lock the user out."""
    for n in range(20):
        get(site, f"10.0.1.{n}", wrong())
    right = basic("editor", site.passwords["editor"])
    assert 200 == get(site, "172.16.0.9", right).status_code
    assert 429 == get(site, "10.0.1.3", right).status_code  # an address that guessed


def test_a_login_is_throttled_whatever_the_case_it_is_sent_in(site: Site) -> None:
    """Logins sign in without their case, so ``EDITOR`` and ``Editor`` are guesses at the
    account ``editor``: they count together, not ``per_login`` failures for each spelling."""
    for n, login in enumerate(["editor", "Editor", "EDITOR", "eDitor", "edItor"]):
        get(site, f"10.0.1.{n}", wrong(login))
    assert [429] * 5 == [get(site, f"10.0.1.{n}", wrong("EdItOr")).status_code for n in range(5)]


def test_the_real_user_is_not_locked_out_at_a_known_address(site: Site) -> None:
    """A login under attack still signs in from an address it signed in from before."""
    right = basic("editor", site.passwords["editor"])
    assert 200 == get(site, "192.168.7.7", right).status_code
    for n in range(5):
        get(site, f"10.0.1.{n}", wrong())
    assert 200 == get(site, "192.168.7.7", right).status_code


def test_an_answer_before_the_credentials_are_read_trusts_no_address(site: Site) -> None:
    """A 404 for a path no route serves comes before the credentials are checked: wrong
    ones there do not make the address one the login signed in from (it did, and from
    such primed addresses the login's own limit no longer applied)."""
    for n in range(5):
        assert 404 == get(site, f"10.0.4.{n}", wrong(), path="/no-such-route").status_code
    for n in range(5):
        get(site, f"10.0.1.{n}", wrong())
    assert [401] * 5 == [get(site, f"10.0.4.{n}", wrong()).status_code for n in range(5)]
    assert [429] * 5 == [get(site, f"10.0.4.{n}", wrong()).status_code for n in range(5)]


def test_other_logins_are_not_throttled_by_one_under_attack(site: Site) -> None:
    """Failures at one login do not throttle another login at a fresh address."""
    for n in range(5):
        get(site, f"10.0.1.{n}", wrong("editor"))
    assert 200 == get(site, "10.0.3.1", basic("author", site.passwords["author"])).status_code


def test_failures_leave_the_window() -> None:
    """Once the oldest failure is ``window`` seconds old, the address may try again."""
    now = [1000.0]
    failures = FailedSignIns(LIMITS, clock=lambda: now[0])
    for _ in range(3):
        failures.failed("10.0.0.1", "editor")
    blocked = failures.retry_after("10.0.0.1", "editor")
    now[0] += 60
    assert (60, 0) == (blocked, failures.retry_after("10.0.0.1", "editor"))


def test_bad_bearer_tokens_count_against_the_address(site: Site) -> None:
    """Bearer tokens have no login: their failures count per address only."""
    statuses = [get(site, "10.0.0.9", "Bearer ect_nope").status_code for _ in range(4)]
    assert [401, 401, 401, 429] == statuses


def test_limits_must_be_positive() -> None:
    """A zero limit is refused when the limits are made."""
    with pytest.raises(ValueError, match="must be positive"):
        SignInLimits(per_address=0)


def test_long_logins_cost_what_short_ones_do() -> None:
    """8,000 failed sign-ins with 48 KB logins from distinct addresses hold under 20 MB."""
    failures = FailedSignIns(SignInLimits(), clock=lambda: 0.0)
    tracemalloc.start()
    try:
        for number in range(8_000):
            failures.failed(f"10.0.{number // 256}.{number % 256}", f"{number:05}" + "x" * 48_000)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 20_000_000


def test_expired_failures_are_dropped_as_others_fail() -> None:
    """Keys whose failures all left the window go when a later failure is counted."""
    now = [0.0]
    failures = FailedSignIns(SignInLimits(window=60), clock=lambda: now[0])
    for number in range(1_000):
        failures.failed(f"10.0.0.{number}", f"user{number}")
    now[0] = 61.0
    failures.failed("10.9.9.9", "late")
    assert 3 == failures.tracked()  # the late one's address, login, and their pair
