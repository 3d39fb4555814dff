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
  worker past its memory budget (<= 80 MB).
"""

from __future__ import annotations

import os
import random
from typing import Any

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("PBEM_WEB_THREADS", "4"))
worker_class = "gthread"
preload_app = True
max_requests = 10_000
max_requests_jitter = 1_000
keepalive = 5  # seconds an idle keep-alive connection stays open (API clients reuse them)


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
        start_background(app, first_in=random.uniform(1.0, 3.0))
