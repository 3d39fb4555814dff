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


def test_the_turn_mails_example_is_a_whole_legal_turn_and_replying_it_plays_it(
        server: Flask) -> None:
    """Issue 24: the example once ended with `end` while ships had still to dock, or named
    two dockings that needed the same ships; now every line is legal after the ones before
    it, the ships are docked and the turn ends."""
    game = start(2)
    mail = turn_mail(game.id, 0)
    assert mail.kind == "your_turn"
    block = mail.text_body.split("Or play by replying to this mail", 1)[1].splitlines()[1:]
    example = [line.strip() for line in block[:next(
        i for i, line in enumerate(block) if line.startswith("Also:"))]]
    assert example[0] in _menu(game.id, 0) and example[-1].startswith("end")
    state = GameState.from_json(fresh(game.id).state)
    for line in example:
        state, _ = engine.apply(state, engine.parse_action(line, 0, 2))
    assert state.turn.seat == 1  # the turn was handed over
    assert deliver(reply_to(game, 0, "\n".join(example), message_id="<ex@c.test>")) == "applied"
    assert "your reply was applied." in mails_to(game.id, 0)[-1].text_body
    assert GameState.from_json(fresh(game.id).state).turn.seat == 1


def test_help_status_and_undo(server: Flask) -> None:
    game = start(2)
    dock = next(line for line in _menu(game.id, 0) if line.startswith("dock"))
    assert deliver(reply_to(game, 0, "help", message_id="<h@c.test>")) == "answered"
    answer = mails_to(game.id, 0)[-1].text_body
    assert "One example of each kind" in answer and dock.split()[0] in answer
    assert deliver(reply_to(game, 0, f"{dock}\nundo", message_id="<u@c.test>")) == "applied"
    assert fresh(game.id).turn_steps == []
    assert deliver(reply_to(game, 0, "undo", message_id="<u2@c.test>")) == "refused"
    assert "nothing of yours to undo" in mails_to(game.id, 0)[-1].text_body


def test_a_refused_line_applies_nothing_of_the_reply(server: Flask) -> None:
    game = start(2)
    dock = next(line for line in _menu(game.id, 0) if line.startswith("dock"))
    version = fresh(game.id).version
    msg = reply_to(game, 0, f"{dock}\ndock 9 shipyard\n", message_id="<r@c.test>")
    assert deliver(msg) == "refused"
    after = fresh(game.id)
    assert after.turn_steps == [] and after.version == version
    answer = mails_to(game.id, 0)[-1].text_body
    assert 'Refused: "dock 9 shipyard"' in answer and "ship value" in answer
    assert "What you can write now" in answer and dock in answer
