"""An address that cannot be mailed (``jösé@example.org`` needs SMTPUTF8) is refused where it
is typed, in plain words, and one already stored never stops a game (issue #13): the mail is
skipped and logged, the seat marked failing, and the move commits."""

from __future__ import annotations

import logging
import re

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import Outbox
from pbem.services import games, host
from pbem.services.errors import BadInput
from pbem.services.games import SeatSpec
from tests.web.conftest import hidden

from .conftest import fresh, play_through_api, seat_specs, start

UNMAILABLE = "jösé@example.org"


def test_the_service_refuses_an_address_it_could_not_mail(server: Flask) -> None:
    for field in ("host", "seat"):
        with pytest.raises(BadInput, match="before the @"):
            games.create_game(
                name="Accents", host_email=UNMAILABLE if field == "host" else "h@example.org",
                seats=[SeatSpec("Ana", UNMAILABLE if field == "seat" else "a@example.org"),
                       SeatSpec("Bo", "bo@example.org")], options={"factions": False})
    game = start(2)
    with pytest.raises(BadInput, match="before the @"):
        host.substitute_seat(game.id, 1, UNMAILABLE)
    assert fresh(game.id).seat(1).email == "bo@example.org"


def _form(page: str, host_email: str, seat_email: str) -> dict[str, str]:
    return {"csrf_token": hidden(page, "csrf_token"), "name": "Accents", "host_email":
            host_email, "hours": "24", "seat-0-name": "Ana", "seat-0-email": seat_email,
            "seat-1-name": "Robo", "seat-1-computer": "on"}


def test_the_create_form_says_so_beside_the_field_and_creates_nothing(server: Flask) -> None:
    client = server.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    for host_email, seat_email, field in ((UNMAILABLE, "ana@example.org", "host_email"),
                                          ("h@example.org", UNMAILABLE, "seat-0")):
        response = client.post("/games/new", data=_form(page, host_email, seat_email))
        body = response.get_data(as_text=True)
        assert response.status_code == 400, body[:500]
        error = re.search(r'<p class="field-error">[^<]*plain letters \(a-z\)', body)
        assert error, body[:3000]
        inputs = re.findall(r'<input[^>]* name="([^"]+)"', body[:error.start()])
        # beside the field: the host's address, or the row of the player whose address it is
        assert inputs[-1] == ("host_email" if field == "host_email" else "seat-0-computer")
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) == 0


def test_the_my_games_form_refuses_it_in_plain_words(server: Flask) -> None:
    client = server.test_client()
    page = client.get("/me").get_data(as_text=True)
    response = client.post("/me", data={"csrf_token": hidden(page, "csrf_token"),
                                        "email": UNMAILABLE})
    assert response.status_code == 400
    assert "plain letters (a-z)" in response.get_data(as_text=True)


@pytest.mark.slow
def test_a_game_whose_stored_host_address_cannot_be_mailed_still_ends(
        server: Flask, caplog: pytest.LogCaptureFixture) -> None:
    game = games.create_game(name="Old data", host_email="host@example.org",
                             seats=seat_specs(2, bot_seats=(1,)), options={"factions": False},
                             seed=11, fixed_order=True)
    stored = fresh(game.id)
    stored.host_email = UNMAILABLE  # accepted before issue #13
    db.session.commit()
    with caplog.at_level(logging.WARNING, logger="pbem.mail.outbound.outbox"):
        play_through_api(server.test_client(), game.id)
    assert fresh(game.id).status == "finished"  # the final move committed
    over = db.session.scalars(sa.select(Outbox.to_addr).where(Outbox.kind == "game_over")).all()
    assert over == ["ana@example.org"]
    assert "cannot be mailed" in caplog.text and UNMAILABLE not in caplog.text


@pytest.mark.slow
def test_a_seat_whose_stored_address_cannot_be_mailed_is_marked_and_play_goes_on(
        server: Flask) -> None:
    game = start(2)
    stored = fresh(game.id)
    stored.seat(1).email = UNMAILABLE
    db.session.commit()
    play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished"
    assert finished.seat(1).email_failing is True
    assert UNMAILABLE not in db.session.scalars(sa.select(Outbox.to_addr)).all()
