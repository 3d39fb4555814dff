"""The reply word ``resign``: alone in a reply, the seat resigns; its answer is the one mail
the resigner gets about it; with moves beside it nothing is applied."""

from __future__ import annotations

from flask import Flask

from tests.server.conftest import snapshot

from .conftest import deliver, fresh, mails_to, reply_to, start


def test_resign_alone_in_a_reply_resigns_the_seat(server: Flask) -> None:
    game = start(3)
    before = len(mails_to(game.id, 1))
    assert deliver(reply_to(game, 1, "resign\n\n-- \nBo")) == "applied"
    assert fresh(game.id).seat(1).resigned
    mine = [m.kind for m in mails_to(game.id, 1)[before:]]
    assert mine == ["reply_answer"]  # the answer says it: no second mail
    answer = mails_to(game.id, 1)[-1]
    assert "you resigned from 3-seat test" in answer.text_body
    for seat in (0, 2):
        assert [m.kind for m in mails_to(game.id, seat)].count("resigned") == 1
    settled = snapshot(game.id)
    again = reply_to(game, 1, "resign", message_id="<again@client.test>")
    assert deliver(again) == "autopilot"  # answered: the computer plays the seat already
    assert "played by the computer now" in mails_to(game.id, 1)[-1].text_body
    assert {k: v for k, v in snapshot(game.id).items() if k != "outbox"} == \
        {k: v for k, v in settled.items() if k != "outbox"}


def test_resign_beside_a_move_applies_nothing(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    assert deliver(reply_to(game, 0, "dock 1 solar_converter\nresign\n")) == "refused"
    after = snapshot(game.id)
    assert after["seats"] == before["seats"] and after["log"] == before["log"]
    assert after["state"] == before["state"]
    answer = mails_to(game.id, 0)[-1]
    assert "Write resign alone in a reply" in answer.text_body
