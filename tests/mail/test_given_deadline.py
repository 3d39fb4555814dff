"""Mail states the deadline the service gives it, which the service has written first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from flask import Flask

from pbem.clock import as_utc
from pbem.extensions import db
from pbem.mail.outbound import compose
from pbem.models.deadline import TIMEOUT, Deadline
from pbem.models.outbox import Outbox
from tests.conftest import MakeApp
from tests.mail.conftest import new_game

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_the_turn_mail_states_the_deadline_it_is_given_not_the_table(
    app: Flask, make_app: MakeApp
) -> None:
    with make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test",
                  PBEM_CLOCK=lambda: T0).app_context():
        game = new_game()
        given = T0 + timedelta(hours=5)
        mail = compose.your_turn(game, game.seat(0), given)
        assert "Tuesday 1 December, 14:00 UTC, 5 hours from now" in mail.text
        assert "none while the game is paused" in compose.your_turn(game, game.seat(0)).text
        db.session.rollback()


def test_the_first_turn_mail_states_the_written_deadline(app: Flask, make_app: MakeApp) -> None:
    with make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test",
                  PBEM_CLOCK=lambda: T0).app_context():
        game = new_game()
        row = db.session.scalars(sa.select(Deadline).where(
            Deadline.game_id == game.id, Deadline.kind == TIMEOUT)).one()
        assert (row.seat, as_utc(row.deadline_at)) == (0, T0 + timedelta(hours=48))
        mail = db.session.scalars(sa.select(Outbox).where(
            Outbox.game_id == game.id, Outbox.kind == "your_turn")).one()
        assert mail.seat == 0
        assert "Thursday 3 December, 09:00 UTC, 48 hours from now" in mail.text_body
