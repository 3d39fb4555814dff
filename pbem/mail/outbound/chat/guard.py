"""The send-time check: every address a post connects to must be public.

A host checked when the channel was saved may resolve elsewhere later (DNS rebinding: a
short-lived record that first answers a public address, then 127.0.0.1 or 10.0.0.5). apprise
posts with ``requests``, whose connections resolve names through ``socket.getaddrinfo``; inside
``checked_addresses()`` every resolution made by this thread is checked, address by address,
before a connection is opened to any of them, so what is checked is exactly what is connected
to, redirects included. Other threads and code outside the block resolve as before.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_state = threading.local()
_real_getaddrinfo: Callable[..., Any] = socket.getaddrinfo
_install_lock = threading.Lock()


class Outcome:
    """What the check refused inside one block (None: nothing)."""

    refused: str | None = None


class UnsafeAddress(OSError):
    """A post would have connected to an address that is not public."""


def _checked_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    infos = _real_getaddrinfo(host, port, *args, **kwargs)
    check: Callable[[str], str | None] | None = getattr(_state, "check", None)
    if check is not None:
        for info in infos:
            why = check(str(info[4][0]))
            if why is not None:
                _state.refused = f"refused to connect to {host}: {why}"
                raise UnsafeAddress(_state.refused)
    return infos


def _install() -> None:
    """Route ``socket.getaddrinfo`` through the check once per process (a no-op outside a
    ``checked_addresses`` block)."""
    with _install_lock:
        if socket.getaddrinfo is not _checked_getaddrinfo:
            socket.getaddrinfo = _checked_getaddrinfo


@contextmanager
def checked_addresses(refusal: Callable[[str], str | None]) -> Iterator[Outcome]:
    """Within the block, this thread's name resolutions fail for any address ``refusal``
    refuses; the outcome says which, for the post's error."""
    _install()
    outcome = Outcome()
    _state.check, _state.refused = refusal, None
    try:
        yield outcome
    finally:
        outcome.refused = _state.refused
        _state.check, _state.refused = None, None
