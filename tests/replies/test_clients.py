"""What each client writes is read as the new lines above its quote, nothing more."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem.mail.inbound import received

from .clients import HTML_ONLY, QUOTED
from .conftest import deliver, fresh, inbound_rows, mails_to, reply_to, start

MOVES = ["dock 3 3 shipyard", "end"]


@pytest.mark.parametrize("client", sorted(QUOTED))
def test_only_the_new_lines_are_read(client: str) -> None:
    body = QUOTED[client].format(moves="\n".join(MOVES))
    assert list(received.new_lines(body)) == MOVES


def test_html_only_mail_is_read_without_its_quote() -> None:
    html = HTML_ONLY.format(html_moves="dock 3 3 shipyard<br>end<br>")
    assert list(received.new_lines(received.text_of_html(html))) == MOVES


def _first_dock(game_id: int) -> str:
    from pbem import engine
    from pbem.engine import GameState
    state = GameState.from_json(fresh(game_id).state)
    return next(engine.format_action(a) for a in engine.legal_actions(state, 0)
                if engine.format_action(a).startswith("dock"))


@pytest.mark.parametrize("client", sorted(QUOTED))
def test_a_quoted_reply_of_each_client_plays(server: Flask, client: str) -> None:
    game = start(2)
    dock = _first_dock(game.id)
    assert deliver(reply_to(game, 0, QUOTED[client].format(moves=dock))) == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]


def test_an_html_only_reply_plays(server: Flask) -> None:
    game = start(2)
    dock = _first_dock(game.id)
    msg = reply_to(game, 0, "", html=HTML_ONLY.format(html_moves=dock))
    assert deliver(msg) == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]


def test_an_out_of_office_is_ignored_and_never_answered(server: Flask) -> None:
    game = start(2)
    before = len(mails_to(game.id, 0))
    for headers in ({"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"},
                    {"X-Autoreply": "yes"}):
        msg = reply_to(game, 0, "I am out of the office.\nend\n", headers=headers,
                       message_id=f"<ooo-{sorted(headers)[0]}@client.test>")
        assert deliver(msg) == "automatic"
    assert fresh(game.id).turn_steps == []
    assert len(mails_to(game.id, 0)) == before
    assert [row.outcome for row in inbound_rows()] == ["automatic"] * 3
