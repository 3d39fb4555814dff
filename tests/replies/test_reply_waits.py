"""A reply answers one wait (issue 24, point 3): the reply address names the position its mail
was sent in; a reply written for a position the game has left plays nothing and says so, and
the same reply sent again — under a new Message-ID, with none, or with its id in other
capitals — is played once."""

from __future__ import annotations

from email.message import EmailMessage

from flask import Flask, current_app

from pbem import engine, tokens
from pbem.engine import GameState
from pbem.mail.inbound import received
from pbem.models import Game, Outbox
from tests.server.conftest import snapshot

from .conftest import deliver, fresh, inbound_rows, reply_to, start, turn_mail
from .test_attacks import _dock, _unchanged_but_one_answer
from .test_webhook import SECRET, mailgun_for
from .test_whole_game import planned_lines


def _awaited(game_id: int) -> int | None:
    return engine.awaited(GameState.from_json(fresh(game_id).state))


def _play_turn_by_reply(game: Game, seat: int) -> None:
    """The seat's whole turn, each reply answering the seat's latest mail."""
    while _awaited(game.id) == seat:
        lines = planned_lines(GameState.from_json(fresh(game.id).state), seat)
        assert deliver(reply_to(game, seat, "\n".join(lines))) == "applied"


def _legal_now(game_id: int, seat: int) -> str:
    state = GameState.from_json(fresh(game_id).state)
    return next(engine.format_action(a) for a in engine.legal_actions(state, seat)
                if engine.format_action(a).startswith("dock"))


def test_a_reply_delivered_a_turn_late_is_refused_with_the_position_now(
        server: Flask) -> None:
    game = start(2)
    first_turn_mail = turn_mail(game.id, 0)
    _play_turn_by_reply(game, 0)
    _play_turn_by_reply(game, 1)
    assert _awaited(game.id) == 0  # Ana's next turn, a new roll
    move = _legal_now(game.id, 0)  # a line the new roll allows: once, it would have played
    before = snapshot(game.id)
    late = reply_to(game, 0, move, answering=first_turn_mail, message_id="<late@c.test>")
    assert deliver(late) == "passed"
    answer = _unchanged_but_one_answer(game.id, before, 0)
    assert "moved on" in answer.text_body and "nothing of it was applied" in answer.text_body
    assert "It is your move now" in answer.text_body and move in answer.text_body
    # the answer names the position now: replying to it plays
    assert deliver(reply_to(game, 0, move, answering=answer)) == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [move]


def test_a_reply_to_a_mail_from_before_a_step_of_the_same_turn_plays_nothing(
        server: Flask) -> None:
    """As the turn page refuses a form from before a step (409): the reply was written
    for the dice as they were."""
    game = start(2)
    turn = turn_mail(game.id, 0)
    dock = _dock(game.id)
    assert deliver(reply_to(game, 0, dock, answering=turn)) == "applied"
    before = snapshot(game.id)
    other = reply_to(game, 0, "undo", answering=turn, message_id="<undo-late@c.test>")
    assert deliver(other) == "passed"
    _unchanged_but_one_answer(game.id, before, 0)


def test_status_help_and_table_talk_answer_no_wait(server: Flask) -> None:
    game = start(2)
    turn = turn_mail(game.id, 0)
    assert deliver(reply_to(game, 0, _dock(game.id), answering=turn)) == "applied"
    assert deliver(reply_to(game, 0, "status", answering=turn)) == "answered"
    assert deliver(reply_to(game, 0, "say good luck", answering=turn)) == "applied"  # posted


def test_the_same_reply_under_a_new_message_id_is_played_once(server: Flask) -> None:
    game = start(2)
    turn = turn_mail(game.id, 0)
    dock = _dock(game.id)
    assert deliver(reply_to(game, 0, dock, answering=turn, message_id="<a@c.test>")) == "applied"
    before = snapshot(game.id)
    again = reply_to(game, 0, f"  {dock.upper()}  ", answering=turn, message_id="<b@c.test>")
    assert deliver(again) == "resent"
    answer = _unchanged_but_one_answer(game.id, before, 0)
    assert "nothing of it was played twice" in answer.text_body
    assert [row.outcome for row in inbound_rows()] == ["applied", "resent"]


def test_the_same_webhook_post_without_message_id_is_played_once(server: Flask) -> None:
    """A provider that posts again with its own fields changed (a new timestamp and
    signature) and a mail that has no Message-ID: the text and the wait tell it apart."""
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    dock = _dock(game.id)
    client = server.test_client()
    outcomes = []
    data = mailgun_for(game.id, 0, f"{dock}\n", "")
    for stamp in ("1700000000", "1700000300"):
        data.update(timestamp=stamp, signature=f"sig-{stamp}")
        response = client.post(f"/inbound/mailgun/{SECRET}", data=data)
        assert response.status_code == 200, response.get_data(as_text=True)
        outcomes.append(response.get_json()["outcome"])
    assert outcomes == ["applied", "resent"]
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]


def test_case_variants_of_one_message_id_are_one_mail(server: Flask) -> None:
    assert received.normalised_message_id(" <Once@Client.TEST>\r\n") == "once@client.test"
    game = start(2)
    dock = _dock(game.id)
    first = reply_to(game, 0, dock, message_id="<Once@Client.TEST>")
    assert deliver(first) == "applied"
    before = snapshot(game.id)
    for spelling in ("<ONCE@CLIENT.TEST>", "once@client.test", "<once@client.test>"):
        msg = reply_to(game, 0, "status", message_id=spelling)
        assert deliver(msg) == "duplicate", spelling
    assert snapshot(game.id) == before


# -- reply addresses made before the wait was carried -------------------------------------


def _old_address(mail: Outbox, game: Game, seat: int) -> str:
    """The mail's Reply-To as it was written before tokens named a wait."""
    row = fresh(game.id).seat(seat)
    fields = (str(game.id), str(seat), str(row.link_counter))
    signature = tokens._reply_signature(str(current_app.config["SECRET_KEY"]), *fields)
    local, _, domain = mail.headers["Reply-To"].partition("@")
    return f"{local.partition('+')[0]}+{'-'.join((*fields, signature))}@{domain}"


def _old_reply(game: Game, seat: int, text: str, answering: Outbox,
               message_id: str) -> EmailMessage:
    msg = reply_to(game, seat, text, answering=answering, message_id=message_id)
    msg.replace_header("To", _old_address(answering, game, seat))
    return msg


def test_an_old_reply_address_plays_against_the_position_now_once(server: Flask) -> None:
    game = start(2)
    turn = turn_mail(game.id, 0)
    dock = _dock(game.id)
    assert deliver(_old_reply(game, 0, dock, turn, "<old-1@c.test>")) == "applied"
    assert deliver(_old_reply(game, 0, dock, turn, "<old-2@c.test>")) == "resent"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]


def test_an_old_reply_address_answering_an_earlier_turns_mail_plays_nothing(
        server: Flask) -> None:
    """Its References name the mail it answers: one sent before the seat's current wait."""
    game = start(2)
    first_turn_mail = turn_mail(game.id, 0)
    _play_turn_by_reply(game, 0)
    _play_turn_by_reply(game, 1)
    move = _legal_now(game.id, 0)
    before = snapshot(game.id)
    assert deliver(_old_reply(game, 0, move, first_turn_mail, "<old-late@c.test>")) == "passed"
    answer = _unchanged_but_one_answer(game.id, before, 0)
    assert "moved on" in answer.text_body


def test_a_mail_from_before_a_key_rotation_still_plays(server: Flask) -> None:
    """The wait is keyed like the token: under a key moved to SECRET_KEY_FALLBACKS, the
    mails in players' inboxes still name the position they were sent in."""
    game = start(2)
    turn = turn_mail(game.id, 0)
    old_key = server.config["SECRET_KEY"]
    server.config.update(SECRET_KEY="a-new-key-after-rotation",
                         SECRET_KEY_FALLBACKS=[old_key])
    dock = _dock(game.id)
    assert deliver(reply_to(game, 0, dock, answering=turn)) == "applied"
    assert deliver(reply_to(game, 0, "end", answering=turn)) == "passed"
