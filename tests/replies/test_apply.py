"""Replies applied through the services, in-process: steps in order in one transaction,
refusals change nothing, barriers stop the rest, every reply gets one answer in the thread."""

from __future__ import annotations

from flask import Flask

from pbem import engine
from pbem.engine import GameState

from .conftest import deliver, fresh, inbound_rows, mails_to, reply_to, start, turn_mail


def _menu(game_id: int, seat: int) -> list[str]:
    state = GameState.from_json(fresh(game_id).state)
    return [engine.format_action(a) for a in engine.legal_actions(state, seat)]


def test_every_mail_to_a_seat_has_its_own_reply_address(server: Flask) -> None:
    game = start(2)
    first, second = turn_mail(game.id, 0), turn_mail(game.id, 1)
    assert first.headers["Reply-To"].startswith("play+")
    assert first.headers["Reply-To"].endswith("@pbem.test")
    assert first.headers["Reply-To"] != second.headers["Reply-To"]


def test_a_reply_applies_its_steps_and_is_answered_in_the_thread(server: Flask) -> None:
    game = start(2)
    dock = next(line for line in _menu(game.id, 0) if line.startswith("dock"))
    msg = reply_to(game, 0, f"{dock}\n\nthanks\n")
    before = len(mails_to(game.id, 0))
    assert deliver(msg) == "refused"  # "thanks" is not a move: nothing applied
    assert fresh(game.id).turn_steps == []
    msg = reply_to(game, 0, f"{dock}\n", message_id="<second@client.test>")
    assert deliver(msg) == "applied"
    after = fresh(game.id)
    assert [step["notation"] for step in after.turn_steps] == [dock]
    answers = mails_to(game.id, 0)[before:]
    assert len(answers) == 2
    answer = answers[-1]
    assert answer.kind == "reply_answer"
    assert answer.headers["In-Reply-To"] == "<second@client.test>"
    assert "<second@client.test>" in answer.headers["References"]
    assert dock in answer.text_body
    assert [row.outcome for row in inbound_rows()] == ["refused", "applied"]
