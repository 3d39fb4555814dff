"""Cancelling: the host confirms on a page of its own, every player is mailed once, every page
of the game says "cancelled by the host on …", and nothing of the game runs after it: no
deadline, no reminder, no digest, no mail queued before it."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import scheduler, tokens
from pbem.extensions import db
from pbem.models import Outbox
from pbem.services import seat_settings
from pbem.services.errors import GameNotActive
from pbem.services.games import cancel_game
from tests.scheduler.conftest import FakeClock, game_of, mails, new_game, open_rows

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_cancel_asks_first_then_mails_each_player_once(clock_app: Flask,
                                                       clock: FakeClock) -> None:
    game_id = new_game()
    game = game_of(game_id)
    seat_settings.update_settings(game_id, 2, notify="digest", timezone="UTC",
                                  quiet_start=22, quiet_end=8)
    token = tokens.make_host_token(game.public_id)
    client = clock_app.test_client()
    host_page = client.get(f"/host/{token}").get_data(as_text=True)
    assert f"/host/{token}/cancel" in host_page and "Cancel this game…" in host_page
    confirm = client.get(f"/host/{token}/cancel").get_data(as_text=True)
    assert "It cannot be undone." in confirm and "Ana, Ben, Cy are mailed once" in confirm
    queued = len(mails())
    assert queued and all(m.status == "pending" for m in mails())
    unconfirmed = client.post(f"/host/{token}/cancel", data={"csrf_token": _csrf(confirm)})
    assert unconfirmed.status_code == 400 and game_of(game_id).status == "active"
    assert len(mails()) == queued
    clock.at(2)
    done = client.post(f"/host/{token}/cancel",
                       data={"csrf_token": _csrf(confirm), "confirm": "yes"})
    assert done.status_code == 303
    assert game_of(game_id).status == "cancelled" and open_rows(game_id) == []
    left = mails()
    assert [m.kind for m in left] == ["cancelled"] * 3  # the mail not yet sent is dropped
    assert sorted(m.to_addr for m in left) == ["ana@example.org", "ben@example.org",
                                               "cy@example.org"]
    assert left[0].text_body.startswith("Cancelled by the host · on Monday 2 March, 11:00 UTC")
    again = client.post(f"/host/{token}/cancel",
                        data={"csrf_token": _csrf(confirm), "confirm": "yes"})
    assert again.status_code == 409 and "already cancelled" in again.get_data(as_text=True)
    with pytest.raises(GameNotActive):
        cancel_game(game_id)
    clock.at(24 * 5)  # long past every deadline the game had, and several mornings
    scheduler.tick(clock_app)
    db.session.expire_all()
    rows = list(db.session.scalars(sa.select(Outbox).order_by(Outbox.id)))
    assert [m.kind for m in rows] == ["cancelled"] * 3


def test_every_page_of_a_cancelled_game_says_so(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    clock.at(3)
    cancel_game(game_id)
    game = game_of(game_id)
    client = clock_app.test_client()
    said = "cancelled by the host on Monday 2 March, 12:00 UTC"
    seat_pages = [f"/play/{tokens.make_seat_link(game, s)}" for s in game.seats]
    pages = [*seat_pages, *(f"{p}/resign" for p in seat_pages),
             f"/games/{game.public_id}", f"/games/{game.public_id}/replay",
             f"/host/{tokens.make_host_token(game.public_id)}",
             f"/host/{tokens.make_host_token(game.public_id)}/cancel",
             f"/mail/unsubscribe/{tokens.make_unsubscribe_token(game.public_id, 0, 0)}"]
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        assert said in page, path
        assert "we will mail you" not in page.lower(), path
        assert "Waiting for" not in page, path
