"""Choosing a time bank (issue 26, point 7): on the new-game form, from the shell, and again
for the rematch; a bank no game can run on is refused beside its field and nothing is made."""

from __future__ import annotations

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import tokens
from pbem.clock import TimeBank
from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import rematch
from tests.web.conftest import HOST, hidden


def _form(client: FlaskClient, **fields: str) -> dict[str, str]:
    page = client.get("/games/new").get_data(as_text=True)
    return {"csrf_token": hidden(page, "csrf_token"), "name": "Banked", "host_email": HOST,
            "seat-0-name": "Ana", "seat-0-email": "ana@example.org",
            "seat-1-name": "Ben", "seat-1-email": "ben@example.org", **fields}


def _games() -> list[Game]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Game)))


def test_the_form_offers_both_clocks_and_makes_a_bank_game(client: FlaskClient,
                                                           ctx: object) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="clock" value="move" checked' in page and 'name="clock" value="bank"' in page
    answer = client.post("/games/new", data=_form(
        client, clock="bank", bank_hours="96", increment_hours="12", max_bank_hours="120"))
    assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
    [game] = _games()
    assert game.time_bank == TimeBank(96, 12, 120)
    invitation = db.session.scalars(sa.select(Outbox).where(Outbox.kind == "invitation")).first()
    assert invitation is not None
    assert ("a time bank of 96 hours, plus 12 hours after each turn, at most 120 hours"
            in invitation.text_body)


def test_the_time_per_move_stays_the_default(client: FlaskClient, ctx: object) -> None:
    answer = client.post("/games/new", data=_form(client, hours="24"))
    assert answer.status_code == 303
    [game] = _games()
    assert game.time_bank is None and game.time_per_move_hours == 24


def test_a_bank_no_game_can_run_on_is_refused_beside_its_field(client: FlaskClient,
                                                               ctx: object) -> None:
    answer = client.post("/games/new", data=_form(
        client, clock="bank", bank_hours="0", increment_hours="-2", max_bank_hours="x"))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "The time bank is a whole number of hours, 1 to 1440." in page
    assert "The time added after each turn is a whole number of hours, 0 to 336." in page
    assert "The time bank&#39;s cap is a whole number of hours" in page
    assert 'name="clock" value="bank" checked' in page  # the host's choice is kept
    cap = client.post("/games/new", data=_form(
        client, clock="bank", bank_hours="100", increment_hours="0", max_bank_hours="50"))
    assert cap.status_code == 400 and "at least the bank it starts with" in cap.get_data(
        as_text=True)
    assert _games() == []


def test_the_rematch_keeps_the_bank(client: FlaskClient, ctx: object) -> None:
    client.post("/games/new", data=_form(client, clock="bank", bank_hours="72",
                                         increment_hours="24"))
    [game] = _games()
    prefilled = client.get(f"/games/new?rematch={tokens.make_host_token(game.public_id)}")
    page = prefilled.get_data(as_text=True)
    assert 'name="clock" value="bank" checked' in page
    assert 'id="bank_hours" name="bank_hours" min="1" max="1440" value="72"' in page
    game.status = "finished"
    db.session.commit()
    again = rematch.start_rematch(game.id)
    assert again.time_bank == TimeBank(72, 24)


def test_the_shell_makes_a_bank_game(client: FlaskClient, ctx: object) -> None:
    result = client.application.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Shell", "--player", "Ana <ana@example.org>",
        "--player", "bot", "--base-game", "--bank-hours", "48", "--increment-hours", "6"])
    assert result.exit_code == 0, result.output
    assert ("options: base game (no Factions), a time bank of 48 hours, plus 6 hours after "
            "each turn") in result.output
    lonely = client.application.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Shell", "--player", "Ana <ana@example.org>",
        "--player", "bot", "--increment-hours", "6"])
    assert lonely.exit_code != 0 and "need --bank-hours" in lonely.output


def test_the_turn_page_shows_the_banks(client: FlaskClient, ctx: object) -> None:
    client.post("/games/new", data=_form(client, clock="bank", bank_hours="72",
                                         increment_hours="24", factions=""))
    [game] = _games()
    link = tokens.make_seat_link(game, game.seat(0))
    page = client.get(f"/play/{link}").get_data(as_text=True)
    line = page[page.index("Time banks: "):].split("</p>")[0]
    assert "Ana 3 d" in line and "Ben 3 d" in line and line.count("(running)") == 1
