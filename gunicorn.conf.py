"""gunicorn settings for the ``web`` process (Procfile) and ``benchmarks/load.py``.

gunicorn reads this file from the working directory; flags on its command line win.

- Workers: one per core (``WEB_CONCURRENCY``, default 2 for a 2-core machine). The GIL runs
  one thread of a process at a time, so more processes than cores only adds memory.
- Threads (``PBEM_WEB_THREADS``, default 4): while one request waits for PostgreSQL (lock,
  commit), another runs Python.
- ``preload_app``: the app is imported once in the master; workers share those pages
  copy-on-write and a recycled worker starts at once instead of importing everything again.
  The master also compiles the mail templates (``when_ready``), so no worker does.
- Every worker runs the scheduler thread unless ``SCHEDULER_MODE`` says otherwise
  (``post_fork``; see ``pbem.scheduler``): no separate worker process is needed.
- ``max_requests`` with jitter recycles workers one at a time, so a slow leak cannot grow a
  worker past its memory budget (<= 80 MB RSS after 300 moves and 300 pages:
  ``benchmarks/worker_memory.py``). Two malloc arenas for a worker's threads and a
  ``malloc_trim`` every 50 requests (``post_request``) keep what glibc frees from staying
  resident (3-4 MB of a worker).
- A worker that exits (SIGTERM) first stops its scheduler thread cleanly (``worker_exit``):
  the item in hand is finished, the rest left for the next tick of any process.
- The master records the settings mails depend on (``when_ready``), which commands run from
  a shell read (``pbem.services.server_settings``).
"""

from __future__ import annotations

import ctypes
import itertools
import os
import random
import sys
from typing import Any

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("PBEM_WEB_THREADS", "4"))
worker_class = "gthread"
preload_app = True
max_requests = 10_000
max_requests_jitter = 1_000
keepalive = 5  # seconds an idle keep-alive connection stays open (API clients reuse them)

# Memory (a worker's budget is 80 MB RSS, benchmarks/worker_memory.py). glibc gives each
# thread that allocates its own malloc arena, and every arena keeps what it freed: two arenas
# for the worker's threads, and every TRIM_EVERY requests the free pages go back to the OS.
MALLOC_ARENAS = 2
TRIM_EVERY = 50
_M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)


def _glibc() -> Any:
    """The C library's malloc controls, where it has them (glibc; not musl, not macOS)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None)  # the symbols the interpreter itself is linked with
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_libc = _glibc()
if _libc is not None:  # set in the master, before any thread: the workers inherit it
    _libc.mallopt(_M_ARENA_MAX, MALLOC_ARENAS)
_served = itertools.count(1)
_scheduler: Any = None  # this worker's scheduler thread (post_fork), stopped in worker_exit


def when_ready(server: Any) -> None:
    """In the master, before the first fork: compile the mail templates once for all (only
    with the app preloaded: otherwise each worker loads its own app), and record the settings
    mails depend on, for the commands that mail from a shell (pbem.services.server_settings)."""
    from pbem.mail.outbound.compose import warm_templates
    from pbem.services import server_settings

    app = server.app.wsgi()
    if server.cfg.preload_app:
        warm_templates(app)
    with app.app_context():
        server_settings.record(app.config)


def post_fork(server: Any, worker: Any) -> None:
    """A forked worker never reuses a database connection the master may have opened; with
    ``SCHEDULER_MODE=web`` (the default) it runs the scheduler thread (a thread does not
    survive a fork, so each worker starts its own; the tick lock lets one tick at a time)."""
    from pbem.extensions import db
    from pbem.scheduler import runs_in_web, start_background

    app = server.app.wsgi()
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose(close=False)
    if runs_in_web(app):
        # The first tick waits a moment, at a different moment in each worker: a booting
        # worker answers its first requests (the health check) before it sweeps.
        global _scheduler
        _scheduler = start_background(app, first_in=random.uniform(1.0, 3.0))


def worker_int(worker: Any) -> None:
    """SIGINT or SIGQUIT (a quick stop), in the worker's signal handler: only ask the tick in
    hand to stop after its item (``pbem.shutdown``); ``worker_exit`` waits for it."""
    from pbem import shutdown

    shutdown.request()


def worker_exit(server: Any, worker: Any) -> None:
    """In the worker on its way out (SIGTERM: a deploy or a scale-down, or after
    ``worker_int``): the scheduler thread is a daemon and would die mid-item at exit, so
    stop it cleanly first: the tick in hand finishes its item, gives back the mails it
    claimed and did not send, and releases the tick lock (``pbem.scheduler.stop``; within
    the graceful timeout, after which the master kills the worker anyway)."""
    from pbem.scheduler import stop

    if _scheduler is not None:
        stop(_scheduler)


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """In the worker after each request: now and then, the pages malloc holds free go back to
    the OS (a few ms of CPU every TRIM_EVERY requests; ``itertools.count`` is thread-safe)."""
    if _libc is not None and next(_served) % TRIM_EVERY == 0:
        _libc.malloc_trim(0)
