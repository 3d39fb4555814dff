"""Benchmark: find and sweep the due deadlines among 100,000 games on PostgreSQL.

    PBEM_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/sweep.py [--games 100000] [--due 0.01]

It builds a scratch schema (``pbem_bench``, dropped and recreated), migrates it, creates one
real game through the service and clones it with COPY into ``--games`` games (3 seats each),
each with its open deadline rows (2 reminders + 1 timeout) and one reminder already done; a
fraction ``--due`` of the games have their first reminder due. It then times the "find the due
rows" query (target < 100 ms), prints its EXPLAIN (the ix_deadlines_due index range scan) and
times one full sweep of the due rows (each enqueues its reminder mail).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import flask_migrate
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.engine import GameState, awaited  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.models import Deadline, Game, Outbox, Seat  # noqa: E402
from pbem.scheduler.deadlines import due_rows_query, sweep  # noqa: E402
from pbem.services.deadlines import turn_key  # noqa: E402
from pbem.services.games import SeatSpec, create_game  # noqa: E402

SCHEMA = "pbem_bench"
TARGET_MS = 100.0
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
GAME_COLUMNS = [c.name for c in Game.__table__.columns if c.name != "id"]
SEAT_COLUMNS = [c.name for c in Seat.__table__.columns if c.name not in ("id", "game_id")]


def _text(value: object) -> object:
    if isinstance(value, dict | list):
        return json.dumps(value)
    return value


def build(games: int, due_fraction: float) -> int:
    """Clone one real game ``games`` times with COPY; returns how many reminders are due."""
    template = create_game(
        name="Bench", host_email="host@example.org", fixed_order=True, seed=1, options={},
        seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Ben", "ben@example.org"),
               SeatSpec("Cy", "cy@example.org")],
    )
    state = GameState.from_json(template.state)
    waiting = awaited(state)  # the seat the game waits for (the draft's chooser with Factions)
    assert waiting is not None
    key = turn_key(state, template.seat(waiting))
    row = {c: _text(getattr(template, c)) for c in GAME_COLUMNS}
    seats = [{c: _text(getattr(s, c)) for c in SEAT_COLUMNS} for s in template.seats]
    db.session.execute(sa.delete(Deadline))
    db.session.execute(sa.delete(Outbox))
    db.session.commit()
    first_id = template.id + 1
    rng = random.Random(8)
    due_games = set(rng.sample(range(games - 1), int((games - 1) * due_fraction)))
    raw = db.engine.raw_connection()
    try:
        cur = raw.cursor()
        with cur.copy(f"COPY games (id, {', '.join(GAME_COLUMNS)}) FROM STDIN") as copy:
            for n in range(games - 1):
                copy.write_row([first_id + n] + [
                    f"bench{n:016d}" if c == "public_id" else row[c] for c in GAME_COLUMNS])
        cur.execute("SELECT setval('games_id_seq', %s)", (first_id + games,))
        seat_columns = ", ".join(f'"{c}"' for c in SEAT_COLUMNS)  # "index" is a keyword
        with cur.copy(f"COPY seats (game_id, {seat_columns}) FROM STDIN") as copy:
            for n in range(games - 1):
                for seat in seats:
                    copy.write_row([first_id + n] + [seat[c] for c in SEAT_COLUMNS])
        columns = ("game_id, seat, kind, turn_key, deadline_at, due_at, done_at, attempts, "
                   "created_at")
        with cur.copy(f"COPY deadlines ({columns}) FROM STDIN") as copy:
            for n in range(games - 1):
                game_id = first_id + n
                start = NOW - timedelta(hours=30 if n in due_games else rng.uniform(0, 23))
                deadline = start + timedelta(hours=48)
                old = start - timedelta(hours=40)
                copy.write_row([game_id, waiting, "reminder", key, deadline, old, old, 1,
                                start])  # an old, done one
                copy.write_row([game_id, waiting, "reminder", key, deadline,
                                start + timedelta(hours=24), None, 0, start])
                copy.write_row([game_id, waiting, "reminder", key, deadline,
                                start + timedelta(hours=38.4), None, 0, start])
                copy.write_row([game_id, waiting, "timeout", key, deadline,
                                start + timedelta(hours=60), None, 0, start])
        raw.commit()
    finally:
        raw.close()
    db.session.execute(sa.text("ANALYZE games; ANALYZE seats; ANALYZE deadlines"))
    db.session.commit()
    return len(due_games)


def time_find(repeats: int = 20) -> tuple[float, float, int]:
    """Median and best milliseconds of the find-the-due-rows query, and the rows it found."""
    query = due_rows_query(NOW)
    found = 0
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        found = len(db.session.scalars(query).all())
        times.append((time.perf_counter() - began) * 1000)
        db.session.rollback()
    return statistics.median(times), min(times), found


def explain() -> str:
    compiled = due_rows_query(NOW).compile(dialect=db.engine.dialect)
    with db.engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "EXPLAIN (ANALYZE, BUFFERS) " + str(compiled), compiled.params).all()
    return "\n".join(r[0] for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=float, default=0.01)
    args = parser.parse_args()
    url = os.environ.get("PBEM_BENCH_DATABASE_URL") or os.environ.get("PBEM_TEST_DATABASE_URL")
    if not url:
        sys.exit("set PBEM_BENCH_DATABASE_URL to a PostgreSQL database (a scratch schema is used)")
    instance = tempfile.mkdtemp(prefix="pbem-bench-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": fresh_schema_url(url, SCHEMA),
                      "SECRET_KEY": "bench",
                      "SERVER_NAME": "pbem.bench", "PBEM_CLOCK": lambda: NOW},
                     instance_path=instance)
    with app.app_context():
        flask_migrate.upgrade()
        began = time.perf_counter()
        due = build(args.games, args.due)
        total = db.session.scalar(sa.select(sa.func.count()).select_from(Deadline))
        print(f"built {args.games:,} games, {total:,} deadline rows, {due:,} reminders due "
              f"({time.perf_counter() - began:.1f} s)")
        median, best, found = time_find()
        verdict = "OK" if median < TARGET_MS else "TOO SLOW"
        print(f"find the due rows: median {median:.2f} ms, best {best:.2f} ms "
              f"({found} ids, batch limit) — target < {TARGET_MS:.0f} ms: {verdict}")
        plan = explain()
        print("EXPLAIN:\n" + plan)
        print("uses ix_deadlines_due:", "ix_deadlines_due" in plan)
    began = time.perf_counter()
    handled = 0
    while True:
        report = sweep(app, NOW)
        handled += report.reminders + report.turns + report.skipped
        if report.reminders + report.turns + report.skipped == 0:
            break
    elapsed = time.perf_counter() - began
    print(f"full sweep of the due rows: {handled:,} rows in {elapsed:.2f} s "
          f"({elapsed / max(handled, 1) * 1000:.1f} ms a row, each composing its mail)")
    with app.app_context():
        mails = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox))
        print(f"outbox rows written: {mails:,}")
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
