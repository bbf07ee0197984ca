"""Building the served app from the environment, so uvicorn workers can each build their own.

``events-calendar serve`` writes its options into ``EVENTS_CALENDAR_*`` variables
(``EVENTS_CALENDAR_RESPONSE_CACHE=0`` turns the anonymous-read cache off,
``EVENTS_CALENDAR_FRAGMENT_CACHE=0`` is ``create_app(fragments=False)``; one variable per
field of ``HttpLimits``, ``..._MAX_BODY`` and the like, and ``..._SIGN_IN_*`` for its
``SignInLimits``, carry the limits) and asks
uvicorn for ``app_from_environment`` as a factory: with ``--workers N`` every worker process
opens its own connection to the same database.
"""

from __future__ import annotations

import gc
import os
from typing import Any

import attrs
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
    given = _limit_values(limits or HttpLimits())
    return {
        **{name: str(value) for name, value in given.items()},
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
    read: dict[str, Any] = {
        name: type(default)(os.environ.get(name, default))
        for name, default in _limit_values(HttpLimits()).items()
    }
    sign_ins = {f.name: read[_SIGN_IN + f.name.upper()] for f in attrs.fields(SignInLimits)}
    return HttpLimits(
        sign_ins=SignInLimits(**sign_ins),
        **{
            f.name: read[_PREFIX + f.name.upper()]
            for f in attrs.fields(HttpLimits)
            # A limit whose default follows another (``max_buffered``: four bodies of
            # ``max_body``) is left to follow it when its own variable is not set.
            if f.name != "sign_ins"
            and (
                not getattr(f.default, "takes_self", False)
                or _PREFIX + f.name.upper() in os.environ
            )
        },
    )


_SIGN_IN = f"{_PREFIX}SIGN_IN_"


def _limit_values(limits: HttpLimits) -> dict[str, int | float]:
    """Each limit by the name of its variable: one per field of ``HttpLimits``, and one per
    field of its ``SignInLimits`` (``..._SIGN_IN_PER_LOGIN``)."""
    values = attrs.asdict(limits, recurse=False)
    sign_ins = attrs.asdict(values.pop("sign_ins"))
    return {_PREFIX + name.upper(): value for name, value in values.items()} | {
        _SIGN_IN + name.upper(): value for name, value in sign_ins.items()
    }
