"""Issue #7, "Done when": a newcomer creates a 3-player game at /games/new and the game is
played to its end only by opening mails in the dev mailbox, following their links to the turn
pages and pressing the buttons of the forms there. Every player gets the game-over mail."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models.game import Game
from pbem.models.outbox import Outbox
from tests.conftest import MakeApp
from tests.page_play import play_from_the_page

PEOPLE = [("Ana", "ana@newcomer.example.org"), ("Ben", "ben@newcomer.example.org"),
          ("Cy", "cy@newcomer.example.org")]
MAILBOX_LINK = re.compile(r'href="/dev/mailbox/(\d+)"')
TURN_LINK = re.compile(r'<a href="http://localhost(/play/[^"?]+)"')


@pytest.mark.slow
def test_a_newcomer_plays_a_whole_game_from_the_dev_mailbox(app: Flask,
                                                           make_app: MakeApp) -> None:
    web = make_app(MAIL_BACKEND="dev", SERVER_NAME="localhost", WTF_CSRF_ENABLED=False,
                   MAIL_MESSAGE_ID_DOMAIN="pbem.test")
    client = web.test_client()
    form = {"name": "Newcomers' Night", "host_email": "ana@newcomer.example.org", "hours": "48",
            "factions": "on", "new_gaia_rescue": "high"}
    for i, (name, email) in enumerate(PEOPLE):
        form[f"seat-{i}-name"], form[f"seat-{i}-email"] = name, email
    created = client.post("/games/new", data=form)
    assert created.status_code == 303, created.get_data(as_text=True)[:2000]

    opened: set[int] = set()
    moves = 0
    for _ in range(2000):
        index = client.get("/dev/mailbox/").get_data(as_text=True)
        fresh = [int(m) for m in MAILBOX_LINK.findall(index) if int(m) not in opened]
        if not fresh:
            break
        link = None
        for message_id in sorted(fresh, reverse=True):  # newest first
            opened.add(message_id)
            text = client.get(f"/dev/mailbox/{message_id}").get_data(as_text=True)
            wants_me = "it&#39;s your turn" in text or "waiting for your decision" in text
            if link is None and wants_me:
                found = TURN_LINK.search(text)
                assert found, "a turn mail holds the seat's turn link"
                link = found.group(1)
        if link is not None:
            moves += play_from_the_page(web, client, link)

    with web.app_context():
        game = db.session.scalars(sa.select(Game)).one()
        assert game.status == "finished", f"stopped after {moves} moves from the pages"
        over = db.session.scalars(sa.select(Outbox.to_addr).where(Outbox.kind == "game_over"))
        assert sorted(over) == sorted(email for _, email in PEOPLE)
    assert moves > 50
