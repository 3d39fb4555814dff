"""Table talk in the game's export (format pbem-game/1, issue 27): the export carries the
table and the import restores it; an export from before table talk still imports; a message
is not a move, so `pbem verify` and the replay never read it."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.extensions import db
from pbem.models import TableMessage
from pbem.services import games, play, table_talk
from pbem.services.errors import BadInput

from .conftest import bot_choice, fresh, start, state_of


def _said(game_id: int) -> list[tuple[int, str, bool, int]]:
    db.session.rollback()
    return [(r.seat, r.text, r.hidden, r.log_seq) for r in db.session.scalars(
        sa.select(TableMessage).where(TableMessage.game_id == game_id)
        .order_by(TableMessage.id))]


def _a_turn(game_id: int) -> None:
    seat = engine.awaited(state_of(game_id))
    while engine.awaited(state_of(game_id)) == seat:
        game = fresh(game_id)
        play.play(game_id, seat, game.version, bot_choice(state_of(game_id), seat))


def _file(game_id: int) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(games.export_game(game_id)))
    return loaded


def test_the_export_carries_the_table_and_the_import_restores_it(server: Flask) -> None:
    game = start(3)
    table_talk.post(game.id, 0, "gl hf")
    _a_turn(game.id)
    rude = table_talk.post(game.id, 1, "rude <b>words</b>")
    table_talk.hide(game.id, rude.id)
    gone = table_talk.post(game.id, 2, "typo")
    table_talk.delete(game.id, 2, gone.id)
    table_talk.post(game.id, 2, "gg\nsee you")
    data = _file(game.id)
    assert [(m["seat"], m["text"], m["hidden"]) for m in data["messages"]] == [
        (0, "gl hf", False), (1, "rude <b>words</b>", True), (2, "gg\nsee you", False)]
    copy = games.import_game(data)
    assert _said(copy.id) == [row for row in _said(game.id) if row[1] != ""]
    assert games.verify_replay(copy.id) == []


def test_an_export_from_before_table_talk_still_imports(server: Flask) -> None:
    game = start(2)
    table_talk.post(game.id, 0, "hello")
    data = _file(game.id)
    del data["messages"]
    copy = games.import_game(data)
    assert _said(copy.id) == [] and copy.state == fresh(game.id).state


@pytest.mark.parametrize(("change", "words"), [
    ({"seat": 7}, "seat is not one of the game's"),
    ({"text": ""}, "Write something first"),
    ({"text": "x" * 1001}, "at most 1,000 characters"),
    ({"posted_at": "yesterday"}, "message 1"),
    ({"log_seq": 10_000}, "place in the log"),
])
def test_an_export_with_a_bad_message_is_refused_and_nothing_is_stored(
        server: Flask, change: dict[str, Any], words: str) -> None:
    game = start(2)
    table_talk.post(game.id, 0, "hello")
    data = _file(game.id)
    data["messages"][0].update(change)
    with pytest.raises(BadInput, match="table talk") as refused:
        games.import_game(data)
    assert words in refused.value.message
    db.session.rollback()
    assert db.session.scalar(sa.select(sa.func.count(TableMessage.id))) == 1


def test_messages_are_not_moves_verify_never_reads_them(server: Flask) -> None:
    game = start(2)
    _a_turn(game.id)
    for n in range(5):
        table_talk.post(game.id, n % 2, f"dock 1 solar_converter {n}")
    assert games.verify_replay(game.id) == []
    data = _file(game.id)
    assert [row["seq"] for row in data["log"]] == list(range(1, len(data["log"]) + 1))
    assert len(data["messages"]) == 5
    assert games.verify_replay(games.import_game(data).id) == []


def test_pbem_verify_export_and_import_on_the_command_line_keep_the_table(
        server: Flask, tmp_path: Any) -> None:
    game = start(2)
    _a_turn(game.id)
    table_talk.post(game.id, 1, "say it with notation: end")
    runner = server.test_cli_runner()
    verified = runner.invoke(args=["pbem", "verify", game.public_id])
    assert verified.exit_code == 0 and "replay matches" in verified.output
    exported = runner.invoke(args=["pbem", "export", str(game.id)])
    path = tmp_path / "game.json"
    path.write_text(exported.output)
    imported = runner.invoke(args=["pbem", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    new_id = imported.output.split()[-1]
    copy = games.export_game(new_id)
    assert [m["text"] for m in copy["messages"]] == ["say it with notation: end"]
    assert games.verify_replay(new_id) == []
