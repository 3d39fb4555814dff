"""A clean stop: the process was asked to stop (SIGTERM), so the loops of the periodic work
finish the item in hand and leave the rest to the next process (issue 25, point 5).

``pbem clock`` sets it from its SIGTERM handler, and a gunicorn worker from its
``worker_exit`` / ``worker_int`` hooks (gunicorn.conf.py). The loops that work through many
items check ``requested()`` between items, never inside one: the deadline sweep between rows
(``pbem.scheduler.deadlines``), the outbox between messages (``pbem.mail.outbound.delivery``,
which gives the messages it claimed and did not send back to the queue), the tick between
steps. What a dead process would hold anyway (the tick lock, a lease) is released at once
instead of when the connection drops or the lease runs out.

A flag and not an exception: raising from a signal handler could land between a send and the
commit that marks it sent, which is exactly the half-done item a clean stop avoids.
"""

from __future__ import annotations

import threading

_stopping = threading.Event()


def request() -> None:
    """Ask every loop of this process to stop after the item in hand (safe in a handler)."""
    _stopping.set()


def requested() -> bool:
    """True once this process has been asked to stop."""
    return _stopping.is_set()


def reset() -> None:
    """Forget a stop request (a test that asked for one; a process never needs it)."""
    _stopping.clear()
