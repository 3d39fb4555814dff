"""Attacks on the reply address: nothing is applied, each gets one clear answer to the seat's
own address (none for machines' mail or a token that is not ours), and never a loop."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
import sqlalchemy as sa
from flask import Flask
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pbem import engine
from pbem.engine import GameState
from pbem.extensions import db
from pbem.mail.inbound import received
from pbem.models import Game, Outbox
from pbem.services import replies
from tests.server.conftest import snapshot

from .clients import FORWARDED
from .conftest import (
    deliver,
    fresh,
    inbound_rows,
    mails_to,
    outbox_count,
    reply_to,
    start,
    turn_mail,
)
from .test_whole_game import planned_lines


def _dock(game_id: int, seat: int = 0) -> str:
    state = GameState.from_json(fresh(game_id).state)
    return next(engine.format_action(a) for a in engine.legal_actions(state, seat)
                if engine.format_action(a).startswith("dock"))


def _unchanged_but_one_answer(game_id: int, before: dict[str, object], seat: int) -> Outbox:
    after = snapshot(game_id)
    assert after["state"] == before["state"] and after["turn_steps"] == before["turn_steps"]
    assert after["version"] == before["version"]
    assert after["outbox"] == before["outbox"] + 1  # type: ignore[operator]
    answer = mails_to(game_id, seat)[-1]
    assert answer.kind == "reply_answer"
    return answer


def test_another_seats_token_is_refused_to_that_seats_own_address(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    bo_address = turn_mail(game.id, 1).headers["Reply-To"]
    msg = reply_to(game, 0, _dock(game.id))  # Ana writes to Bo's reply address
    msg.replace_header("To", bo_address)
    assert deliver(msg) == "forged_from"
    answer = _unchanged_but_one_answer(game.id, before, 1)
    assert answer.to_addr == "bo@example.org"
    assert "another address" in answer.text_body


def test_a_forged_from_or_a_forwarded_mail_is_refused(server: Flask) -> None:
    game = start(2)
    for sender, body in (("mallory@evil.test", _dock(game.id)),
                         ("friend@example.net", FORWARDED.format(moves=_dock(game.id)))):
        before = snapshot(game.id)
        msg = reply_to(game, 0, body, sender=sender, message_id=f"<{sender}@x.test>")
        assert deliver(msg) == "forged_from"
        answer = _unchanged_but_one_answer(game.id, before, 0)
        assert answer.to_addr == "ana@example.org"


def test_a_replayed_mail_applies_once_and_is_answered_once(server: Flask) -> None:
    game = start(2)
    msg = reply_to(game, 0, _dock(game.id), message_id="<once@client.test>")
    assert deliver(msg) == "applied"
    before = snapshot(game.id)
    assert deliver(msg) == "duplicate"
    assert snapshot(game.id) == before


def test_a_reply_after_the_turn_passed_changes_nothing(server: Flask) -> None:
    game = start(2)
    old_mail = turn_mail(game.id, 0)
    while GameState.from_json(fresh(game.id).state).turn.seat == 0:
        lines = planned_lines(GameState.from_json(fresh(game.id).state), 0)
        assert deliver(reply_to(game, 0, "\n".join(lines))) == "applied"
    before = snapshot(game.id)
    late = reply_to(game, 0, "end", answering=old_mail, message_id="<late@c.test>")
    assert deliver(late) == "passed"  # its address names the position of Ana's turn
    answer = _unchanged_but_one_answer(game.id, before, 0)
    assert "moved on" in answer.text_body and "It is Bo's turn now" in answer.text_body


def test_a_revoked_reply_address_plays_nothing(server: Flask) -> None:
    game = start(2)
    msg = reply_to(game, 0, _dock(game.id))
    row = fresh(game.id)
    row.seat(0).link_counter += 1
    db.session.commit()
    before = snapshot(game.id)
    assert deliver(msg) == "revoked"
    assert snapshot(game.id) == before


def test_an_unknown_token_and_a_bounce_get_no_answer(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    msg = reply_to(game, 0, _dock(game.id))
    msg.replace_header("To", "play+1-0-0-000000000000000000000000@pbem.test")
    assert deliver(msg) == "unknown_token"
    bounce = reply_to(game, 0, "Delivery failed", sender="mailer-daemon@example.org",
                      message_id="<dsn@x.test>")
    assert deliver(bounce) == "automatic"
    report = EmailMessage()
    report["From"] = "ana@example.org"
    report["To"] = turn_mail(game.id, 0).headers["Reply-To"]
    report["Message-ID"] = "<report@x.test>"
    report["Content-Type"] = "multipart/report; report-type=delivery-status; boundary=x"
    assert deliver(report) == "automatic"
    assert snapshot(game.id) == before
    assert [r.outcome for r in inbound_rows()] == ["unknown_token", "automatic", "automatic"]


def test_our_answers_are_never_answered_so_there_is_no_loop(server: Flask) -> None:
    """An answer bounced back to the reply address (a forwarding loop) is our own machine's
    mail: Auto-Submitted, ignored."""
    game = start(2)
    assert deliver(reply_to(game, 0, "status", message_id="<s@c.test>")) == "answered"
    answer = mails_to(game.id, 0)[-1]
    looped = EmailMessage()
    looped["From"] = "ana@example.org"
    looped["To"] = answer.headers["Reply-To"]
    looped["Message-ID"] = answer.headers["Message-ID"]
    looped["Auto-Submitted"] = answer.headers["Auto-Submitted"]
    looped.set_content(answer.text_body)
    count = outbox_count()
    assert deliver(looped) == "automatic"
    assert outbox_count() == count


def test_an_auto_responder_that_marks_nothing_gets_three_answers_until_a_move(
        server: Flask) -> None:
    """An out-of-office that sets none of the automatic headers answers each of our answers:
    after three answers in a row to mails with no move, the seat gets no more (the mails are
    recorded as muted) until a move of the seat is applied, which is answered again."""
    game = start(2)
    answering = turn_mail(game.id, 0)
    outcomes = []
    for n in range(12):
        out_of_office = reply_to(game, 0, "I am away until Monday.", answering=answering,
                                 message_id=f"<away-{n}@client.test>")
        outcomes.append(deliver(out_of_office))
        answering = mails_to(game.id, 0)[-1]  # it answers our newest mail
    assert outcomes == ["refused"] * 3 + ["muted"] * 9
    status = server.test_cli_runner().invoke(args=["pbem", "status"])
    assert "refused: 3" in status.output and "muted: 9" in status.output
    assert len([m for m in mails_to(game.id, 0) if m.kind == "reply_answer"]) == 3
    version = _version_and_mail(game.id)[0]
    assert deliver(reply_to(game, 0, _dock(game.id), message_id="<move@c.test>")) == "applied"
    assert _version_and_mail(game.id)[0] == version + 1
    assert len([m for m in mails_to(game.id, 0) if m.kind == "reply_answer"]) == 4
    again = reply_to(game, 0, "I am away until Monday.", message_id="<away-again@c.test>")
    assert deliver(again) == "refused"  # a move came: the count starts again


def test_a_new_wait_lets_the_seat_be_answered_again(server: Flask) -> None:
    game = start(2)
    for n in range(4):
        deliver(reply_to(game, 1, "status", message_id=f"<bo-{n}@c.test>"))
    assert [r.outcome for r in inbound_rows()] == ["answered"] * 3 + ["muted"]
    while GameState.from_json(fresh(game.id).state).turn.seat == 0:  # Ana plays her turn
        lines = planned_lines(GameState.from_json(fresh(game.id).state), 0)
        assert deliver(reply_to(game, 0, "\n".join(lines))) == "applied"
    assert deliver(reply_to(game, 1, "status", message_id="<bo-later@c.test>")) == "answered"


def test_at_most_reply_answers_per_hour_even_with_moves_between(server: Flask) -> None:
    """REPLY_ANSWERS_PER_HOUR still caps the answers; a move past it is applied unanswered."""
    server.config["REPLY_ANSWERS_PER_HOUR"] = 2
    game = start(2)
    assert deliver(reply_to(game, 0, "status", message_id="<s1@c.test>")) == "answered"
    assert deliver(reply_to(game, 0, "status", message_id="<s2@c.test>")) == "answered"
    assert deliver(reply_to(game, 0, "status", message_id="<s3@c.test>")) == "muted"
    version = _version_and_mail(game.id)[0]
    assert deliver(reply_to(game, 0, _dock(game.id), message_id="<move@c.test>")) == "applied"
    assert _version_and_mail(game.id)[0] == version + 1
    assert len([m for m in mails_to(game.id, 0) if m.kind == "reply_answer"]) == 2


def _version_and_mail(game_id: int) -> tuple[int, int]:
    """The game's version (every change bumps it) and the number of mails queued."""
    db.session.rollback()
    version = db.session.execute(sa.select(Game.version).where(Game.id == game_id)).scalar_one()
    return int(version), outbox_count()


@pytest.mark.slow
def test_fuzzed_bodies_apply_nothing_and_get_one_answer_each(server: Flask) -> None:
    """1,000 bodies of any text: nothing outside the rules applied, one answer each at most."""
    server.config["REPLY_ANSWERS_PER_HOUR"] = 2000  # every body answered, past the loop guards
    server.config["REPLY_MUTE_AFTER"] = 2000
    game = start(2)
    to = turn_mail(game.id, 0).headers["Reply-To"]
    sent = [0]

    @settings(max_examples=1000, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(body=st.text(max_size=300))
    def one(body: str) -> None:
        # Hypothesis draws the code's own string constants too: "resign" would end Ana's
        # play (a legal outcome, tested in test_resign_by_reply) and leave nothing to fuzz.
        assume(all(line.strip(" .!").lower() != "resign" for line in body.splitlines()))
        sent[0] += 1
        before = _version_and_mail(game.id)
        msg = EmailMessage()
        msg["From"] = "Ana <ana@example.org>"
        msg["To"] = to
        msg["Message-ID"] = f"<fuzz-{sent[0]}@f.test>"
        msg.set_content(body)
        outcome = replies.receive(received.from_bytes(msg.as_bytes()))
        after = _version_and_mail(game.id)
        if outcome == "applied":  # only legal moves of Ana's: the engine checked each
            assert all(step["seat"] == 0 for step in fresh(game.id).turn_steps)
        else:
            # "passed": an earlier body played a step, so this reply's wait has passed; it
            # too applies nothing and is answered once
            assert outcome in ("refused", "answered", "passed"), outcome
            assert after[0] == before[0], "a version bump: something was applied"
            assert after[1] == before[1] + 1, "exactly one answer"

    one()
    assert len(inbound_rows()) == sent[0]
