"""Building the served app from the environment, so uvicorn workers can each build their own.

``events-calendar serve`` writes its options into ``EVENTS_CALENDAR_*`` variables
(``EVENTS_CALENDAR_RESPONSE_CACHE=0`` turns the anonymous-read cache off) and asks
uvicorn for ``app_from_environment`` as a factory: with ``--workers N`` every worker process
opens its own connection to the same database.
"""

from __future__ import annotations

import os

from starlette.applications import Starlette

from ..backends import default_url
from ..calendar import connect
from ..settings import Settings
from .app import create_app

__all__ = ["app_from_environment", "environment"]

_PREFIX = "EVENTS_CALENDAR_"


def environment(url: str, settings: Settings, base_path: str, vendor: str) -> dict[str, str]:
    """The variables ``app_from_environment`` reads back."""
    return {
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
    return create_app(
        calendar,
        base_path=env.get(f"{_PREFIX}BASE_PATH", "/wp-json"),
        vendor=env.get(f"{_PREFIX}VENDOR", "tribe"),
        cache=env.get(f"{_PREFIX}RESPONSE_CACHE", "1") != "0",
    )
