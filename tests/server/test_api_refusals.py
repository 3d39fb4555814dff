"""Every refusal of the JSON API answers with a readable reason and changes nothing:
not the state, the version, the log, the turn in progress, the seats or the outbox."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from pbem import tokens
from pbem.extensions import db
from pbem.services import games, links

from .conftest import auth, fresh, link, snapshot, start

LEGAL = "dock 1 solar_converter"  # seed 11, two seats: red rolled 2, 1, 4
ILLEGAL = "trade 1"


def _post(client: Any, game_id: int, token: str, **body: Any) -> Any:
    public_id = fresh(game_id).public_id
    return client.post(f"/api/games/{public_id}/actions", json=body, headers=auth(token))


class _OldSigner(TimestampSigner):
    def get_timestamp(self) -> int:
        return int(time.time()) - 10 * 24 * 3600


def _forged(game_id: int, app: Flask) -> str:
    game = fresh(game_id)
    return URLSafeTimedSerializer("not-our-key", salt="pbem.seat_link").dumps(
        [game.public_id, 0, 0])


def _tampered(game_id: int, app: Flask) -> str:
    token = link(game_id, 0)
    payload, rest = token.split(".", 1)
    return ("A" if payload[0] != "A" else "B") + payload[1:] + "." + rest


def _expired(game_id: int, app: Flask) -> str:
    app.config["SEAT_LINK_MAX_AGE"] = 24 * 3600
    game = fresh(game_id)
    keys = [app.config["SECRET_KEY"]]
    serializer = URLSafeTimedSerializer(keys, salt="pbem.seat_link", signer=_OldSigner)
    return serializer.dumps([game.public_id, 0, 0])


def _revoked(game_id: int, app: Flask) -> str:
    token = link(game_id, 0)
    links.revoke_seat_links(fresh(game_id).seat(0))
    db.session.commit()
    return token


def _other_game(game_id: int, app: Flask) -> str:
    other = start(2, seed=12)
    return link(other.id, 0)


def _missing(game_id: int, app: Flask) -> str:
    return ""


# case -> (make the token, status, reason). A signature cannot tell forged from tampered.
BAD_LINKS: dict[str, tuple[Callable[[int, Flask], str], int, str]] = {
    "forged": (_forged, 401, "forged"),
    "tampered": (_tampered, 401, "forged"),
    "expired": (_expired, 401, "expired"),
    "revoked": (_revoked, 401, "revoked"),
    "other_game": (_other_game, 403, "other_game"),
    "missing": (_missing, 401, "missing"),
}


@pytest.mark.parametrize("case", list(BAD_LINKS))
def test_a_bad_seat_link_is_refused_and_nothing_changes(server: Flask, case: str) -> None:
    game = start(2)
    make, status, reason = BAD_LINKS[case]
    token = make(game.id, server)
    before = snapshot(game.id)
    client = server.test_client()
    response = _post(client, game.id, token, version=before["version"], notation=LEGAL)
    assert response.status_code == status
    body = response.get_json()
    assert body["reason"] == reason
    assert body["message"] == tokens.REASONS[reason]
    assert client.get(f"/api/games/{fresh(game.id).public_id}/seat",
                      headers=auth(token)).status_code == status
    assert snapshot(game.id) == before


def test_an_action_naming_another_seat_is_refused(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0), version=1,
                     action={"kind": "dock", "seat": 1, "facility": "solar_converter",
                             "values": [1]})
    assert response.status_code == 403
    assert "another player's seat" in response.get_json()["message"]
    assert snapshot(game.id) == before



def test_a_stale_version_is_refused_with_the_current_version(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0),
                     version=before["version"] + 5, notation=LEGAL)
    assert response.status_code == 409
    assert response.get_json()["current_version"] == before["version"]
    assert snapshot(game.id) == before


def test_a_double_submit_applies_once(server: Flask) -> None:
    game = start(2)
    client, token = server.test_client(), link(game.id, 0)
    first = _post(client, game.id, token, version=1, notation=LEGAL)
    assert first.status_code == 200
    after_first = snapshot(game.id)
    second = _post(client, game.id, token, version=1, notation=LEGAL)
    assert second.status_code == 409
    assert second.get_json() == {
        "error": "stale", "current_version": 2, "message": second.get_json()["message"]}
    assert snapshot(game.id) == after_first
    assert len(after_first["turn_steps"]) == 1


def test_an_illegal_move_gets_the_engine_sentence(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0), version=1,
                     notation=ILLEGAL)
    assert response.status_code == 422
    body = response.get_json()
    help_url = "http://localhost/help/notation"  # a typed move: how to write one (issue 26)
    assert body["message"] == ("Orbital Market: dock a pair there first to trade. "
                               f"How to write a move: {help_url}")
    assert body["kind"] == "IllegalAction" and body["help"] == help_url
    assert snapshot(game.id) == before


def test_unreadable_notation_is_422_with_the_reason(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0), version=1,
                     notation="dock seven shipyard")
    assert response.status_code == 422
    assert response.get_json()["kind"] == "InvalidAction"
    assert response.get_json()["message"].endswith(" How to write a move: "
                                                   "http://localhost/help/notation")
    assert server.test_client().get("/help/notation").status_code == 200
    assert snapshot(game.id) == before


def test_it_is_not_your_turn(server: Flask) -> None:
    game = start(2)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 1), version=1,
                     notation="end")
    assert response.status_code == 422
    assert response.get_json() == {
        "error": "rules", "kind": "NotYourTurn", "message": "It is not your turn to act."}
    assert snapshot(game.id) == before


def test_a_finished_game_takes_no_moves(server: Flask) -> None:
    game = start(2, bot_seats=(0, 1))  # computers play it to the end at once
    assert fresh(game.id).status == "finished"
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0),
                     version=before["version"], notation="end")
    assert response.status_code == 409
    assert response.get_json()["error"] == "not_active"
    assert snapshot(game.id) == before


def test_a_cancelled_game_takes_no_moves(server: Flask) -> None:
    game = start(2)
    games.cancel_game(game.id)
    before = snapshot(game.id)
    response = _post(server.test_client(), game.id, link(game.id, 0),
                     version=before["version"], notation=LEGAL)
    assert response.status_code == 409
    assert snapshot(game.id) == before


@pytest.mark.parametrize("body", [
    {"notation": LEGAL},
    {"version": 1},
    {"version": 1, "notation": LEGAL, "action": {"kind": "cycle"}},
    {"version": "1", "notation": LEGAL},
    {"version": 1, "notation": LEGAL, "extra": True},
    ["not", "an", "object"],
])
def test_malformed_bodies_are_400(server: Flask, body: Any) -> None:
    game = start(2)
    before = snapshot(game.id)
    public_id = fresh(game.id).public_id
    response = server.test_client().post(
        f"/api/games/{public_id}/actions", json=body, headers=auth(link(game.id, 0)))
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_input"
    assert snapshot(game.id) == before
