"""A process that ticks the scheduler until nothing is left to do, for the tests that run
several of them against one database (``python -m tests.tick_loop``).

The database and mail settings come from the environment, as for ``pbem clock``. The
process's clock runs ``--speed`` times faster than the wall clock from ``--base`` (every
process given the same ``--base`` and ``--ref`` agrees on the time), so the leases of a
killed process pass within seconds. It exits 0 once a tick leaves nothing due and no mail
unsent (not before ``--busy-until``), 1 when a step failed, 2 when ``--seconds`` passed
first.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from flask import Flask

from pbem import scheduler
from pbem.app import create_app
from pbem.extensions import db
from pbem.models import Deadline, Outbox
from pbem.models.outbox import SENT


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--instance", required=True)
    parser.add_argument("--base", required=True, help="the clock's time at --ref (ISO)")
    parser.add_argument("--ref", type=float, required=True, help="wall clock of --base")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--busy-until", type=float, default=0.0,
                        help="wall clock before which it keeps ticking even when quiet")
    args = parser.parse_args()
    base = datetime.fromisoformat(args.base).astimezone(UTC)

    def fast_clock() -> datetime:
        return base + timedelta(seconds=(time.time() - args.ref) * args.speed)

    app = create_app({"PBEM_CLOCK": fast_clock}, instance_path=args.instance)
    end = time.monotonic() + args.seconds
    ticks = 0
    while time.monotonic() < end:
        report = scheduler.tick(app)
        ticks += 1
        if report.failed:
            print(f"tick {ticks}: failed {report.failed}", flush=True)
            return 1
        if time.time() >= args.busy_until and _quiet(app, fast_clock()):
            print(f"quiet after {ticks} tick(s)", flush=True)
            return 0
        time.sleep(0.05)  # a leased row waits for its lease: no need to spin
    print(f"not quiet after {ticks} tick(s)", flush=True)
    return 2


def _quiet(app: Flask, now: datetime) -> bool:
    """Nothing due at ``now`` is left open (leased to a dead process or not), no mail unsent."""
    with app.app_context():
        open_due = db.session.scalar(sa.select(sa.func.count()).select_from(Deadline).where(
            Deadline.done_at.is_(None), Deadline.due_at <= now, Deadline.paused_at.is_(None)))
        unsent = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)
                                   .where(Outbox.status != SENT))
        db.session.rollback()
    return open_due == 0 and unsent == 0


if __name__ == "__main__":
    sys.exit(main())
