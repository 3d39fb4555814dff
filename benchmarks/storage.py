"""Storage benchmark (issue #17): bytes per finished game at 2-5 seats, before and after the
mail retention prunes the sent bodies, against the target of at most 200 KB a game.

    python benchmarks/storage.py [--games 2] [--database-url URL]

Plays whole games through the services (greedy bots choosing every human seat's moves, so
every mail a real game sends is queued), marks their mail sent long ago, and measures:
SQLite, the growth of a real database file (VACUUMed, so pages freed by pruning count as
freed); PostgreSQL (``--database-url`` or ``PBEM_TEST_DATABASE_URL``), the
``pg_total_relation_size`` of the game tables after ``VACUUM FULL``, in a private schema
(``pbem_bench_storage``, created empty and dropped afterwards). A breakdown shows where the
bytes go (state JSON, turn start and steps, log, mail bodies and headers, as stored text).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flask_migrate  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402
from pbem import clock, engine  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.engine import GameState  # noqa: E402
from pbem.engine.bots import greedy_bot, redacted  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.outbound import retention  # noqa: E402
from pbem.models import Game, Outbox  # noqa: E402
from pbem.models.outbox import SENT  # noqa: E402
from pbem.services.games import SeatSpec, create_game  # noqa: E402
from pbem.services.play import play as play_step  # noqa: E402

TARGET_KB = 200.0
SCHEMA = "pbem_bench_storage"
TABLES = ("games", "seats", "action_log", "outbox", "deadlines")
PARTS = {  # where the bytes go, as stored text
    "state": "SELECT SUM(LENGTH(CAST(state AS TEXT))) FROM games",
    "turn start+steps": "SELECT SUM(LENGTH(CAST(turn_start_state AS TEXT)) "
                        "+ LENGTH(CAST(turn_steps AS TEXT))) FROM games",
    "log": "SELECT SUM(LENGTH(CAST(action AS TEXT)) + LENGTH(notation) "
           "+ LENGTH(CAST(events AS TEXT))) FROM action_log",
    "mail bodies": "SELECT SUM(LENGTH(text_body) + COALESCE(LENGTH(html_body), 0)) FROM outbox",
    "mail headers": "SELECT SUM(LENGTH(CAST(headers AS TEXT)) + LENGTH(subject)) FROM outbox",
}


def play(players: int, seed: int) -> None:
    game = create_game(
        name=f"Storage {players}", host_email="host@example.org",
        seats=[SeatSpec(f"P{i}", f"p{i}@example.org") for i in range(players)],
        options={"factions": True}, seed=seed, fixed_order=True)
    game_id = game.id
    for step in range(20000):
        game = db.session.get_one(Game, game_id)
        if game.status != "active":
            return
        state = GameState.from_json(game.state)
        seat = engine.awaited(state)
        assert seat is not None
        action = greedy_bot(redacted(state, seat), seat, [seed, step])
        play_step(game_id, seat, game.version, action)
        db.session.expire_all()
    raise RuntimeError("the game did not finish")


def mark_sent_long_ago() -> None:
    """As if the clock had delivered every mail more than the retention period ago."""
    db.session.execute(sa.update(Outbox).values(
        status=SENT, sent_at=clock.now() - timedelta(days=retention.retention_days() + 1)))
    db.session.commit()


def mark_finished_long_ago() -> None:
    """As if the games had ended more than the retention period ago."""
    db.session.execute(sa.update(Game).values(
        finished_at=clock.now() - timedelta(days=retention.retention_days() + 1)))
    db.session.commit()


def measured_bytes() -> int:
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for table in TABLES:
                conn.execute(sa.text(f"VACUUM FULL {table}"))
            return sum(int(conn.execute(sa.text(
                f"SELECT pg_total_relation_size('{table}')")).scalar_one()) for table in TABLES)
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(sa.text("VACUUM"))
        return int(conn.execute(sa.text("PRAGMA page_count")).scalar_one()) * int(
            conn.execute(sa.text("PRAGMA page_size")).scalar_one())


def parts() -> dict[str, int]:
    return {name: int(db.session.execute(sa.text(sql)).scalar_one() or 0)
            for name, sql in PARTS.items()}


def measure(url: str, players: int, games: int) -> dict[str, Any]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                      "MAIL_BACKEND": "console", "SERVER_NAME": "pbem.example.org"},
                     instance_path=tempfile.mkdtemp())
    with app.app_context():
        flask_migrate.upgrade()
        empty = measured_bytes()
        for number in range(games):
            play(players, 1000 * players + number)
        mails = int(db.session.execute(sa.select(sa.func.count()).select_from(Outbox))
                    .scalar_one())
        mark_sent_long_ago()
        before, before_parts = measured_bytes(), parts()
        retention.prune_sent()
        after, after_parts = measured_bytes(), parts()
        mark_finished_long_ago()
        retention.drop_finished()
        dropped = measured_bytes()
        db.session.remove()
        db.engine.dispose()
    return {"players": players, "mails": mails / games,
            "before": (before - empty) / games / 1024, "after": (after - empty) / games / 1024,
            "dropped": (dropped - empty) / games / 1024,
            "parts_before": {k: v / games / 1024 for k, v in before_parts.items()},
            "parts_after": {k: v / games / 1024 for k, v in after_parts.items()}}


def drop_schema(url: str) -> None:
    engine_ = sa.create_engine(url)
    with engine_.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
    engine_.dispose()


def report(kind: str, row: dict[str, Any]) -> None:
    verdict = "met" if row["dropped"] <= TARGET_KB else "MISSED"
    print(f"| {kind} | {row['players']} | {row['mails']:.0f} | {row['before']:.0f} KB | "
          f"{row['after']:.0f} KB | {row['dropped']:.0f} KB | ≤ {TARGET_KB:.0f} KB {verdict} |",
          flush=True)
    where = ", ".join(f"{k} {row['parts_before'][k]:.0f}→{row['parts_after'][k]:.0f}"
                      for k in PARTS)
    print(f"|   | where (KB of text, before→after pruning) | {where} | | | | |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per seat count")
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--database-url", default=os.environ.get("PBEM_TEST_DATABASE_URL"))
    args = parser.parse_args()
    print("| database | seats | mails/game | KB/game, all kept | bodies pruned "
          "| game over 30 days: sent rows dropped | target |", flush=True)
    print("|---|---|---|---|---|---|---|", flush=True)
    for players in args.seats:
        directory = Path(tempfile.mkdtemp())
        report("SQLite", measure(f"sqlite:///{directory / 'storage.sqlite3'}", players,
                                 args.games))
        if args.database_url:
            try:
                report("PostgreSQL", measure(fresh_schema_url(args.database_url, SCHEMA), players,
                                             args.games))
            finally:
                drop_schema(args.database_url)


if __name__ == "__main__":
    main()
