"""Periodic work: a tiny registry of steps and the scheduler that runs them.

Each step is a sweep over rows (due deadlines, the mail outbox, ...) that must be safe to run
twice, because a tick can be repeated after a crash. ``pbem.scheduler.steps`` registers the
server's steps (deadlines, digest, mail) with ``register_step`` when the app factory calls it;
the mail and the services never import the scheduler. ``tick`` runs the steps in
registration order inside an app context.
``SCHEDULER_MODE`` chooses who drives ``tick``: ``web`` (the default) runs it in a background
thread of every web process (each gunicorn worker, ``pbem serve``); ``clock`` leaves it to a
``pbem clock`` process; ``off`` to ``POST /tasks/tick`` alone. Whoever drives it
(``pbem.scheduler.lock``): on PostgreSQL every process runs the steps at once, each claiming
other rows, and a step registered ``single`` runs in one process at a time under a
transaction-scoped advisory lock; on SQLite a tick first takes a file lock, so one tick runs
at a time and the others skip theirs.
A process asked to stop (SIGTERM: ``pbem clock``, a gunicorn worker's exit) stops cleanly
(``pbem.shutdown``): the tick finishes the item in hand, gives back the rows it claimed and
did not do, leaves the rest due for the next process and releases its locks (``run_blocking``,
``stop``).
"""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from flask import Flask

from pbem import shutdown
from pbem.extensions import db
from pbem.scheduler.lock import shares_steps, step_lock, tick_lock

log = logging.getLogger(__name__)

TICK_SECONDS = 30

Step = Callable[[], None]
_steps: dict[str, Step] = {}
_single: set[str] = set()  # steps that one process at a time may run (``step_lock``)


@dataclass(frozen=True)
class TickReport:
    """Which steps ran in one tick and which of them raised."""

    ran: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    busy: bool = False  # another tick held the tick lock: this tick did nothing
    elsewhere: tuple[str, ...] = ()  # ``single`` steps another process was running


def register_step(name: str, fn: Step, *, single: bool = False) -> None:
    """Add ``fn`` to every tick under ``name``; registering the same pair again is a no-op.

    ``single``: the step does not claim rows and must not run in two processes at once; on
    PostgreSQL it runs only in the process that takes its advisory lock (the others skip it
    for this tick)."""
    existing = _steps.get(name)
    if existing is not None and existing is not fn:
        raise ValueError(f"scheduler step {name!r} is already registered to {existing!r}")
    _steps[name] = fn
    if single:
        _single.add(name)


def registered_steps() -> tuple[str, ...]:
    """Names of the registered steps, in the order ``tick`` runs them."""
    return tuple(_steps)


def tick(app: Flask) -> TickReport:
    """Run every registered step once, unless this process is ticking already or (SQLite)
    another process is (then ``busy``). A failing step is logged and does not stop the
    others."""
    with app.app_context(), tick_lock() as held:
        if not held:
            return TickReport(busy=True)
        return _run_steps()


def _run_steps() -> TickReport:
    ran: list[str] = []
    failed: list[str] = []
    elsewhere: list[str] = []
    shared = shares_steps()
    for name, fn in list(_steps.items()):
        if shutdown.requested():  # stopping: the next process runs the steps left
            break
        try:
            if shared and name in _single:
                with step_lock(name) as held:
                    if not held:
                        elsewhere.append(name)
                        continue
                    ran.append(name)
                    fn()
            else:
                ran.append(name)
                fn()
        except Exception:
            log.exception("scheduler step %s failed", name)
            db.session.rollback()
            failed.append(name)
    return TickReport(ran=tuple(ran), failed=tuple(failed), elsewhere=tuple(elsewhere))


def _add_tick_job(scheduler: BaseScheduler, app: Flask, first_in: float = 0.0) -> None:
    # coalesce: after a pause run one tick, not a burst; misfire_grace_time=None: a late tick
    # still runs (the steps are sweeps, so late is fine, skipped is not).
    scheduler.add_job(
        tick,
        "interval",
        seconds=float(app.config.get("SCHEDULER_TICK_SECONDS", TICK_SECONDS)),
        args=[app],
        id="pbem-tick",
        coalesce=True,
        misfire_grace_time=None,
        max_instances=1,
        next_run_time=datetime.now(UTC) + timedelta(seconds=first_in),
        replace_existing=True,
    )


def runs_in_web(app: Flask) -> bool:
    """True when web processes tick themselves (``SCHEDULER_MODE=web``, the default)."""
    return bool(app.config.get("SCHEDULER_MODE", "web") == "web")


def start_background(app: Flask, first_in: float = 0.0) -> BackgroundScheduler:
    """Start ticking in a daemon thread (web processes, ``pbem serve``), the first tick after
    ``first_in`` seconds; returns the running scheduler."""
    scheduler = BackgroundScheduler(timezone=UTC, daemon=True)
    _add_tick_job(scheduler, app, first_in)
    scheduler.start()
    return scheduler


def run_blocking(app: Flask) -> None:
    """Tick until SIGTERM or Ctrl-C (for ``pbem clock``), then stop cleanly: the tick in hand
    finishes its item, leaves the rest due and releases the tick lock before this returns.

    The ticks run in a scheduler thread; the main thread only waits. The SIGTERM handler
    does nothing but set ``pbem.shutdown``'s flag (taking no lock a tick might hold), and
    the main thread, seeing it, stops the scheduler and waits for the tick."""
    scheduler = BackgroundScheduler(timezone=UTC)
    _add_tick_job(scheduler, app)
    previous = signal.signal(signal.SIGTERM, lambda *_: shutdown.request())
    scheduler.start()
    try:
        while not shutdown.requested():
            time.sleep(0.25)
    finally:
        stop(scheduler)  # Ctrl-C (KeyboardInterrupt) too
        signal.signal(signal.SIGTERM, previous)


def stop(scheduler: BaseScheduler) -> None:
    """Stop ticking cleanly (``pbem clock`` after SIGTERM, a gunicorn worker on its way out):
    the running tick finishes the item in hand (``pbem.shutdown``), leaves the rest due and
    releases the tick lock; this returns when it has. Not for a signal handler: it waits."""
    shutdown.request()
    if scheduler.running:
        scheduler.shutdown(wait=True)
