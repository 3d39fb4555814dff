"""The IMAP path against a real dovecot on loopback: replies written like real clients' are
appended to the mailbox, and the scheduler's tick plays a whole 2-player turn from them."""

from __future__ import annotations

from flask import Flask

from pbem.engine import GameState

from .clients import FORWARDED, GMAIL, HTML_ONLY, OUT_OF_OFFICE, PORTUGUESE_GMAIL, SIGNATURE
from .conftest import fresh, inbound_rows, mails_to, reply_to, start
from .dovecot import Imap
from .imap_box import append, tick, unseen
from .test_whole_game import planned_lines


def test_a_whole_two_player_turn_by_mail_only(polled: Flask, imap_server: Imap) -> None:
    game = start(2, seed=41)
    for seat, template in ((0, GMAIL), (1, PORTUGUESE_GMAIL)):
        turns_seen = 0
        while GameState.from_json(fresh(game.id).state).turn.seat == seat:
            lines = planned_lines(GameState.from_json(fresh(game.id).state), seat)
            append(imap_server, reply_to(game, seat, template.format(moves="\n".join(lines))))
            tick(polled)
            turns_seen += 1
            assert turns_seen < 40
        assert unseen(imap_server) == 0
    state = GameState.from_json(fresh(game.id).state)
    assert state.turn.seat == 0 and state.turn.round == 2, "both seats played their turn"
    assert all(row.outcome == "applied" for row in inbound_rows())
    tick(polled)  # nothing new: nothing read again
    assert len(inbound_rows()) == len([r for r in inbound_rows() if r.outcome == "applied"])


def test_clients_mail_through_imap(polled: Flask, imap_server: Imap) -> None:
    game = start(2, seed=42)
    lines = planned_lines(GameState.from_json(fresh(game.id).state), 0)
    first = lines[0]
    append(imap_server, reply_to(game, 0, OUT_OF_OFFICE, message_id="<ooo@c.test>",
                                 headers={"Auto-Submitted": "auto-replied"}))
    append(imap_server, reply_to(game, 0, FORWARDED.format(moves=first),
                                 sender="friend@example.net", message_id="<fwd@c.test>"))
    append(imap_server, reply_to(game, 0, "", html=HTML_ONLY.format(html_moves=first),
                                 message_id="<html@c.test>"))
    append(imap_server, reply_to(game, 0, SIGNATURE.format(moves="status"),
                                 message_id="<sig@c.test>"))
    before = len(mails_to(game.id, 0))
    tick(polled)
    outcomes = {row.message_id: row.outcome for row in inbound_rows()}
    assert outcomes == {"<ooo@c.test>": "automatic", "<fwd@c.test>": "forged_from",
                        "<html@c.test>": "applied", "<sig@c.test>": "answered"}
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [first]
    assert len(mails_to(game.id, 0)) == before + 3  # forwarded, html, status: none for OOO
    assert unseen(imap_server) == 0
