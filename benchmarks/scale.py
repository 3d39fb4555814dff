"""Benchmark: one PostgreSQL database at 100,000 active games — what a tick, a move, a page and a
backlog cost there (issue 25, point 1).

    createdb -h 127.0.0.1 -U postgres pbem_scale
    PBEM_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/pbem_scale \\
        .venv/bin/python benchmarks/scale.py [--games 100000] [--processes 1 2 4]

Give it a database of its own: the tick lock is an advisory lock of the database (not of
the schema), so a test suite ticking in the same database makes the benchmark's ticks busy,
and the benchmark's drain would hold the lock for minutes against the suite.

It builds a scratch schema (``pbem_scale``, dropped and recreated), migrates it, creates one
real 3-seat game through the service and clones it with ``INSERT … SELECT generate_series``
into ``--games`` active games: 3 seats each, every other seat on the daily digest (its
``next_digest_at`` at its next local morning, in one of eight time zones), each game with its
open deadline rows (due within the next two days) and three sent mails (pruned, as after
``MAIL_RETENTION_DAYS``). Then it measures:

1. the idle tick: ``scheduler.tick`` with nothing due (p50/p99 over ``--ticks``; goal ≤ 50 ms),
   and apart, the two repair passes that run every ten minutes;
2. a move (``POST /api/games/<id>/actions``) and a turn page (``GET /play/<link>``) through the
   Flask test client, on ``--requests`` different games each (p50/p99);
3. the drain: ``--due`` deadlines made due (reminders: each composes and enqueues its mail)
   plus ``--mails`` queued mails (the dev backend: built, not sent over a network), worked off
   by 1, 2 and 4 processes each running ``scheduler.tick`` in a loop (``--mode tick``: the
   tick lock lets one of them tick at a time), or each running the deadline sweep and the
   mail delivery directly (``--mode steps``: what per-row claims alone allow). The due work is
   restored between runs.

With ``--smtp-delay S`` the mail goes over SMTP to a server on 127.0.0.1 that takes ``S``
seconds to accept each message (``tests.slow_smtp``: a provider's round trip), instead of the
dev backend: the drain then waits on the network, as a deployed one does, and the run shows
how the claims share that waiting between processes. The server counts every copy of every
Message-ID, so the run also says how many mails arrived twice. ``--drain-only`` skips the tick
and request measures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa
from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402
from pbem import scheduler, tokens  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.outbound import delivery  # noqa: E402
from pbem.mail.outbound import digest as digest_step  # noqa: E402
from pbem.models import Deadline, Game, Outbox, Seat  # noqa: E402
from pbem.scheduler import deadlines as deadline_step  # noqa: E402
from pbem.services import timeouts  # noqa: E402
from pbem.services.games import SeatSpec, create_game  # noqa: E402
from tests.slow_smtp import SlowRecorder, slow_smtp  # noqa: E402

SCHEMA = "pbem_scale"
IDLE_GOAL_MS = 50.0
NOW = datetime.now(UTC).replace(microsecond=0)
ZONES = ("UTC", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles",
         "Asia/Tokyo", "Australia/Sydney", "Asia/Kolkata")
GAME_COLUMNS = [c.name for c in Game.__table__.columns if c.name not in ("id", "public_id")]
SEAT_COLUMNS = [c.name for c in Seat.__table__.columns
                if c.name not in ("id", "game_id", "email", "notify", "timezone",
                                  "next_digest_at")]
OUTBOX_COLUMNS = [c.name for c in Outbox.__table__.columns
                  if c.name not in ("id", "game_id", "to_addr", "headers", "status",
                                    "next_attempt_at", "created_at", "sent_at")]


def make_app(url: str, smtp_port: int | None = None) -> Flask:
    mail: dict[str, Any] = {"MAIL_BACKEND": "dev"}
    if smtp_port is not None:
        mail = {"MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": smtp_port,
                "SMTP_SECURITY": "none", "SMTP_USERNAME": None, "SMTP_TIMEOUT": 30.0,
                "MAIL_FROM": "pbem@pbem.bench", "MAIL_MESSAGE_ID_DOMAIN": "pbem.bench"}
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                       "SERVER_NAME": "pbem.bench", **mail,
                       "SCHEDULER_MODE": "off", "PBEM_CLOCK": lambda: NOW,
                       "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False},
                      instance_path=tempfile.mkdtemp(prefix="pbem-scale-"))


def _quoted(columns: list[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)  # "index" is a keyword


def build(games: int) -> int:
    """Clone one real game into ``games`` active games (the template is the first); returns
    the template's id."""
    template = create_game(
        name="Scale", host_email="host@example.org", fixed_order=True, seed=1, options={},
        seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Ben", "ben@example.org"),
               SeatSpec("Cy", "cy@example.org")],
    )
    tid = template.id
    db.session.execute(sa.delete(Outbox))  # the invitations: the queue starts empty
    db.session.commit()
    zones = "ARRAY[" + ", ".join(f"'{z}'" for z in ZONES) + "]"
    params = {"tid": tid, "n": games - 1, "now": NOW}
    steps = [
        ("games", f"""INSERT INTO games (public_id, {_quoted(GAME_COLUMNS)})
            SELECT 'scale' || lpad(g::text, 17, '0'), {_quoted(GAME_COLUMNS)}
            FROM games, generate_series(1, :n) AS g WHERE games.id = :tid"""),
        # every other seat on the digest, its next morning in its zone (none due now)
        ("seats", f"""INSERT INTO seats (game_id, email, notify, timezone, next_digest_at,
                {_quoted(SEAT_COLUMNS)})
            SELECT g.id, 'p' || g.id || '-' || s."index" || '@example.org',
                CASE WHEN (g.id * 3 + s."index") % 2 = 0 THEN 'digest' ELSE s.notify END,
                z.zone,
                CASE WHEN (g.id * 3 + s."index") % 2 = 0 THEN
                    (date_trunc('day', CAST(:now AS timestamptz) AT TIME ZONE z.zone)
                     + interval '1 day' + s.quiet_end * interval '1 minute') AT TIME ZONE z.zone
                END,
                {_quoted(['s.' + c for c in SEAT_COLUMNS]).replace('"s.', 's."')}
            FROM games g JOIN seats s ON s.game_id = :tid
            CROSS JOIN LATERAL (SELECT ({zones})[1 + (g.id + s."index") % {len(ZONES)}]
                                AS zone) z
            WHERE g.id <> :tid"""),
        # each game's open rows, spread over the next two days (none due now)
        ("deadlines", """INSERT INTO deadlines (game_id, seat, kind, turn_key, deadline_at,
                due_at, attempts, created_at)
            SELECT g.id, d.seat, d.kind, d.turn_key, d.deadline_at + o.shift,
                d.due_at + o.shift, 0, d.created_at
            FROM games g JOIN deadlines d ON d.game_id = :tid AND d.done_at IS NULL
            CROSS JOIN LATERAL (SELECT (g.id % 1440) * interval '1 minute' AS shift) o
            WHERE g.id <> :tid"""),
        # three sent mails a game, their bodies pruned (as after the retention period)
        ("outbox (sent)", """INSERT INTO outbox (game_id, seat, kind, to_addr, subject,
                text_body, headers, status, attempts, next_attempt_at, created_at, sent_at)
            SELECT g.id, k, 'your_turn', 'p' || g.id || '-' || k || '@example.org', 'Your turn',
                '', json_build_object('Message-ID', '<s' || g.id || '.' || k || '@pbem.bench>'),
                'sent', 1, CAST(:now AS timestamptz) - interval '40 days',
                CAST(:now AS timestamptz) - interval '40 days',
                CAST(:now AS timestamptz) - interval '40 days'
            FROM games g CROSS JOIN generate_series(0, 2) AS k"""),
    ]
    for name, sql in steps:
        began = time.perf_counter()
        result = db.session.execute(sa.text(sql), params)
        db.session.commit()
        print(f"  {name}: {result.rowcount:,} rows in {time.perf_counter() - began:.1f} s",
              flush=True)
    db.session.execute(sa.text("ANALYZE"))
    db.session.commit()
    return int(tid)


def percentiles(times_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(times_ms)
    return (statistics.median(ordered),
            ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))])


def idle_ticks(app: Flask, ticks: int) -> list[float]:
    """Milliseconds of ``ticks`` ticks with nothing due (after one that runs the repairs)."""
    scheduler.tick(app)
    times = []
    for _ in range(ticks):
        began = time.perf_counter()
        report = scheduler.tick(app)
        times.append((time.perf_counter() - began) * 1000)
        assert not report.failed and not report.busy, report
    return times


def repair_passes(app: Flask, repeats: int = 5) -> tuple[float, float]:
    """Median milliseconds of the digest's and the deadlines' repair passes (every 10 min)."""
    digest_ms, deadline_ms = [], []
    with app.app_context():
        for _ in range(repeats):
            began = time.perf_counter()
            digest_step.repair(NOW)
            digest_ms.append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            timeouts.repair_missing(NOW)
            deadline_ms.append((time.perf_counter() - began) * 1000)
    return statistics.median(digest_ms), statistics.median(deadline_ms)


class Link:
    """What a seat link is made of (``tokens.make_seat_link``), without loading the rows."""

    def __init__(self, public_id: str, index: int) -> None:
        self.public_id, self.index, self.link_counter = public_id, index, 0


def requests(app: Flask, count: int, tid: int) -> tuple[list[float], list[float]]:
    """Milliseconds of ``count`` moves and ``count`` turn pages, each on another game."""
    client = app.test_client()
    with app.app_context():
        ids = db.session.scalars(sa.select(Game.public_id).where(Game.id != tid)
                                 .order_by(sa.func.random()).limit(2 * count)).all()
        db.session.rollback()
    moves, pages = [], []
    for public_id in ids[:count]:
        with app.app_context():
            links = [tokens.make_seat_link(Link(public_id, i), Link(public_id, i))
                     for i in range(3)]
        seat = client.get(f"/api/games/{public_id}/seat",
                          headers={"Authorization": f"Bearer {links[0]}"}).get_json()
        assert "awaiting" in seat, seat
        awaiting = seat["awaiting"]
        if awaiting != 0:
            seat = client.get(f"/api/games/{public_id}/seat",
                              headers={"Authorization": f"Bearer {links[awaiting]}"}).get_json()
        body = {"version": seat["version"], "notation": seat["legal"][0]["notation"]}
        began = time.perf_counter()
        answer = client.post(f"/api/games/{public_id}/actions", json=body,
                             headers={"Authorization": f"Bearer {links[awaiting]}"})
        moves.append((time.perf_counter() - began) * 1000)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    for public_id in ids[count:]:
        with app.app_context():
            link = tokens.make_seat_link(Link(public_id, 0), Link(public_id, 0))
        began = time.perf_counter()
        page = client.get(f"/play/{link}")
        pages.append((time.perf_counter() - began) * 1000)
        assert page.status_code == 200, page.status_code
    return moves, pages


def make_due(app: Flask, due: int, mails: int, tid: int) -> tuple[list[int], int]:
    """Make ``due`` reminders due and queue ``mails`` mails; returns the reminders' ids and the
    last outbox id before the queue (what ``restore`` resets to)."""
    with app.app_context():
        ids = list(db.session.scalars(
            sa.select(sa.func.min(Deadline.id)).where(Deadline.kind == "reminder",
                                                      Deadline.done_at.is_(None),
                                                      Deadline.game_id != tid)
            .group_by(Deadline.game_id).order_by(sa.func.min(Deadline.id)).limit(due)))
        last = db.session.scalar(sa.select(sa.func.max(Outbox.id))) or 0
        db.session.commit()
    restore(app, ids, last, mails)
    return ids, last


def restore(app: Flask, ids: list[int], last: int, mails: int) -> None:
    """The due work again: the reminders open and due a minute ago, the queue as built."""
    with app.app_context():
        db.session.execute(sa.delete(Outbox).where(Outbox.id > last))
        db.session.execute(sa.update(Deadline).where(Deadline.id.in_(ids)).values(
            done_at=None, attempts=0, lease_until=None, due_at=NOW - timedelta(minutes=1)))
        db.session.execute(sa.text("""INSERT INTO outbox (game_id, seat, kind, to_addr, subject,
                text_body, html_body, headers, status, attempts, next_attempt_at, created_at)
            SELECT 2 + g % 1000, 0, 'your_turn', 'q' || g || '@example.org',
                'Your turn in Scale ' || g, repeat('A line of the turn mail. ', 60),
                '<p>' || repeat('A line of the turn mail. ', 120) || '</p>',
                json_build_object('Message-ID', '<q' || g || '@pbem.bench>'), 'pending', 0,
                CAST(:now AS timestamptz) - interval '1 minute',
                CAST(:now AS timestamptz) - interval '1 minute'
            FROM generate_series(1, :n) AS g"""), {"n": mails, "now": NOW})
        db.session.commit()
        db.session.execute(sa.text("ANALYZE deadlines; ANALYZE outbox"))
        db.session.commit()


def _left(app: Flask) -> int:
    with app.app_context():
        due = db.session.scalar(sa.select(sa.func.count()).select_from(
            deadline_step.due_rows_query(NOW, 1).subquery()))
        queued = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox).where(
            Outbox.status.in_(("pending", "sending"))))
        db.session.commit()
    return int(due or 0) + int(queued or 0)


def _drainer(url: str, mode: str, start_at: float, out: Any, smtp_port: int | None) -> None:
    app = make_app(url, smtp_port)
    time.sleep(max(0.0, start_at - time.time()))
    busy = ticks = 0
    while True:
        if mode == "tick":
            report = scheduler.tick(app)
            ticks += 1
            if report.busy:
                busy += 1
                time.sleep(0.05)
        else:
            deadline_step.sweep(app, NOW)
            delivery.deliver_pending(app)  # the wall clock, as mail_step: the reminders mail now
            ticks += 1
        if _left(app) == 0:
            break
    out.put((time.time(), ticks, busy))


def drain(url: str, processes: int, mode: str,
          smtp_port: int | None = None) -> tuple[float, int, int]:
    """Seconds for ``processes`` processes to work off the due work; ticks and busy ticks."""
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start_at = time.time() + 5.0  # after every process has imported and built its app
    workers = [ctx.Process(target=_drainer, args=(url, mode, start_at, out, smtp_port))
               for _ in range(processes)]
    for worker in workers:
        worker.start()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    return (max(r[0] for r in results) - start_at, sum(r[1] for r in results),
            sum(r[2] for r in results))


def explain(app: Flask, statement: Any) -> str:
    with app.app_context():
        compiled = statement.compile(dialect=db.engine.dialect)
        with db.engine.connect() as conn:
            rows = conn.exec_driver_sql("EXPLAIN " + str(compiled), compiled.params).all()
        db.session.rollback()
    return "\n".join("    " + r[0] for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--ticks", type=int, default=50)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--due", type=int, default=10_000)
    parser.add_argument("--mails", type=int, default=30_000)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--mode", choices=("tick", "steps"), nargs="+", default=["tick"])
    parser.add_argument("--smtp-delay", type=float, default=0.0,
                        help="send over SMTP to a loopback server taking this long a message")
    parser.add_argument("--drain-only", action="store_true",
                        help="skip the idle tick, the repair passes and the requests")
    args = parser.parse_args()
    with ExitStack() as stack:
        smtp = None
        if args.smtp_delay > 0:
            smtp = stack.enter_context(slow_smtp(args.smtp_delay))
        run(args, smtp)


def measure(app: Flask, args: argparse.Namespace, tid: int) -> None:
    """The plans, the idle tick, the repair passes, a move and a page."""
    print("\nplans (EXPLAIN):")
    digest_query = (sa.select(Seat.id, Seat.game_id, Game.status)
                    .join(Game, Seat.game_id == Game.id).where(Seat.next_digest_at <= NOW)
                    .order_by(Seat.next_digest_at).limit(digest_step.BATCH))
    claim_query = (sa.select(Outbox.id).where(delivery._due(NOW)).order_by(Outbox.id)
                   .limit(delivery.BATCH).with_for_update(skip_locked=True))
    for name, statement in (("digest: the due seats", digest_query),
                            ("deadlines: the due rows", deadline_step.due_rows_query(NOW)),
                            ("mail: the claim", claim_query)):
        print(f"  {name}:\n{explain(app, statement)}")

    ticks = idle_ticks(app, args.ticks)
    p50, p99 = percentiles(ticks)
    verdict = "met" if p99 <= IDLE_GOAL_MS else "NOT met"
    print(f"\nidle tick ({args.ticks} ticks, nothing due): p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"(goal <= {IDLE_GOAL_MS:.0f} ms: {verdict})", flush=True)
    digest_ms, deadline_ms = repair_passes(app)
    print(f"repair passes (every 10 minutes): digest {digest_ms:.1f} ms, deadlines "
          f"{deadline_ms:.1f} ms (median of 5)", flush=True)

    moves, pages = requests(app, args.requests, tid)
    for name, times in (("move (POST /api/games/<id>/actions)", moves),
                        ("turn page (GET /play/<link>)", pages)):
        p50, p99 = percentiles(times)
        print(f"{name}, {len(times)} games: p50 {p50:.1f} ms, p99 {p99:.1f} ms", flush=True)


def run(args: argparse.Namespace, smtp: tuple[int, SlowRecorder] | None) -> None:
    url = os.environ.get("PBEM_BENCH_DATABASE_URL") or os.environ.get("PBEM_TEST_DATABASE_URL")
    if not url:
        sys.exit("set PBEM_BENCH_DATABASE_URL to a PostgreSQL database (a scratch schema is used)")
    url = fresh_schema_url(url, SCHEMA)
    app = make_app(url)
    random.seed(25)
    with app.app_context():
        flask_migrate.upgrade()
        began = time.perf_counter()
        print(f"building {args.games:,} games at {NOW:%Y-%m-%d %H:%M} UTC", flush=True)
        tid = build(args.games)
        counts = {name: db.session.scalar(sa.text(sql)) for name, sql in (
            ("active games", "SELECT count(*) FROM games WHERE status = 'active'"),
            ("seats", "SELECT count(*) FROM seats"),
            ("digest seats", "SELECT count(*) FROM seats WHERE notify = 'digest'"),
            ("open deadlines", "SELECT count(*) FROM deadlines WHERE done_at IS NULL"),
            ("outbox rows", "SELECT count(*) FROM outbox"))}
        db.session.commit()
        print(f"built in {time.perf_counter() - began:.0f} s: "
              + ", ".join(f"{v:,} {k}" for k, v in counts.items()), flush=True)

    if not args.drain_only:
        measure(app, args, tid)

    ids, last = make_due(app, args.due, args.mails, tid)
    print(f"\ndrain: {len(ids):,} due reminders + {args.mails:,} queued mails "
          f"(+ the {len(ids):,} reminder mails they write)", flush=True)
    for mode in args.mode:
        for processes in args.processes:
            if mode == "steps" and processes == 1 and "tick" in args.mode:
                continue  # one process takes the tick lock at every tick: the same as "tick"
            seconds, ticks_run, busy = drain(url, processes, mode,
                                             smtp[0] if smtp else None)
            left = _left(app)
            received = ""
            if smtp is not None:
                recorder = smtp[1]
                with recorder.lock:
                    received = (f", {recorder.received:,} mails received by the SMTP server, "
                                f"{recorder.duplicated} twice")
                    recorder.copies.clear()
            print(f"  {mode}, {processes} process(es): {seconds:.1f} s "
                  f"({ticks_run} {'ticks' if mode == 'tick' else 'rounds'}, {busy} busy), "
                  f"left {left}{received}", flush=True)
            restore(app, ids, last, args.mails)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
