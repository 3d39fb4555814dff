"""Coarse in-process rate limits: a fixed window per client address and bucket.

Enough to stop a runaway script, a link-guessing loop or a form flood on a small install; it
is per process, so behind several gunicorn workers the effective limit is multiplied
(acceptable for a coarse guard; a shared store would be a dependency for little gain).

Buckets and their settings (requests per window in seconds; a limit of 0 turns it off):

| bucket     | what                                  | limit setting          | default     |
|------------|---------------------------------------|------------------------|-------------|
| api        | the JSON API                          | ``API_RATE_LIMIT``     | 300 / 60 s  |
| tokens     | pages opened or posted by a seat link | ``TOKEN_RATE_LIMIT``   | 300 / 60 s  |
| new_game   | game creation (POST /games/new)       | ``NEW_GAME_RATE_LIMIT``| 20 / 3600 s |
| magic_link | "my games" link requests (POST /me)   | ``MAGIC_RATE_LIMIT``   | 10 / 3600 s |

Each window setting is the limit setting's name with ``_WINDOW`` for ``_LIMIT``
(``API_RATE_WINDOW`` …).
"""

from __future__ import annotations

import threading
import time

from flask import Flask, current_app, request
from werkzeug.exceptions import TooManyRequests

DEFAULT_LIMIT = 300
DEFAULT_WINDOW = 60
BUCKETS: dict[str, tuple[str, int, int]] = {  # bucket -> (limit setting, limit, window s)
    "api": ("API_RATE_LIMIT", DEFAULT_LIMIT, DEFAULT_WINDOW),
    "tokens": ("TOKEN_RATE_LIMIT", 300, 60),
    "new_game": ("NEW_GAME_RATE_LIMIT", 20, 3600),
    "magic_link": ("MAGIC_RATE_LIMIT", 10, 3600),
}


class FixedWindowLimiter:
    """Counts hits per key in the current window; forgets old windows as it goes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window = -1
        self._hits: dict[str, int] = {}

    def hit(self, key: str, limit: int, window_seconds: int) -> int | None:
        """Count one hit; return the seconds to wait if over ``limit``, else None."""
        now = time.monotonic()
        window = int(now // window_seconds)
        with self._lock:
            if window != self._window:
                self._window, self._hits = window, {}
            count = self._hits.get(key, 0) + 1
            self._hits[key] = count
        if count <= limit:
            return None
        return max(1, int((window + 1) * window_seconds - now))


def _limiter(app: Flask) -> FixedWindowLimiter:
    limiter: FixedWindowLimiter = app.extensions.setdefault(
        "pbem_rate_limiter", FixedWindowLimiter())
    return limiter


def limit(bucket: str) -> None:
    """Count this request in `bucket`; 429 with Retry-After when the client is over."""
    setting, default_limit, default_window = BUCKETS[bucket]
    config = current_app.config
    limit_value = int(config.get(setting, default_limit))
    if limit_value <= 0:
        return
    window = int(config.get(setting.replace("_LIMIT", "_WINDOW"), default_window))
    key = f"{bucket}:{request.remote_addr or '-'}"
    wait = _limiter(current_app).hit(key, limit_value, window)
    if wait is not None:
        raise TooManyRequests(f"Too many requests: try again in {wait} s.", retry_after=wait)


def limit_api() -> None:
    """``before_request`` hook of the API blueprint."""
    limit("api")


def limit_tokens() -> None:
    """``before_request`` hook of the blueprints whose URLs carry a seat link."""
    limit("tokens")


def limit_posts(bucket: str) -> None:
    """Count only POSTs (a form shown is free; a form sent costs)."""
    if request.method == "POST":
        limit(bucket)
