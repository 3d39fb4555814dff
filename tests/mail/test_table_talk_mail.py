"""Table talk in the mail (issue 27, point 1): every later mail to a player carries "At the
table since your last turn", newest last, at most ten lines, then the link to the table; a
seat can turn it off; a hidden message says so; a message is one line of what was typed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.engine import awaited
from pbem.extensions import db
from pbem.models import Outbox
from pbem.services import play, seat_settings, table_talk
from tests.server.conftest import bot_choice, fresh, start, state_of

HEADING = "At the table since your last turn"
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def mail_server(app: Flask) -> Iterator[Flask]:
    app.config.update(SERVER_NAME="pbem.test", PREFERRED_URL_SCHEME="https",
                      PBEM_CLOCK=lambda: NOON, TABLE_TALK_RATE_LIMIT=100)
    with app.app_context():
        yield app


def _finish_turn(game_id: int) -> int:
    """Play the awaited seat's whole turn as a script would; returns that seat."""
    seat = awaited(state_of(game_id))
    assert seat is not None
    while awaited(state_of(game_id)) == seat:
        game = fresh(game_id)
        play.play(game_id, seat, game.version, bot_choice(state_of(game_id), seat))
    return seat


def _latest(game_id: int, seat: int) -> Outbox:
    db.session.rollback()
    row = db.session.scalars(sa.select(Outbox).where(
        Outbox.game_id == game_id, Outbox.seat == seat).order_by(Outbox.id.desc())).first()
    assert row is not None
    return row


def _block(text: str) -> list[str]:
    """The block's lines, from its heading to its link."""
    lines = text.splitlines()
    start = lines.index(HEADING)
    end = next(i for i in range(start, len(lines))
               if lines[i].startswith("Read and answer at the table: "))
    return lines[start:end + 1]


def test_the_next_mail_of_each_other_seat_carries_the_message(mail_server: Flask) -> None:
    game = start(3)
    table_talk.post(game.id, 0, "gl hf <b>all</b> — see https://x.example")
    assert _finish_turn(game.id) == 0
    turn_mail, others_mail = _latest(game.id, 1), _latest(game.id, 2)
    assert (turn_mail.kind, others_mail.kind) == ("your_turn", "others_turn")
    for mail in (turn_mail, others_mail):
        block = _block(mail.text_body)
        assert block[1] == "  Ana (Tue 1 Dec 12:00): gl hf <b>all</b> — see https://x.example"
        assert block[-1].startswith("Read and answer at the table: https://pbem.test/play/")
        assert block[-1].endswith("#table-talk")
        text = mail.text_body
        assert text.index(HEADING) < text.index("\nYou get this because")  # before the footer
        assert "gl hf &lt;b&gt;all&lt;/b&gt;" in mail.html_body
        assert "<b>all</b>" not in mail.html_body
        assert 'href="https://x.example' not in mail.html_body
        assert "#table-talk" in mail.html_body


def test_newest_last_at_most_ten_lines_then_how_many_came_before(mail_server: Flask) -> None:
    game = start(2)
    for n in range(13):
        mail_server.config["PBEM_CLOCK"] = lambda n=n: NOON + timedelta(minutes=n)
        table_talk.post(game.id, n % 2, f"message {n}")
    _finish_turn(game.id)
    block = _block(_latest(game.id, 1).text_body)
    assert block[1] == "  (3 earlier messages: see the table)"
    assert [line.rsplit(": ", 1)[1] for line in block[2:-1]] == [
        f"message {n}" for n in range(3, 13)]


def test_only_what_was_said_since_the_readers_own_last_turn(mail_server: Flask) -> None:
    game = start(2)
    table_talk.post(game.id, 1, "before Ana's turn")
    _finish_turn(game.id)  # Ana's
    assert "before Ana's turn" in _block(_latest(game.id, 1).text_body)[1]
    _finish_turn(game.id)  # Ben's: he has read it
    table_talk.post(game.id, 0, "after Ben's turn")
    _finish_turn(game.id)  # Ana's again: Ben's next mail
    block = _block(_latest(game.id, 1).text_body)
    assert [line for line in block if "turn" in line and ":" in line] == [
        "  Ana (Tue 1 Dec 12:00): after Ben's turn"]


def test_times_are_in_the_readers_time_zone(mail_server: Flask) -> None:
    game = start(2)
    seat_settings.update_settings(game.id, 1, notify="every_turn", timezone="Asia/Tokyo",
                                  quiet_start=22, quiet_end=8)
    table_talk.post(game.id, 0, "konnichiwa")
    _finish_turn(game.id)
    assert _block(_latest(game.id, 1).text_body)[1] == "  Ana (Tue 1 Dec 21:00): konnichiwa"


def test_a_seat_that_turned_table_talk_off_gets_no_block(mail_server: Flask) -> None:
    game = start(3)
    seat_settings.update_settings(game.id, 2, notify="every_turn", timezone="UTC",
                                  quiet_start=22, quiet_end=8, table_talk_mail=False)
    table_talk.post(game.id, 0, "anyone?")
    _finish_turn(game.id)
    assert HEADING not in _latest(game.id, 2).text_body
    assert "anyone?" not in (_latest(game.id, 2).html_body or "")
    assert HEADING in _latest(game.id, 1).text_body
    assert fresh(game.id).seat(1).table_talk_mail is True  # on unless turned off


def test_a_hidden_message_is_shown_as_hidden_by_the_host(mail_server: Flask) -> None:
    game = start(2)
    rude = table_talk.post(game.id, 0, "something rude")
    table_talk.hide(game.id, rude.id)
    _finish_turn(game.id)
    mail = _latest(game.id, 1)
    assert _block(mail.text_body)[1] == "  Ana (Tue 1 Dec 12:00): [hidden by the host]"
    assert "something rude" not in mail.text_body + (mail.html_body or "")


def test_a_message_is_one_line_of_what_was_typed_and_cannot_pose_as_the_mail(
        mail_server: Flask) -> None:
    game = start(2)
    table_talk.post(game.id, 0, "nice\n\nTake your turn: https://evil.example\n" + "z" * 400)
    _finish_turn(game.id)
    text = _latest(game.id, 1).text_body
    assert not any(line.startswith("Take your turn: https://evil") for line in text.splitlines())
    line = _block(text)[1]
    assert line.startswith("  Ana (Tue 1 Dec 12:00): nice Take your turn: https://evil.example z")
    assert line.endswith("…") and len(line) < 330


def test_a_mail_with_no_talk_since_the_last_turn_has_no_block(mail_server: Flask) -> None:
    game = start(2)
    _finish_turn(game.id)
    mail = _latest(game.id, 1)
    assert HEADING not in mail.text_body and "table-talk" not in (mail.html_body or "")
