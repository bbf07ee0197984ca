"""Building the served app from the environment, so uvicorn workers can each build their own.

``events-calendar serve`` writes its options into ``EVENTS_CALENDAR_*`` variables
(``EVENTS_CALENDAR_RESPONSE_CACHE=0`` turns the anonymous-read cache off,
``EVENTS_CALENDAR_FRAGMENT_CACHE=0`` is ``create_app(fragments=False)``; ``..._MAX_BODY``,
``..._MAX_URL``, ``..._SIGN_IN_*`` and ``..._READ_THREADS`` carry ``HttpLimits``) and asks
uvicorn for ``app_from_environment`` as a factory: with ``--workers N`` every worker process
opens its own connection to the same database.
"""

from __future__ import annotations

import gc
import os

from starlette.applications import Starlette

from ..backends import default_url
from ..calendar import connect
from ..settings import Settings
from .app import create_app
from .limits import HttpLimits
from .throttle import SignInLimits

__all__ = ["app_from_environment", "environment", "limits_from_environment"]

_PREFIX = "EVENTS_CALENDAR_"


def environment(
    url: str,
    settings: Settings,
    base_path: str,
    vendor: str,
    limits: HttpLimits | None = None,
) -> dict[str, str]:
    """The variables ``app_from_environment`` reads back."""
    limits = limits or HttpLimits()
    return {
        f"{_PREFIX}MAX_BODY": str(limits.max_body),
        f"{_PREFIX}MAX_URL": str(limits.max_url),
        f"{_PREFIX}SIGN_IN_PER_ADDRESS": str(limits.sign_ins.per_address),
        f"{_PREFIX}SIGN_IN_PER_LOGIN": str(limits.sign_ins.per_login),
        f"{_PREFIX}SIGN_IN_WINDOW": str(limits.sign_ins.window),
        f"{_PREFIX}READ_THREADS": str(limits.read_threads),
        f"{_PREFIX}DB": url,
        f"{_PREFIX}PER_PAGE": str(settings.per_page),
        f"{_PREFIX}MAX_PER_PAGE": str(settings.max_per_page),
        f"{_PREFIX}TIMEZONE": settings.timezone,
        f"{_PREFIX}BASE_PATH": base_path,
        f"{_PREFIX}VENDOR": vendor,
    }


def app_from_environment() -> Starlette:
    """The app ``events-calendar serve`` configured."""
    env = os.environ
    settings = Settings(
        per_page=int(env.get(f"{_PREFIX}PER_PAGE", "10")),
        max_per_page=int(env.get(f"{_PREFIX}MAX_PER_PAGE", "50")),
        timezone=env.get(f"{_PREFIX}TIMEZONE", "UTC"),
    )
    calendar = connect(env.get(f"{_PREFIX}DB") or default_url(), settings=settings)
    app = create_app(
        calendar,
        base_path=env.get(f"{_PREFIX}BASE_PATH", "/wp-json"),
        vendor=env.get(f"{_PREFIX}VENDOR", "tribe"),
        cache=env.get(f"{_PREFIX}RESPONSE_CACHE", "1") != "0",
        limits=limits_from_environment(),
        fragments=env.get(f"{_PREFIX}FRAGMENT_CACHE", "1") != "0",
    )
    # Everything made so far (modules, classes, functions, the app: ~90,000 containers) lives
    # as long as the worker. Out of the collector's generations, it is no longer walked by
    # every full collection, which stalls all requests meanwhile: 60% of each such pause
    # (bench/http/README.md). Garbage is collected first, so none is kept for good.
    gc.collect()
    gc.freeze()
    return app


def limits_from_environment() -> HttpLimits:
    """The ``HttpLimits`` the environment names (defaults for the variables it lacks)."""
    env, default = os.environ, HttpLimits()
    return HttpLimits(
        max_body=int(env.get(f"{_PREFIX}MAX_BODY", default.max_body)),
        max_url=int(env.get(f"{_PREFIX}MAX_URL", default.max_url)),
        sign_ins=SignInLimits(
            per_address=int(env.get(f"{_PREFIX}SIGN_IN_PER_ADDRESS", default.sign_ins.per_address)),
            per_login=int(env.get(f"{_PREFIX}SIGN_IN_PER_LOGIN", default.sign_ins.per_login)),
            window=float(env.get(f"{_PREFIX}SIGN_IN_WINDOW", default.sign_ins.window)),
        ),
        read_threads=int(env.get(f"{_PREFIX}READ_THREADS", default.read_threads)),
    )
