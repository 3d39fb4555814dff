"""Undo takes back steps of the turn in progress, but never one that revealed new dice or
cards (ruling: undo stops at information barriers)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from pbem import engine
from pbem.services import play
from pbem.services.errors import NotAllowed

from .conftest import auth, fresh, link, snapshot, start


def _act(game_id: int, seat: int, text: str) -> None:
    game = fresh(game_id)
    play.play(game_id, seat, game.version, engine.parse_action(text, seat, 2))


def _undo(client: Any, game_id: int, seat: int) -> Any:
    game = fresh(game_id)
    return client.post(f"/api/games/{game.public_id}/undo", headers=auth(link(game_id, seat)),
                       json={"version": game.version})


def test_undo_restores_the_state_before_the_step(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    _act(game.id, 0, "dock 1 solar_converter")
    _act(game.id, 0, "dock 2 lunar_mine")
    response = _undo(server.test_client(), game.id, 0)
    assert response.status_code == 200
    body = response.get_json()
    assert body["undone"]["notation"] == "dock 2 lunar_mine"
    assert body["can_undo"] is True
    assert _undo(server.test_client(), game.id, 0).status_code == 200
    after = snapshot(game.id)
    assert after["state"] == before["state"]
    assert after["turn_steps"] == [] and after["log"] == before["log"]
    assert after["version"] == before["version"] + 4


def test_undo_goes_back_to_a_barrier_and_refuses_across_it(server: Flask) -> None:
    game = start(2)
    _act(game.id, 0, "dock 4 alien_artifact")
    _act(game.id, 0, "cycle")  # deals three new cards: a barrier
    _act(game.id, 0, "dock 1 solar_converter")
    client = server.test_client()
    assert _undo(client, game.id, 0).status_code == 200
    before = snapshot(game.id)
    response = _undo(client, game.id, 0)
    assert response.status_code == 403
    assert response.get_json()["message"] == (
        "'cycle' revealed new dice or cards, so it cannot be undone.")
    assert snapshot(game.id) == before


def test_nothing_to_undo_at_the_start_of_a_turn(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    with pytest.raises(NotAllowed, match="nothing of yours to undo"):
        play.undo(game.id, 0, before["version"])
    assert snapshot(game.id) == before


def test_another_seat_cannot_undo_my_step(server: Flask) -> None:
    game = start(2)
    _act(game.id, 0, "dock 1 solar_converter")
    before = snapshot(game.id)
    assert _undo(server.test_client(), game.id, 1).status_code == 403
    assert snapshot(game.id) == before


def test_a_stale_undo_is_refused(server: Flask) -> None:
    game = start(2)
    _act(game.id, 0, "dock 1 solar_converter")
    before = snapshot(game.id)
    response = server.test_client().post(
        f"/api/games/{fresh(game.id).public_id}/undo", headers=auth(link(game.id, 0)),
        json={"version": 1})
    assert response.status_code == 409
    assert snapshot(game.id) == before
