"""A player who resigns hands the seat to the autopilot: the computer plays it, logged."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.extensions import db
from pbem.models import ActionLog, Outbox
from pbem.services import games, play
from pbem.services.errors import GameNotActive, NotAllowed

from .conftest import auth, fresh, link, play_through_api, snapshot, start


def _log(game_id: int) -> list[tuple[int, str, str]]:
    return [tuple(row) for row in db.session.execute(
        sa.select(ActionLog.seat, ActionLog.by, ActionLog.notation)
        .where(ActionLog.game_id == game_id).order_by(ActionLog.seq))]


def test_resigning_on_your_turn_lets_the_autopilot_finish_it(server: Flask) -> None:
    game = start(2)
    play.play(game.id, 0, 1, engine.parse_action("dock 1 solar_converter", 0))
    result = games.resign(game.id, 0)
    assert result.steps and all(step["by"] == "bot" for step in result.steps)
    log = _log(game.id)
    assert log[0] == (0, "player", "dock 1 solar_converter")
    assert log[1] == (0, "player", "resign")
    assert {by for seat, by, _ in log[2:]} == {"bot"}
    after = fresh(game.id)
    assert after.seat(0).resigned
    assert after.state["turn"]["seat"] == 1


@pytest.mark.slow
def test_the_autopilot_plays_the_resigned_seat_to_the_end(server: Flask) -> None:
    game = start(2)
    games.resign(game.id, 1)  # not its turn: it takes over from the next turn
    assert fresh(game.id).state["turn"]["seat"] == 0
    play_through_api(server.test_client(), game.id)
    assert fresh(game.id).status == "finished"
    assert (1, "bot") in {(seat, by) for seat, by, _ in _log(game.id)}
    assert games.verify_replay(game.id) == []


def test_a_resigned_seat_cannot_move_or_resign_again(server: Flask) -> None:
    game = start(3)
    games.resign(game.id, 2)
    before = snapshot(game.id)
    with pytest.raises(NotAllowed):
        games.resign(game.id, 2)
    response = server.test_client().post(
        f"/api/games/{fresh(game.id).public_id}/actions", headers=auth(link(game.id, 2)),
        json={"version": before["version"], "notation": "end"})
    assert response.status_code == 403
    assert snapshot(game.id) == before


# -- everyone is mailed once; every way in (page, reply, API, CLI) ----------------------------

def _mails(game_id: int) -> list[Outbox]:
    db.session.rollback()
    return list(db.session.scalars(
        sa.select(Outbox).where(Outbox.game_id == game_id).order_by(Outbox.id)))


def test_resigning_mails_every_player_once_and_no_turn_mail_repeats_it(server: Flask) -> None:
    game = start(3)
    before = len(_mails(game.id))
    play.play(game.id, 0, 1, engine.parse_action("dock 1 solar_converter", 0))
    games.resign(game.id, 0)
    new = _mails(game.id)[before:]
    resigned = [m for m in new if m.kind == "resigned"]
    assert sorted(m.seat for m in resigned) == [0, 1, 2]  # each player once
    assert not [m for m in new if m.kind == "others_turn"]  # the resigned mail says the turn
    turn = [m for m in new if m.kind == "your_turn"]
    assert [m.seat for m in turn] == [1]
    mine = next(m for m in resigned if m.seat == 0)
    assert mine.text_body.startswith("You resigned · the computer plays your seat")
    assert "you resigned from 3-seat test" in mine.text_body
    theirs = next(m for m in resigned if m.seat == 2)
    assert theirs.text_body.startswith("Ana resigned · the computer plays the seat · Bo's turn")
    assert "The autopilot finished Ana's turn:" in theirs.text_body
    assert "Now it is Bo's turn." in theirs.text_body
    for mail in resigned:  # nobody else's address, ever
        others = {f"{n}@example.org" for n in ("ana", "bo", "cy")} - {mail.to_addr}
        assert not any(address in (mail.text_body + (mail.html_body or ""))
                       for address in others)


def test_after_resigning_a_player_hears_only_of_the_end(server: Flask) -> None:
    game = start(2)
    games.resign(game.id, 1)
    count = len([m for m in _mails(game.id) if m.seat == 1])
    play_through_api(server.test_client(), game.id)
    later = [m.kind for m in _mails(game.id) if m.seat == 1][count:]
    assert later == ["game_over"]
    over = next(m for m in _mails(game.id) if m.kind == "game_over" and m.seat == 0)
    assert "Bo (resigned)" in over.text_body


@pytest.mark.parametrize("case", ["twice", "no_such_seat", "computer", "cancelled",
                                  pytest.param("over", marks=pytest.mark.slow)])  # a whole game
def test_a_refused_resignation_says_why_and_changes_nothing(server: Flask, case: str) -> None:
    game = start(3, bot_seats=(2,))
    seat = {"twice": 1, "no_such_seat": 7, "computer": 2}.get(case, 1)
    if case == "twice":
        games.resign(game.id, 1)
    if case == "cancelled":
        games.cancel_game(game.id)
    if case == "over":
        play_through_api(server.test_client(), game.id)
    before = snapshot(game.id)
    with pytest.raises((NotAllowed, GameNotActive)) as refused:
        games.resign(game.id, seat)
    words = {"twice": "Bo has already resigned", "no_such_seat": "no such seat",
             "computer": "Cy is a computer player", "cancelled": "cancelled",
             "over": "finished"}[case]
    assert words in refused.value.message
    assert snapshot(game.id) == before


def test_the_api_resigns_the_tokens_seat_once(server: Flask) -> None:
    game = start(2)
    client = server.test_client()
    public_id, token = fresh(game.id).public_id, link(game.id, 1)
    url = f"/api/games/{public_id}/resign"
    stale = client.post(url, json={"version": 99}, headers=auth(token))
    assert stale.status_code == 409 and stale.get_json()["error"] == "stale"
    version = fresh(game.id).version
    answer = client.post(url, json={"version": version}, headers=auth(token))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["seat"]["autopilot"] is True
    assert answer.get_json()["legal"] == []
    listed = client.get(f"/api/games/{public_id}/players", headers=auth(token)).get_json()
    assert [p["resigned"] for p in listed["players"]] == [False, True]
    before = snapshot(game.id)
    again = client.post(url, json={"version": before["version"]}, headers=auth(token))
    assert again.status_code == 403
    assert "already resigned" in again.get_json()["message"]
    assert client.post(url, json={}, headers=auth(token)).status_code == 400
    assert snapshot(game.id) == before


def test_the_host_resigns_a_seat_from_the_command_line(server: Flask) -> None:
    game = start(2)
    public_id = fresh(game.id).public_id
    runner = server.test_cli_runner()
    result = runner.invoke(args=["pbem", "resign", public_id, "1"])
    assert result.exit_code == 0, result.output
    assert "seat 1 (Bo) resigned; the autopilot plays it at level greedy" in result.output
    assert fresh(game.id).seat(1).resigned
    assert _log(game.id)[-1] == (1, "host", "resign")
    again = runner.invoke(args=["pbem", "resign", public_id, "1"])
    assert again.exit_code == 1 and "already resigned" in again.output
