"""Errors map to responses in one place; the API is rate-limited coarsely."""

from __future__ import annotations

from flask import Flask

from pbem.services.errors import StaleVersion
from pbem.web.blueprints.errors import error_response

from .conftest import auth, fresh, link, start


def test_pages_get_the_error_page_with_the_message_escaped(server: Flask) -> None:
    with server.test_request_context("/play/x"):
        page, status = error_response(409, "stale", "<b>moved on</b>")
    assert status == 409
    assert "&lt;b&gt;moved on&lt;/b&gt;" in page and "<b>moved on" not in page


def test_the_api_gets_json_for_unknown_routes(server: Flask) -> None:
    response = server.test_client().get("/api/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["error"] == "not_found"


def test_service_errors_carry_their_status(server: Flask) -> None:
    assert StaleVersion(3).status == 409


def test_the_api_is_rate_limited(server: Flask) -> None:
    server.config.update(API_RATE_LIMIT=2, API_RATE_WINDOW=60)
    game = start(2)
    url, headers = f"/api/games/{fresh(game.id).public_id}/seat", auth(link(game.id, 0))
    client = server.test_client()
    assert [client.get(url, headers=headers).status_code for _ in range(3)] == [200, 200, 429]
    limited = client.get(url, headers=headers)
    assert limited.get_json()["error"] == "too_many_requests"
    assert int(limited.headers["Retry-After"]) >= 1


def test_the_seat_view_shows_legal_moves_in_both_forms(server: Flask) -> None:
    game = start(2)
    body = server.test_client().get(f"/api/games/{fresh(game.id).public_id}/seat",
                                    headers=auth(link(game.id, 0))).get_json()
    assert body["version"] == 1 and body["awaiting"] == 0 and body["seat"]["index"] == 0
    assert {"action": {"kind": "dock", "seat": 0, "facility": "solar_converter",
                       "values": [1], "relic": None, "launch": False},
            "notation": "dock 1 solar_converter"} in body["legal"]
    assert "legal" not in body["view"] and "deck" not in body["view"]
