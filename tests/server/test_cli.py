"""``pbem new-game``, ``verify``, ``export`` and ``import``."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask

from pbem.services import games

from .conftest import start


def test_new_game_prints_the_id_and_the_links(server: Flask) -> None:
    result = server.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Friday", "--player", "Ana <ana@example.org>",
        "--player", "bot", "--player", "bo@example.org", "--hours", "24", "--fixed-order",
        "--base-game",
    ])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("game ") and "3 seats, host ana@example.org" in lines[0]
    assert "Ana <ana@example.org>" in lines[1] and "/play/" in lines[1]
    assert "Computer (computer, greedy)" in lines[2] and "/play/" not in lines[2]
    assert "bo <bo@example.org>" in lines[3] and "/play/" in lines[3]
    assert lines[4] == "options: base game (no Factions), 24 hours per move"
    assert lines[5] == "autopilot level: greedy"


def test_new_game_with_factions_and_the_low_new_gaia_rescue(server: Flask) -> None:
    result = server.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Five", "--fixed-order", "--new-gaia-rescue", "low",
        *[arg for n in "abcde" for arg in ("--player", f"{n} <{n}@example.org>")],
    ])
    assert result.exit_code == 0, result.output
    assert "5 seats" in result.output and "seat 4 purple" in result.output
    assert "options: Factions on, New Gaia rescue on 1–3" in result.output


def test_new_game_warns_when_two_seats_share_an_address(server: Flask) -> None:
    """Issue 26: allowed (a couple may share a mailbox), but said at creation."""
    result = server.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "Shared", "--player", "Ana <ana@example.org>",
        "--player", "Ben <Ana@Example.org>", "--base-game", "--fixed-order"])
    assert result.exit_code == 0, result.output
    assert "warning: Ana and Ben have the same address (ana@example.org)" in result.stderr


def test_new_game_refuses_bad_players(server: Flask) -> None:
    result = server.test_cli_runner().invoke(args=[
        "pbem", "new-game", "--name", "X", "--player", "Ana <ana@example.org>"])
    assert result.exit_code != 0 and "takes 2 to 5 players" in result.output


def test_verify_export_import(server: Flask, tmp_path: Path) -> None:
    game = start(2, bot_seats=(0, 1))
    runner = server.test_cli_runner()
    verified = runner.invoke(args=["pbem", "verify", game.public_id])
    assert verified.exit_code == 0 and "replay matches" in verified.output
    exported = runner.invoke(args=["pbem", "export", str(game.id)])
    assert exported.exit_code == 0
    path = tmp_path / "game.json"
    path.write_text(exported.output)
    imported = runner.invoke(args=["pbem", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    new_id = imported.output.split()[-1]
    assert games.verify_replay(new_id) == []
    assert json.loads(exported.output)["state_sha256"] == games.export_game(new_id)[
        "state_sha256"]


def test_verify_fails_on_an_unknown_game(server: Flask) -> None:
    result = server.test_cli_runner().invoke(args=["pbem", "verify", "nope"])
    assert result.exit_code != 0 and "no such game" in result.output


def test_game_ids_never_start_with_a_dash(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An id like ``-Xq…`` would be read as an option by ``pbem verify <id>``."""
    from pbem.models import game as game_module

    tokens = iter(["-starts-with-a-dash-0", "ordinary_id_0123456789"])
    monkeypatch.setattr(game_module.secrets, "token_urlsafe", lambda n: next(tokens))
    assert game_module.new_public_id() == "ordinary_id_0123456789"
