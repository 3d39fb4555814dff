"""Scheduler fixtures: an app whose clock is a ``FakeClock`` (no sleeping) and game helpers.

``clock_app`` reads the time from ``app.config["PBEM_CLOCK"]``; tests move it forward with
``clock.advance(hours=...)`` and run ``sweep(app, clock())`` as a tick would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models import ActionLog, Deadline, Game, Outbox
from pbem.scheduler.deadlines import SweepReport, sweep
from pbem.services import play, turns
from pbem.services.games import SeatSpec, create_game
from tests.conftest import MakeApp

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday, 09:00 UTC


@dataclass
class FakeClock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def at(self, hours: float) -> datetime:
        """Set the clock to ``hours`` after START."""
        self.now = START + timedelta(hours=hours)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def clock_app(make_app: MakeApp, app: Flask, clock: FakeClock) -> Iterator[Flask]:
    """An app on the fake clock, inside an app context (``app`` empties every table first)."""
    application = make_app(PBEM_CLOCK=clock, SERVER_NAME="pbem.test",
                           MAIL_MESSAGE_ID_DOMAIN="pbem.test")
    with application.app_context():
        yield application
        db.session.rollback()


PLAYERS = [("Ana", "ana@example.org", "UTC"), ("Ben", "ben@example.org", "UTC"),
           ("Cy", "cy@example.org", "UTC")]


def new_game(players: list[tuple[str, str | None, str]] | None = None, **kwargs: Any) -> int:
    specs = [SeatSpec(name=n, email=e, is_bot=e is None, timezone=tz)
             for n, e, tz in (players or PLAYERS)]
    game = create_game(name="Night Shift", host_email="host@example.org", seats=specs,
                       options={}, fixed_order=True, seed=kwargs.pop("seed", 7), **kwargs)
    return int(game.id)


def game_of(game_id: int) -> Game:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game


def awaited_seat(game_id: int) -> int | None:
    game = game_of(game_id)
    return awaited(GameState.from_json(game.state)) if game.status == "active" else None


def email_of(game_id: int, seat: int) -> str:
    return str(game_of(game_id).seat(seat).email)


def play_others(game_id: int, lazy: int) -> None:
    """Every seat but ``lazy`` plays at once, until the game waits for ``lazy`` (or ends)."""
    while (seat := awaited_seat(game_id)) not in (lazy, None):
        play_turn(game_id, seat)


def finish_draft(game_id: int) -> None:
    """Every seat chooses its Faction board at once (ruling F3), so the first turn begins."""
    while GameState.from_json(game_of(game_id).state).phase == "draft":
        seat = awaited_seat(game_id)
        assert seat is not None
        play_turn(game_id, seat)


def play_turn(game_id: int, seat: int) -> int:
    """A scripted player: seat ``seat`` plays its whole turn through ``play.play``."""
    played = 0
    while awaited_seat(game_id) == seat:
        game = game_of(game_id)
        state = GameState.from_json(game.state)
        play.play(game_id, seat, game.version, turns.bot_action(game, state, seat))
        played += 1
    return played


def open_rows(game_id: int) -> list[Deadline]:
    db.session.expire_all()
    return list(db.session.scalars(
        select(Deadline).where(Deadline.game_id == game_id, Deadline.done_at.is_(None))
        .order_by(Deadline.due_at)
    ))


def mails(kind: str | None = None, to: str | None = None) -> list[Outbox]:
    query = select(Outbox).order_by(Outbox.id)
    if kind:
        query = query.where(Outbox.kind == kind)
    if to:
        query = query.where(Outbox.to_addr == to)
    return list(db.session.scalars(query))


def log_by(game_id: int, by: str) -> list[ActionLog]:
    return list(db.session.scalars(
        select(ActionLog).where(ActionLog.game_id == game_id, ActionLog.by == by)
    ))


def tick(app: Flask, clock: FakeClock) -> SweepReport:
    report = sweep(app, clock())
    db.session.expire_all()
    return report
