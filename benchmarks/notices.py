"""Benchmark: what notices in chat apps (issue 27) add to a hand-over, in CPU time.

    .venv/bin/python benchmarks/notices.py [--turns 60] [--rounds 5]
    PBEM_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/notices.py

Three games of 3 seats are played turn by turn through ``play.play`` (greedy moves), in
interleaved rounds, the CPU time (``time.process_time``) of the submissions that hand the
turn over counted per hand-over:

- ``hooks off``: the chat hooks replaced by no-ops (the hand-over as before issue 27);
- ``no channel``: the game has none (what every game now pays: one indexed query);
- ``3 channels``: two seats with a channel and a table channel (rows written, not posted).

No target was set; the figures go to benchmarks/RESULTS.md ("Notices in chat apps").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.engine import GameState, awaited  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.outbound.chat import notices  # noqa: E402
from pbem.models import Game, NoticeChannel  # noqa: E402
from pbem.services import (
    play,  # noqa: E402
    turns,  # noqa: E402
)
from pbem.services.games import SeatSpec, create_game  # noqa: E402

SCHEMA = "pbem_bench_notices"
HOOKS = ("turn_started", "reminder", "game_over")


def _database(tmp: Path) -> str:
    url = os.environ.get("PBEM_BENCH_DATABASE_URL")  # a private schema, dropped at the end
    if not url:
        return f"sqlite:///{tmp / 'bench.sqlite3'}"
    return fresh_schema_url(url, SCHEMA)


def _game(seed: int, channels: bool) -> int:
    game = create_game(name=f"Bench {seed}", host_email="host@example.org", seed=seed,
                       seats=[SeatSpec(n, f"{n.lower()}@example.org") for n in ("A", "B", "C")],
                       options={"factions": False}, fixed_order=True)
    if channels:
        for seat in (1, 2, None):
            db.session.add(NoticeChannel(
                game_id=game.id, seat=seat, service="discord", position=1, failures=0,
                url="https://discord.com/api/webhooks/1/x", shown="Discord · bench"))
    db.session.commit()
    return game.id


def _hand_over_cpu(game_id: int) -> float:
    """Play the awaited seat's turn; the CPU time of the submission that hands it over."""
    while True:
        game = db.session.get_one(Game, game_id)
        state = GameState.from_json(game.state)
        seat = awaited(state)
        if seat is None:
            return 0.0
        action = turns.bot_action(game, state, seat)
        started = time.process_time()
        play.play(game_id, seat, game.version, action)
        spent = time.process_time() - started
        db.session.expire_all()
        now = awaited(GameState.from_json(db.session.get_one(Game, game_id).state))
        if now != seat:
            return spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "MAIL_BACKEND": "dev",
                          "SQLALCHEMY_DATABASE_URI": _database(Path(tmp)),
                          "SCHEDULER_MODE": "off"}, instance_path=tmp)
        with app.app_context():
            flask_migrate.upgrade()
            real: dict[str, Callable[..., Any]] = {h: getattr(notices, h) for h in HOOKS}
            cases = {"hooks off": (_game(1, False), True),
                     "no channel": (_game(1, False), False),
                     "3 channels": (_game(1, True), False)}
            spent: dict[str, list[float]] = {name: [] for name in cases}
            per_round = max(1, args.turns // args.rounds)
            for _ in range(args.rounds):
                for name, (game_id, off) in cases.items():
                    for hook in HOOKS:
                        setattr(notices, hook, (lambda *a, **k: None) if off else real[hook])
                    spent[name] += [_hand_over_cpu(game_id) for _ in range(per_round)]
            db.session.remove()
            db.engine.dispose()
    if os.environ.get("PBEM_BENCH_DATABASE_URL"):  # the scratch schema goes
        engine = sa.create_engine(os.environ["PBEM_BENCH_DATABASE_URL"])
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        engine.dispose()
    print(f"database: {'PostgreSQL' if os.environ.get('PBEM_BENCH_DATABASE_URL') else 'SQLite'}"
          f", {args.rounds} interleaved rounds, {per_round} hand-overs each per case")
    base = statistics.median(spent["hooks off"])
    for name, values in spent.items():
        median = statistics.median(values)
        print(f"{name:>11}: median {median * 1000:6.2f} ms CPU per hand-over "
              f"({(median - base) * 1000:+.2f} ms against hooks off), n={len(values)}")


if __name__ == "__main__":
    main()
