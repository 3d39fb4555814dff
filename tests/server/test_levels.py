"""Bot levels chosen per computer seat and the host's autopilot level (issue #16): stored,
used where the server plays, shown beside the seat, and replayed exactly."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine, tokens
from pbem.engine import GameState, bots
from pbem.engine.bots.levels import bot_for
from pbem.extensions import db
from pbem.models import ActionLog, Game, Outbox
from pbem.services import games
from pbem.services.errors import BadInput
from pbem.services.games import SeatSpec
from pbem.services.turns import _BOT_SALT
from tests.web.conftest import hidden

from .conftest import BASE, auth, fresh, link, play_through_api

MASK = (1 << 63) - 1


def _create(seats: list[SeatSpec], *, autopilot_level: str | None = None, seed: int = 5,
            options: dict[str, Any] | None = None, bot_budget: int | None = None) -> Game:
    return games.create_game(name="Levels", host_email="ana@example.org", seats=seats,
                             options=BASE if options is None else options, seed=seed,
                             fixed_order=True, autopilot_level=autopilot_level,
                             bot_budget=bot_budget)


def _log(game_id: int) -> list[ActionLog]:
    return list(db.session.execute(sa.select(ActionLog).where(ActionLog.game_id == game_id)
                                   .order_by(ActionLog.seq)).scalars())


def _choices_by(game: Game, seat: int) -> list[tuple[GameState, engine.Action]]:
    """Each state before a server step of ``seat``, and the action logged there."""
    state = engine.new_game(game.players, game.seed, dict(game.options))
    out = []
    for row in _log(game.id):
        if row.action.get("kind") not in engine.ACTION_TYPES:
            continue
        action = engine.action_from_json(row.action)
        if row.seat == seat and row.by in ("bot", "timeout"):
            out.append((state.clone(), action))
        engine.apply_in_place(state, action)
    return out


def _chosen_by(level: str, state: GameState, seat: int, seed: int,
               budget: int | None = None) -> engine.Action:
    rng = [(seed ^ _BOT_SALT) & MASK, state.step]
    return bot_for(level, budget)(bots.redacted(state, seat), seat, rng)


def test_levels_are_stored_per_computer_seat_and_for_the_autopilot(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"),
                    SeatSpec("HAL", None, True, level="strong"), SeatSpec("Robo", None, True)],
                   autopilot_level="easy")
    stored = fresh(game.id)
    assert [(s.bot_level, s.level) for s in stored.seats] == [
        (None, None), ("strong", "strong"), ("greedy", "greedy")]
    assert stored.autopilot_level == "easy"
    plain = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")])
    assert fresh(plain.id).autopilot_level == "greedy"


@pytest.mark.parametrize(("seats", "autopilot", "message"), [
    ([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True, level="genius")], None,
     "HAL's level 'genius' is not one of easy, greedy, strong"),
    ([SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")], "hard",
     "The autopilot's level 'hard' is not one of easy, greedy, strong"),
])
def test_an_unknown_level_is_refused_and_nothing_is_stored(
    server: Flask, seats: list[SeatSpec], autopilot: str | None, message: str,
) -> None:
    with pytest.raises(BadInput, match=message):
        _create(seats, autopilot_level=autopilot)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) == 0


@pytest.mark.slow
def test_a_strong_computer_seat_plays_a_factions_game_to_the_end(server: Flask) -> None:
    """Through the services (the human seat plays through the API); every move of the
    computer seat is the strong bot's at the game's budget (a small one: the test replays
    every choice), and the replay check is clean."""
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True,
                                                                 level="strong")],
                   options={"factions": True}, seed=23, bot_budget=12)
    play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished"
    assert games.verify_replay(game.id) == []
    choices = _choices_by(finished, 1)
    assert len(choices) > 20
    assert all(_chosen_by("strong", state, 1, finished.seed, budget=12) == action
               for state, action in choices)
    assert any(_chosen_by("greedy", state, 1, finished.seed) != action
               for state, action in choices), "the strong bot never differed from greedy"


def test_the_autopilot_plays_a_resigned_seat_at_the_hosts_level(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org"),
                    SeatSpec("Cy", "cy@example.org")], autopilot_level="greedy", seed=9)
    games.set_autopilot_level(game.id, "easy")
    assert fresh(game.id).autopilot_level == "easy"
    games.resign(game.id, 0)
    games.resign(game.id, 2)
    play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished" and games.verify_replay(game.id) == []
    choices = _choices_by(finished, 0) + _choices_by(finished, 2)
    seats = [0] * len(_choices_by(finished, 0)) + [2] * len(_choices_by(finished, 2))
    assert all(_chosen_by("easy", state, seat, finished.seed) == action
               for seat, (state, action) in zip(seats, choices, strict=True))
    assert any(_chosen_by("greedy", state, seat, finished.seed) != action
               for seat, (state, action) in zip(seats, choices, strict=True))


def test_setting_the_autopilot_level_checks_the_level_and_the_game(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")])
    version = fresh(game.id).version
    with pytest.raises(BadInput, match="not one of easy, greedy, strong"):
        games.set_autopilot_level(game.id, "brilliant")
    assert fresh(game.id).autopilot_level == "greedy" and fresh(game.id).version == version
    games.set_autopilot_level(game.id, "strong")
    assert fresh(game.id).autopilot_level == "strong" and fresh(game.id).version == version + 1


def _form(page: str, **extra: str) -> dict[str, str]:
    return {"csrf_token": hidden(page, "csrf_token"), "name": "Robots", "host_email":
            "host@example.net", "hours": "24", "seat-0-name": "Ana",
            "seat-0-email": "ana@example.net", "seat-1-name": "HAL", "seat-1-computer": "on",
            "seat-2-name": "Robo", "seat-2-computer": "on", **extra}


def test_the_create_form_offers_a_level_per_seat_and_for_the_autopilot(server: Flask) -> None:
    client = server.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    for i in range(5):
        assert f'<select id="seat-{i}-level" name="seat-{i}-level">' in page
    assert '<select id="autopilot_level" name="autopilot_level">' in page
    assert '<option value="greedy" selected>Greedy</option>' in page
    created = client.post("/games/new", data=_form(page, **{
        "seat-1-level": "strong", "seat-2-level": "easy", "autopilot_level": "strong",
        "seat-0-level": "easy"}))  # a person's level is ignored
    assert created.status_code == 303, created.get_data(as_text=True)[:1000]
    assert created.headers["Location"].endswith("/ready")  # post/redirect/get
    game = db.session.execute(sa.select(Game)).scalar_one()
    assert sorted((s.name, s.level) for s in game.seats) == [
        ("Ana", None), ("HAL", "strong"), ("Robo", "easy")]
    assert game.autopilot_level == "strong"


def test_the_create_form_refuses_an_unknown_level(server: Flask) -> None:
    client = server.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    for extra, message in (({"seat-1-level": "genius"}, "Choose a computer player"),
                           ({"autopilot_level": "genius"}, "Choose the autopilot")):
        refused = client.post("/games/new", data=_form(page, **extra))
        assert refused.status_code == 400
        assert message in refused.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def test_the_rematch_form_keeps_the_levels(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True,
                                                                 level="strong")],
                   autopilot_level="easy")
    page = server.test_client().get(
        f"/games/new?rematch={tokens.make_host_token(game.public_id)}").get_data(as_text=True)
    seat_1 = re.search(r'name="seat-1-level">(.*?)</select>', page)
    assert seat_1 and '<option value="strong" selected>' in seat_1.group(1)
    autopilot = re.search(r'name="autopilot_level">(.*?)</select>', page)
    assert autopilot and '<option value="easy" selected>' in autopilot.group(1)


def test_pages_show_the_level_beside_the_computer_seat(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True,
                                                                 level="strong"),
                    SeatSpec("Robo", None, True, level="easy")])
    client = server.test_client()
    host_url = f"/host/{tokens.make_host_token(game.public_id)}"
    for url in (f"/games/{game.public_id}", host_url):
        page = client.get(url).get_data(as_text=True)
        assert '<span class="name">HAL</span> <span class="tag">computer · Strong</span>' in page
        assert '<span class="name">Robo</span> <span class="tag">computer · Easy</span>' in page
    turn = client.get(f"/play/{link(game.id, 0)}").get_data(as_text=True)
    assert "Computer players: HAL (Strong), Robo (Easy)" in turn


def test_the_host_page_sets_the_autopilot_level(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")])
    client = server.test_client()
    host_url = f"/host/{tokens.make_host_token(game.public_id)}"
    page = client.get(host_url).get_data(as_text=True)
    chosen = re.search(r'name="autopilot_level">(.*?)</select>', page)
    assert chosen and '<option value="greedy" selected>' in chosen.group(1)
    token = hidden(page, "csrf_token")
    refused = client.post(f"{host_url}/autopilot",
                          data={"csrf_token": token, "autopilot_level": "genius"})
    assert refused.status_code == 400 and fresh(game.id).autopilot_level == "greedy"
    moved = client.post(f"{host_url}/autopilot",
                        data={"csrf_token": token, "autopilot_level": "strong"})
    assert moved.status_code == 303 and fresh(game.id).autopilot_level == "strong"
    page = client.get(host_url).get_data(as_text=True)
    chosen = re.search(r'name="autopilot_level">(.*?)</select>', page)
    assert chosen and '<option value="strong" selected>' in chosen.group(1)


def test_mail_score_lines_name_the_level(server: Flask) -> None:
    _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True, level="strong")])
    bodies = db.session.execute(sa.select(Outbox.text_body).where(
        Outbox.to_addr == "ana@example.org")).scalars().all()
    assert any("HAL (computer, Strong)" in body for body in bodies), bodies


def test_the_api_lists_the_seats_with_their_levels(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True,
                                                                 level="strong")],
                   autopilot_level="easy")
    answer = server.test_client().get(f"/api/games/{game.public_id}/players",
                                      headers=auth(link(game.id, 0)))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["players"] == [
        {"index": 0, "name": "Ana", "colour": "red", "computer": False, "level": None,
         "resigned": False},
        {"index": 1, "name": "HAL", "colour": "green", "computer": True, "level": "strong",
         "resigned": False}]
    assert body["autopilot_level"] == "easy"
    assert "ana@example.org" not in answer.get_data(as_text=True)


def test_the_players_request_needs_the_games_own_seat_link(server: Flask) -> None:
    game = _create([SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True)])
    other = _create([SeatSpec("Bo", "bo@example.org"), SeatSpec("Cy", "cy@example.org")])
    client = server.test_client()
    assert client.get(f"/api/games/{game.public_id}/players").status_code == 401
    wrong = client.get(f"/api/games/{game.public_id}/players", headers=auth(link(other.id, 0)))
    assert wrong.status_code in (401, 403, 404)
    assert "bo@example.org" not in wrong.get_data(as_text=True)


def test_the_cli_takes_levels(server: Flask) -> None:
    result = server.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Robots", "--fixed-order", "--base-game",
        "--player", "Ana <ana@example.org>", "--player", "bot:strong",
        "--player", "bot:easy:Robo", "--player", "bot:HAL", "--level", "strong",
        "--autopilot-level", "easy",
    ])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Computer (computer, strong)" in lines[2]
    assert "Robo (computer, easy)" in lines[3]
    assert "HAL (computer, strong)" in lines[4]  # --level: the seat that named none
    assert lines[-1] == "autopilot level: easy"
    game = db.session.execute(sa.select(Game)).scalar_one()
    assert [s.level for s in game.seats] == [None, "strong", "easy", "strong"]
    assert game.autopilot_level == "easy"


def test_the_cli_gives_levels_in_order_and_refuses_too_many(server: Flask) -> None:
    runner = server.test_cli_runner()
    result = runner.invoke(args=[
        "pbem", "new-game", "--name", "Two", "--fixed-order", "--base-game",
        "--player", "Ana <ana@example.org>", "--player", "bot", "--player", "bot:Robo",
        "--level", "easy", "--level", "strong"])
    assert result.exit_code == 0, result.output
    game = db.session.execute(sa.select(Game)).scalar_one()
    assert [s.level for s in game.seats] == [None, "easy", "strong"]
    for args, message in ((["--player", "bot", "--level", "easy", "--level", "strong"],
                           "2 levels for 1 computer seats"),
                          (["--player", "bot", "--level", "genius"], "genius"),
                          (["--player", "bot", "--autopilot-level", "x"], "x")):
        refused = runner.invoke(args=["pbem", "new-game", "--name", "Bad", "--base-game",
                                      "--player", "Ana <ana@example.org>", *args])
        assert refused.exit_code != 0 and message in refused.output, refused.output
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1
