"""Table talk by reply (issue 27, point 1): a reply's lines that begin with ``say `` are posted,
in order, beside the reply's moves and in its transaction; a reply may be talk only; a
message or a move refused applies nothing of the reply."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.engine import GameState
from pbem.extensions import db
from pbem.models import TableMessage

from .conftest import deliver, fresh, inbound_rows, mails_to, reply_to, start


def _said(game_id: int) -> list[tuple[int, str]]:
    db.session.rollback()
    return [(row.seat, row.text) for row in db.session.scalars(
        sa.select(TableMessage).where(TableMessage.game_id == game_id)
        .order_by(TableMessage.id))]


def _a_dock(game_id: int) -> str:
    state = GameState.from_json(fresh(game_id).state)
    return next(line for line in (engine.format_action(a) for a in
                                  engine.legal_actions(state, 0)) if line.startswith("dock"))


def test_say_lines_are_posted_in_order_beside_the_moves(server: Flask) -> None:
    game = start(2)
    dock = _a_dock(game.id)
    before = len(mails_to(game.id, 0))
    body = f"say Good luck, Bo!\n{dock}\nSay that one hurt <3\n"
    assert deliver(reply_to(game, 0, body)) == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]
    assert _said(game.id) == [(0, "Good luck, Bo!"), (0, "that one hurt <3")]
    [answer] = mails_to(game.id, 0)[before:]
    assert answer.kind == "reply_answer"
    block = answer.text_body.split("Applied from your reply", 1)[1].split("\n\n", 1)[0]
    applied = [line for line in block.splitlines()[1:] if not line.startswith("    ")]
    assert applied == [f"  {dock}", "  say Good luck, Bo!", "  say that one hurt <3"]
    assert "  Ana (" in answer.text_body.split("At the table since your last turn", 1)[1]


def test_a_reply_may_be_talk_only_even_when_it_is_not_the_seats_turn(server: Flask) -> None:
    game = start(2)
    version = fresh(game.id).version
    assert deliver(reply_to(game, 1, "say take your time\n")) == "applied"
    assert _said(game.id) == [(1, "take your time")]
    after = fresh(game.id)
    assert after.turn_steps == [] and after.version == version  # no move, no new version
    answer = mails_to(game.id, 1)[-1]
    assert answer.text_body.startswith("Hi Bo, your message was posted at the table.")
    assert [row.outcome for row in inbound_rows()] == ["applied"]


def test_a_refused_move_posts_nothing(server: Flask) -> None:
    game = start(2)
    assert deliver(reply_to(game, 0, "say here goes\ndock 7 shipyard\n")) == "refused"
    assert _said(game.id) == []
    assert fresh(game.id).turn_steps == []


def test_a_refused_message_applies_nothing_of_the_reply(server: Flask) -> None:
    game = start(2)
    dock = _a_dock(game.id)
    long_line = "say " + "x" * 1001
    assert deliver(reply_to(game, 0, f"{dock}\n{long_line}\n")) == "refused"
    assert _said(game.id) == [] and fresh(game.id).turn_steps == []
    answer = mails_to(game.id, 0)[-1]
    assert "at most 1,000 characters" in answer.text_body
    assert "Nothing of your reply was applied." in answer.text_body


def test_past_the_seats_limit_nothing_of_the_reply_is_applied(server: Flask) -> None:
    server.config["TABLE_TALK_RATE_LIMIT"] = 2
    game = start(2)
    dock = _a_dock(game.id)
    assert deliver(reply_to(game, 0, f"say one\nsay two\nsay three\n{dock}\n")) == "refused"
    assert _said(game.id) == [] and fresh(game.id).turn_steps == []
    assert "at most 2 in 10 minutes" in mails_to(game.id, 0)[-1].text_body


def test_a_word_that_merely_starts_like_say_is_a_move_line(server: Flask) -> None:
    game = start(2)
    assert deliver(reply_to(game, 0, "sayonara\n")) == "refused"
    assert _said(game.id) == []


def test_a_message_of_1000_characters_by_reply_is_posted_whole(server: Flask) -> None:
    game = start(2)
    text = "A long thought, " + "word " * 196 + "end."
    text = text[:1000]
    assert len(text) == 1000
    assert deliver(reply_to(game, 1, f"say {text}\n")) == "applied"
    assert _said(game.id) == [(1, text.strip())]


def test_only_the_first_ten_say_lines_reach_the_parser_whole() -> None:
    from pbem.mail.inbound import limits

    long = "say " + "y" * 1200
    text = "\n".join([long] * 12)
    kept = limits.for_reply_parser(text).split("\n")
    assert [len(line) for line in kept] == [limits.SAY_CHARS] * 10 + [limits.LINE_CHARS + 1] * 2
    assert limits.for_reply_parser("sayonara " + "z" * 200) == "sayonara " + "z" * 41 + " " \
        + "z" * 50


def test_the_next_players_turn_mail_sent_by_the_same_reply_carries_its_message(
        server: Flask) -> None:
    """The `say` lines are posted before the reply's moves: when those moves hand the turn
    over, the "your turn" mail they cause already shows what was said."""
    game = start(2)
    mail = mails_to(game.id, 0)[-1]
    block = mail.text_body.split("Or play by replying to this mail", 1)[1].splitlines()[1:]
    example = [line.strip() for line in block[:next(
        i for i, line in enumerate(block) if line.startswith("Also:"))]]
    before = len(mails_to(game.id, 1))
    body = "\n".join(["say Your move, Bo: good luck!", *example])
    assert deliver(reply_to(game, 0, body)) == "applied"
    turn_mail = next(m for m in mails_to(game.id, 1)[before:] if m.kind == "your_turn")
    talk = turn_mail.text_body.split("At the table since your last turn\n", 1)[1]
    assert talk.splitlines()[0].endswith("): Your move, Bo: good luck!")
    assert talk.splitlines()[0].startswith("  Ana (")
