"""Rate limits per client and bucket, with Flask-Limiter.

Each bucket has its own fixed window and its own counters, so a request in one bucket never
touches another. The client is ``request.remote_addr``: behind a proxy it is the visitor's
address only once ``PROXY_HOPS`` says how many proxies to trust (``pbem.app`` installs
Werkzeug's ``ProxyFix`` with that many hops; with 0, forwarded headers are ignored, so a
visitor cannot pick their own address). Counters live in the process (``memory://``) unless
``RATELIMIT_STORAGE_URI`` names a shared store (``redis://…``, with ``pip install
'.[redis]'``), which makes the limits hold across gunicorn workers and machines; while that
store does not answer, each process counts in its own memory (never a 500; the requests in
flight when it stops go unlimited and are logged), and it goes back to the store once it
answers.

Buckets and their settings (requests per window in seconds; a limit of 0 turns it off):

| bucket     | what                                  | limit setting          | default     |
|------------|---------------------------------------|------------------------|-------------|
| api        | the JSON API (table talk's too)       | ``API_RATE_LIMIT``     | 300 / 60 s  |
| tokens     | pages opened or posted by a seat link | ``TOKEN_RATE_LIMIT``   | 300 / 60 s  |
| new_game   | game creation (POST /games/new)       | ``NEW_GAME_RATE_LIMIT``| 20 / 3600 s |
| magic_link | "my games" link requests (POST /me)   | ``MAGIC_RATE_LIMIT``   | 10 / 3600 s |
| inbound    | inbound webhook posts with a wrong secret | ``INBOUND_RATE_LIMIT`` | 20 / 3600 s |

The ``tokens`` bucket also counts the table talk forms and the calendar feeds (their links
are a seat's too).

The ``inbound`` bucket counts only posts whose secret is wrong: the provider, which knows it,
is never limited, while a client guessing secrets gets 429 after its 20th try in the hour.

Each window setting is the limit setting's name with ``_WINDOW`` for ``_LIMIT``
(``API_RATE_WINDOW`` …). The settings are read from the app's config at each request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter

from pbem.web import guards


@dataclass(frozen=True)
class Bucket:
    setting: str  # e.g. "API_RATE_LIMIT"; the window is "API_RATE_WINDOW"
    limit: int
    window: int
    blueprints: tuple[str, ...] = ()  # every route of these blueprints counts
    endpoints: tuple[str, ...] = ()  # these views count (each is a POST-only view)
    exempt: Callable[[], bool] | None = None  # requests for which this is true do not count


BUCKETS: dict[str, Bucket] = {
    "api": Bucket("API_RATE_LIMIT", 300, 60, blueprints=("api", "talk_api")),
    "tokens": Bucket("TOKEN_RATE_LIMIT", 300, 60, blueprints=("play", "seat", "table_talk",
                                                                "calendar")),
    "new_game": Bucket("NEW_GAME_RATE_LIMIT", 20, 3600, endpoints=("games.create",)),
    "magic_link": Bucket("MAGIC_RATE_LIMIT", 10, 3600, endpoints=("me.send_link",)),
    "inbound": Bucket("INBOUND_RATE_LIMIT", 20, 3600, endpoints=("inbound.webhook",),
                      exempt=guards.webhook_secret_is_right),
}
REFUSAL = "Too many requests from your address: wait a little, then try again."


def client_address() -> str:
    """The rate-limit key: the client's address, as ``ProxyFix`` (if installed) found it."""
    return request.remote_addr or "-"


def _setting(name: str, default: int) -> int:
    return int(current_app.config.get(name, default))


def _rate(bucket: Bucket) -> Callable[[], str]:
    def rate() -> str:
        limit = _setting(bucket.setting, bucket.limit)
        window = _setting(bucket.setting.replace("_LIMIT", "_WINDOW"), bucket.window)
        return f"{max(limit, 1)} per {max(window, 1)} second"

    return rate


def _off(bucket: Bucket) -> Callable[[], bool]:
    exempt = bucket.exempt or (lambda: False)
    return lambda: _setting(bucket.setting, bucket.limit) <= 0 or exempt()


def install(app: Flask) -> Limiter:
    """Give ``app`` its own limiter (its own counters) and put every bucket on its routes.

    Called by the app factory once the blueprints are registered."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    # A shared store that stops answering (a free Redis restarting) must not turn requests
    # into 500s: each process counts in its own memory until the store answers again. The
    # few requests already talking to the store when it stops (another thread switched to
    # memory meanwhile) are let through unlimited and logged (swallow_errors).
    limiter = Limiter(client_address, strategy="fixed-window", headers_enabled=True,
                      in_memory_fallback_enabled=True, swallow_errors=True)
    limiter.init_app(app)
    for name, bucket in BUCKETS.items():
        shared = limiter.shared_limit(_rate(bucket), scope=name, exempt_when=_off(bucket),
                                      error_message=REFUSAL)
        for blueprint in bucket.blueprints:
            shared(cast(Blueprint, app.blueprints[blueprint]))
        for endpoint in bucket.endpoints:
            view: Callable[..., Any] = app.view_functions[endpoint]
            app.view_functions[endpoint] = shared(view)
    return limiter
