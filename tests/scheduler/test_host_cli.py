"""``pbem pause / resume / extend / substitute``: the host's clock commands."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.scheduler.conftest import game_of, new_game

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def _run(app: Flask, *args: str) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=["pbem", *args])
    return result.exit_code, result.output


def test_pause_resume_extend_and_substitute_from_the_command_line(clock_app: Flask) -> None:
    game_id = new_game()
    public_id = game_of(game_id).public_id
    assert _run(clock_app, "pause", public_id) == (0, f"paused: {public_id}\n")
    assert game_of(game_id).status == "paused"
    code, output = _run(clock_app, "pause", public_id)
    assert code == 1 and "paused" in output
    assert _run(clock_app, "resume", str(game_id))[0] == 0
    code, output = _run(clock_app, "extend", public_id, "--hours", "6")
    assert code == 0 and output.startswith("new deadline: 2026-03-04T15:00:00")
    code, output = _run(clock_app, "substitute", public_id, "2", "dora@example.org")
    assert code == 0 and "dora@example.org" in output
    assert game_of(game_id).seat(2).email == "dora@example.org"
    code, output = _run(clock_app, "substitute", public_id, "2", "not-an-address")
    assert code == 1


def test_the_host_page_pauses_extends_and_substitutes(clock_app: Flask) -> None:
    from pbem import tokens

    game_id = new_game()
    game = game_of(game_id)
    token = tokens.make_host_token(game.public_id)
    clock_app.config["WTF_CSRF_ENABLED"] = False
    client = clock_app.test_client()
    page = client.get(f"/host/{token}")
    assert page.status_code == 200 and b"Pause the game" in page.data
    assert client.post(f"/host/{token}/extend", data={"hours": "5"}).status_code == 303
    assert client.post(f"/host/{token}/pause").status_code == 303
    assert game_of(game_id).status == "paused"
    assert b"Resume the game" in client.get(f"/host/{token}").data
    assert client.post(f"/host/{token}/resume").status_code == 303
    response = client.post(f"/host/{token}/substitute",
                           data={"seat": "1", "email": "dora@example.org", "name": "Dora"})
    assert response.status_code == 303
    assert game_of(game_id).seat(1).name == "Dora"
    assert client.post(f"/host/{token}/extend", data={"hours": "x"}).status_code == 400
