"""Fixtures and helpers for the server core: games made through the services, seat links,
a driver that plays through the JSON API, and snapshots to prove refusals change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import engine, tokens
from pbem.engine import GameState, bots
from pbem.extensions import db
from pbem.models import ActionLog, Game, Outbox
from pbem.services import games
from pbem.services.games import SeatSpec

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")
BASE = {"factions": False}  # the base game: seat 0 rolls at once (Factions opens with a draft)


@pytest.fixture
def server(app: Flask) -> Iterator[Flask]:
    """The app (rows emptied, no rate limit) with an app context pushed for the test."""
    app.config["API_RATE_LIMIT"] = 0
    with app.app_context():
        yield app


def seat_specs(players: int, bot_seats: tuple[int, ...] = ()) -> list[SeatSpec]:
    return [
        SeatSpec(NAMES[i], None, is_bot=True) if i in bot_seats
        else SeatSpec(NAMES[i], f"{NAMES[i].lower()}@example.org")
        for i in range(players)
    ]


def start(players: int = 2, *, bot_seats: tuple[int, ...] = (), seed: int = 11,
          options: dict[str, Any] | None = None) -> Game:
    """A game in the order given (seat i is NAMES[i]) with a known seed; base game unless
    ``options`` say otherwise."""
    return games.create_game(
        name=f"{players}-seat test", host_email="ana@example.org",
        seats=seat_specs(players, bot_seats), options=BASE if options is None else options,
        seed=seed, fixed_order=True,
    )


def fresh(game_id: int) -> Game:
    """The game as committed now (the test's session may hold an older copy)."""
    db.session.rollback()
    db.session.expire_all()
    return db.session.get_one(Game, game_id)


def state_of(game_id: int) -> GameState:
    return GameState.from_json(fresh(game_id).state)


def link(game_id: int, seat: int) -> str:
    game = fresh(game_id)
    return tokens.make_seat_link(game, game.seat(seat))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def snapshot(game_id: int) -> dict[str, Any]:
    """Everything a refusal must leave alone."""
    game = fresh(game_id)
    log = db.session.execute(
        sa.select(ActionLog.seq, ActionLog.notation).where(ActionLog.game_id == game_id)
        .order_by(ActionLog.seq)
    ).all()
    outbox = db.session.execute(sa.select(sa.func.count()).select_from(Outbox)).scalar_one()
    return {
        "state": game.state, "version": game.version, "status": game.status,
        "turn_steps": game.turn_steps, "turn_start_state": game.turn_start_state,
        "log": [tuple(row) for row in log], "outbox": outbox,
        "seats": [(s.link_counter, s.resigned) for s in game.seats],
    }


def bot_choice(state: GameState, seat: int) -> engine.Action:
    """What a script decides from the seat's own knowledge (never the deck order)."""
    return bots.greedy_bot(bots.redacted(state, seat), seat, [seat, state.step])


def play_through_api(client: FlaskClient, game_id: int, max_steps: int = 3000) -> int:
    """Play every human seat through the API until the game ends; returns steps posted."""
    game = fresh(game_id)
    public_id, players = game.public_id, game.players
    links = [link(game_id, seat) for seat in range(players)]
    for posted in range(max_steps):
        body = client.get(f"/api/games/{public_id}/seat", headers=auth(links[0])).get_json()
        if body["status"] != "active":
            return posted
        seat = body["awaiting"]
        mine = client.get(f"/api/games/{public_id}/seat", headers=auth(links[seat])).get_json()
        action = bot_choice(state_of(game_id), seat)
        as_json = engine.action_to_json(action)
        assert as_json in [entry["action"] for entry in mine["legal"]]
        payload: dict[str, Any] = {"version": mine["version"]}
        if posted % 2:
            payload["notation"] = engine.format_action(action)
        else:
            payload["action"] = as_json
        response = client.post(f"/api/games/{public_id}/actions", json=payload,
                               headers=auth(links[seat]))
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the game did not end")
