"""A whole game's mail: every kind renders, and no mail leaks another seat's secrets."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.engine import GameState, awaited
from pbem.engine.bots import greedy_bot, redacted
from pbem.extensions import db
from pbem.mail.outbound import compose, notify
from pbem.models.game import Game
from pbem.models.outbox import Outbox
from pbem.services import play
from tests.conftest import MakeApp
from tests.mail.conftest import new_game

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

PLAYERS = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org"),
           ("Robot", None)]


def play_to_the_end(game: Game, limit: int = 4000) -> None:
    for step in range(limit):
        db.session.refresh(game)
        if game.status != "active":
            return
        state = GameState.from_json(game.state)
        seat = awaited(state)
        assert seat is not None
        action = greedy_bot(redacted(state, seat), seat, [step, 0])
        play.play(game.id, seat, game.version, action)
    raise AssertionError("the game did not end")


def payload(token: str) -> str:
    """The signed data part of an itsdangerous token (its timestamp varies by the second)."""
    return token.split(".")[0]


def test_no_mail_of_a_full_game_shows_another_seats_link_or_address(
    app: Flask, make_app: MakeApp
) -> None:
    mail_app = make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test",
                        MAIL_MESSAGE_ID_DOMAIN="pbem.test")
    with mail_app.app_context():
        game = new_game(PLAYERS, seed=11)
        play_to_the_end(game)
        assert game.status == "finished"
        seats = {s.index: s for s in game.seats}
        secrets = {
            i: {payload(tokens.make_seat_link(game, s)),
                payload(tokens.make_unsubscribe_token(game.public_id, i, s.link_counter))}
            | ({s.email} if s.email else set())
            for i, s in seats.items()
        }
        rows = db.session.scalars(sa.select(Outbox).order_by(Outbox.id)).all()
        kinds = {r.kind for r in rows}
        assert {"invitation", "your_turn", "others_turn", "game_over"} <= kinds
        for row in rows:
            blob = " ".join([row.to_addr, row.subject, row.text_body, row.html_body or "",
                             str(row.headers)])
            for index, secret_set in secrets.items():
                if index == row.seat:
                    continue
                for secret in secret_set:
                    if secret == row.to_addr:
                        continue
                    assert secret not in blob.replace(row.to_addr, ""), (
                        f"outbox #{row.id} ({row.kind} to seat {row.seat}) shows seat "
                        f"{index}'s {secret!r}")
        host_over = [r for r in rows if r.kind == "game_over" and r.seat is None]
        assert [r.to_addr for r in host_over] == ["host@example.org"]
        over = next(r for r in rows if r.kind == "game_over" and r.seat == 0)
        assert "VP =" in over.text_body and "/replay" in over.text_body


def test_every_mail_kind_renders_text_and_html(app: Flask, make_app: MakeApp) -> None:
    mail_app = make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test")
    with mail_app.app_context():
        game = new_game()
        seat = game.seat(1)
        due = datetime.now(UTC) + timedelta(hours=12)
        mails = [
            compose.invitation(game, seat), compose.your_turn(game, seat),
            compose.decision_needed(game, seat), compose.reminder(game, seat, due),
            compose.others_turn(game, seat, 0, [{"kind": "docked", "seat": 0,
                                                 "facility": "shipyard", "values": [4, 4],
                                                 "relic": None}]),
            compose.game_over(game, seat), compose.game_over(game, None),
            compose.magic_link("https://pbem.test/me/abc"),
            compose.email_failing(game, seat, "550 mailbox unavailable"),
        ]
        for mail in mails:
            assert mail.text.strip() and mail.html and "<html" in mail.html, mail.kind
            assert "ben@example.org" not in mail.text + mail.html, mail.kind
        assert "Ana docked 4 4 at the Shipyard" in mails[4].text
        notify.reminder(game, 1, due)
        notify.magic_link("ben@example.org", "https://pbem.test/me/abc")
        db.session.commit()


def test_deadline_is_shown_in_the_players_time_zone(app: Flask, make_app: MakeApp) -> None:
    mail_app = make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test")
    with mail_app.app_context():
        game = new_game()
        seat = game.seat(0)
        seat.timezone = "Europe/Lisbon"
        when = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
        mail = compose.reminder(game, seat, when)
        assert "Thursday 3 December, 18:00 WET" in mail.text
        seat.timezone = "America/New_York"
        assert "13:00 EST" in compose.reminder(game, seat, when).text
        db.session.rollback()
