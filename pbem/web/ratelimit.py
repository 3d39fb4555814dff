"""A coarse in-process rate limit for the JSON API: a fixed window per client address.

Enough to stop a runaway script on a single-machine install; it is per process, so behind
several gunicorn workers the effective limit is multiplied (acceptable for a coarse guard;
a shared store would be a dependency for little gain). Settings: ``API_RATE_LIMIT``
requests per ``API_RATE_WINDOW`` seconds (defaults 300 per 60; 0 turns it off).
"""

from __future__ import annotations

import threading
import time

from flask import Flask, current_app, request
from werkzeug.exceptions import TooManyRequests

DEFAULT_LIMIT = 300
DEFAULT_WINDOW = 60


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


def limit_api() -> None:
    """``before_request`` hook of the API blueprint: 429 with Retry-After when over."""
    config = current_app.config
    limit = int(config.get("API_RATE_LIMIT", DEFAULT_LIMIT))
    if limit <= 0:
        return
    window = int(config.get("API_RATE_WINDOW", DEFAULT_WINDOW))
    wait = _limiter(current_app).hit(request.remote_addr or "-", limit, window)
    if wait is not None:
        raise TooManyRequests(f"Too many requests: try again in {wait} s.", retry_after=wait)
