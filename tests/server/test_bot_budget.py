"""The host's budget for the strong computer players (``games.bot_budget``, rollouts per
decision): chosen at creation or later on the host page, checked against
``engine.bots.levels``' range, used by every strong decision of the game, carried by the
rematch and the export. None is the strong bot's default (``strong.ROLLOUTS``, read when it
decides); the tests name it, never its number, which is being tuned."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.engine import bots
from pbem.engine.bots import Bot, levels, strong
from pbem.engine.bots.levels import (
    BUDGET_ERROR,
    MAX_BUDGET,
    MIN_BUDGET,
    check_budget,
    is_budget,
)
from pbem.engine.errors import InvalidAction
from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.schemas.forms import BOT_BUDGET_ERROR
from pbem.services import games, rematch, turns
from pbem.services.errors import BadInput, GameNotActive
from pbem.services.games import SeatSpec
from tests.web.conftest import hidden

from .conftest import BASE, auth, fresh, link, state_of

BAD_BUDGETS: list[Any] = [0, -3, MIN_BUDGET - 1, MAX_BUDGET + 1, True, 2.5, "12"]


def _create(seats: list[SeatSpec] | None = None, **extra: Any) -> Game:
    return games.create_game(
        name="Budget", host_email="ana@example.org",
        seats=seats or [SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")],
        options=BASE, seed=5, fixed_order=True, **extra)


def _games() -> int:
    return int(db.session.scalar(sa.select(sa.func.count()).select_from(Game)) or 0)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None, int | None]]:
    """Every bot the services build: (level, budget asked for, the strong bot's rollouts).
    It plays greedy, so a test is quick whatever the budget."""
    calls: list[tuple[str, int | None, int | None]] = []

    def recording(level: str, budget: int | None = None) -> Bot:
        bot = levels.bot_for(level, budget)
        calls.append((level, budget, bot.rollouts if isinstance(bot, strong.StrongBot)
                      else None))
        return bots.greedy_bot

    monkeypatch.setattr(turns, "bot_for", recording)
    return calls


# -- the range, in the engine's words ------------------------------------------------------


def test_the_range_is_the_levels_and_the_default_is_none() -> None:
    assert MIN_BUDGET == 1 and MAX_BUDGET >= MIN_BUDGET
    for budget in (MIN_BUDGET, MAX_BUDGET, (MIN_BUDGET + MAX_BUDGET) // 2):
        assert is_budget(budget) and check_budget(budget) == budget
    assert check_budget(None) is None and not is_budget(None)
    for bad in BAD_BUDGETS:
        assert not is_budget(bad)
        with pytest.raises(InvalidAction, match=re.escape(BUDGET_ERROR)):
            check_budget(bad)
    assert f"{MIN_BUDGET} to {MAX_BUDGET}" in BUDGET_ERROR


# -- the services -----------------------------------------------------------------------------


def test_a_new_game_keeps_its_budget_or_the_default(server: Flask) -> None:
    assert fresh(_create().id).bot_budget is None
    assert fresh(_create(bot_budget=MAX_BUDGET).id).bot_budget == MAX_BUDGET
    assert fresh(_create(bot_budget=MIN_BUDGET).id).bot_budget == MIN_BUDGET


@pytest.mark.parametrize("bad", BAD_BUDGETS)
def test_a_bad_budget_creates_nothing(server: Flask, bad: Any) -> None:
    with pytest.raises(BadInput, match=re.escape(BUDGET_ERROR)):
        _create(bot_budget=bad)
    assert _games() == 0
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) == 0


def test_the_host_changes_the_budget_and_a_bad_one_changes_nothing(server: Flask) -> None:
    game = _create()
    version = fresh(game.id).version
    for bad in BAD_BUDGETS:
        with pytest.raises(BadInput, match=re.escape(BUDGET_ERROR)):
            games.set_bot_budget(game.id, bad)
    assert (fresh(game.id).bot_budget, fresh(game.id).version) == (None, version)
    games.set_bot_budget(game.public_id, 120)
    assert (fresh(game.id).bot_budget, fresh(game.id).version) == (120, version + 1)
    games.set_bot_budget(game.id, None)  # back to the default
    assert (fresh(game.id).bot_budget, fresh(game.id).version) == (None, version + 2)


def test_an_ended_game_keeps_its_budget(server: Flask) -> None:
    game = _create(bot_budget=30)
    games.cancel_game(game.id)
    with pytest.raises(GameNotActive):
        games.set_bot_budget(game.id, 60)
    assert fresh(game.id).bot_budget == 30


def test_the_strong_level_decides_with_the_games_budget(
        server: Flask, built: list[tuple[str, int | None, int | None]]) -> None:
    game = _create(autopilot_level="strong", bot_budget=7)
    state = state_of(game.id)
    turns.bot_action(fresh(game.id), state, 0)  # the autopilot, for a person's seat
    games.set_bot_budget(game.id, 9)
    turns.bot_action(fresh(game.id), state, 0)
    games.set_bot_budget(game.id, None)
    turns.bot_action(fresh(game.id), state, 0)
    assert built == [("strong", 7, 7), ("strong", 9, 9), ("strong", None, strong.ROLLOUTS)]


def test_a_strong_computer_seat_plays_with_the_budget_from_its_first_move(
        server: Flask, built: list[tuple[str, int | None, int | None]]) -> None:
    """HAL sits first: it plays its whole first turn when the game is created, every
    decision with the game's budget; a greedy seat ignores the budget."""
    _create([SeatSpec("HAL", None, True, level="strong"), SeatSpec("Ana", "ana@example.org")],
            bot_budget=3)
    assert built and set(built) == {("strong", 3, 3)}
    built.clear()
    _create([SeatSpec("Robo", None, True, level="greedy"), SeatSpec("Ana", "ana@example.org")],
            bot_budget=3)
    assert built and set(built) == {("greedy", 3, None)}


# -- rematch and archive ------------------------------------------------------------------


def test_the_rematch_keeps_the_budget(server: Flask) -> None:
    for budget in (150, None):
        game = _create(bot_budget=budget, autopilot_level="easy")
        game.status = "finished"  # as if played out (the rematch reads only the status)
        db.session.commit()
        new = rematch.start_rematch(game.id)
        assert (fresh(new.id).bot_budget, fresh(new.id).autopilot_level) == (budget, "easy")


def test_the_rematch_pages_show_the_budget(server: Flask) -> None:
    game = _create(bot_budget=150)
    token = tokens.make_host_token(game.public_id)
    client = server.test_client()
    form = client.get(f"/games/new?rematch={token}").get_data(as_text=True)
    assert re.search(r'<input [^>]*name="bot_budget"[^>]* value="150"', form)
    game = fresh(game.id)
    game.status = "finished"
    db.session.commit()
    page = client.get(f"/host/{token}/rematch").get_data(as_text=True)
    assert "strong computer players take 150 rollouts per decision" in page


def _roundtrip(data: dict[str, Any]) -> Game:
    return games.import_game(json.loads(json.dumps(data)))


def test_the_budget_travels_with_the_export(server: Flask) -> None:
    chosen = _create(bot_budget=64)
    data = games.export_game(chosen.id)
    assert data["bot_budget"] == 64
    assert _roundtrip(data).bot_budget == 64
    assert _roundtrip(games.export_game(_create().id)).bot_budget is None


def test_an_export_from_before_the_budget_imports_with_the_default(server: Flask) -> None:
    data = games.export_game(_create(bot_budget=64).id)
    del data["bot_budget"]
    assert _roundtrip(data).bot_budget is None


@pytest.mark.parametrize("bad", [0, MAX_BUDGET + 1, "64", 6.5, True])
def test_an_export_with_a_bad_budget_is_refused(server: Flask, bad: Any) -> None:
    data = games.export_game(_create().id)
    data["bot_budget"] = bad
    with pytest.raises(BadInput, match="budget"):
        _roundtrip(data)
    assert _games() == 1


# -- the pages, the API and the CLI -------------------------------------------------------


def _field(page: str) -> str:
    found = re.search(r'<input [^>]*name="bot_budget"[^>]*>', page)
    assert found, "no bot_budget field"
    return found.group(0)


def _labelled_and_described(page: str) -> None:
    field = _field(page)
    assert 'id="bot_budget"' in field and '<label for="bot_budget">' in page
    assert 'aria-describedby="bot_budget-hint' in field
    assert f'min="{MIN_BUDGET}"' in field and f'max="{MAX_BUDGET}"' in field
    hint = re.search(r'<p class="hint" id="bot_budget-hint">(.*?)</p>', page, re.S)
    assert hint and "stronger and slower" in hint.group(1)
    assert f"the default, {strong.ROLLOUTS}" in hint.group(1)


def _new_game(page: str, **extra: str) -> dict[str, str]:
    return {"csrf_token": hidden(page, "csrf_token"), "name": "Robots",
            "host_email": "host@example.net", "hours": "24", "seat-0-name": "Ana",
            "seat-0-email": "ana@example.net", "seat-1-name": "Bo",
            "seat-1-email": "bo@example.net", **extra}


def test_the_create_form_takes_the_budget(server: Flask) -> None:
    client = server.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    _labelled_and_described(page)
    assert 'value=""' in _field(page)
    for typed, stored in (("150", 150), (" 12 ", 12), ("", None)):
        created = client.post("/games/new", data=_new_game(page, bot_budget=typed))
        assert created.status_code == 303, created.get_data(as_text=True)[:1000]
        newest = db.session.scalars(sa.select(Game).order_by(Game.id.desc())).first()
        assert newest is not None and newest.bot_budget == stored
    assert client.post("/games/new", data=_new_game(page)).status_code == 303  # no field
    assert db.session.scalars(sa.select(Game).order_by(Game.id.desc())).first().bot_budget \
        is None


@pytest.mark.parametrize("typed", ["0", "-4", str(MAX_BUDGET + 1), "lots", "2.5"])
def test_the_create_form_refuses_a_bad_budget(server: Flask, typed: str) -> None:
    client = server.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    refused = client.post("/games/new", data=_new_game(page, bot_budget=typed))
    assert refused.status_code == 400
    body = refused.get_data(as_text=True)
    error = re.search(r'<p class="field-error" id="bot_budget-error">([^<]*)</p>', body)
    assert error and error.group(1) == BOT_BUDGET_ERROR.replace("'", "&#39;")
    assert "bot_budget-error" in _field(body) and 'aria-invalid="true"' in _field(body)
    assert f'value="{typed}"' in _field(body)  # what was typed, to correct
    assert _games() == 0


def test_the_host_page_sets_the_budget(server: Flask) -> None:
    game = _create()
    client = server.test_client()
    host_url = f"/host/{tokens.make_host_token(game.public_id)}"
    page = client.get(host_url).get_data(as_text=True)
    _labelled_and_described(page)
    csrf = hidden(page, "csrf_token")
    version = fresh(game.id).version
    for bad in ("0", "-1", str(MAX_BUDGET + 1), "many"):
        refused = client.post(f"{host_url}/bot-budget", data={"csrf_token": csrf,
                                                             "bot_budget": bad})
        assert refused.status_code == 400
        assert "rollouts per decision" in refused.get_data(as_text=True)
    missing = client.post(f"{host_url}/bot-budget", data={"csrf_token": csrf})
    assert missing.status_code == 400
    assert (fresh(game.id).bot_budget, fresh(game.id).version) == (None, version)
    moved = client.post(f"{host_url}/bot-budget", data={"csrf_token": csrf, "bot_budget": "80"})
    assert moved.status_code == 303 and moved.headers["Location"].endswith(host_url)
    assert fresh(game.id).bot_budget == 80
    page = client.get(host_url).get_data(as_text=True)
    assert 'value="80"' in _field(page) and "Now: 80." in page
    client.post(f"{host_url}/bot-budget", data={"csrf_token": csrf, "bot_budget": " "})
    assert fresh(game.id).bot_budget is None


def test_the_api_lists_the_budget(server: Flask) -> None:
    game = _create(bot_budget=40)
    answer = server.test_client().get(f"/api/games/{game.public_id}/players",
                                      headers=auth(link(game.id, 0)))
    assert answer.status_code == 200 and answer.get_json()["bot_budget"] == 40


def test_the_cli_takes_the_budget(server: Flask) -> None:
    runner = server.test_cli_runner()
    args = ["pbem", "new-game", "--name", "Robots", "--base-game",
            "--player", "Ana <ana@example.org>", "--player", "bot:easy"]
    result = runner.invoke(args=[*args, "--bot-budget", "90"])
    assert result.exit_code == 0, result.output
    assert "strong computer players: 90 rollouts per decision" in result.output
    assert db.session.execute(sa.select(Game)).scalar_one().bot_budget == 90
    refused = runner.invoke(args=[*args, "--bot-budget", "0"])
    assert refused.exit_code != 0 and BUDGET_ERROR in refused.output, refused.output
    assert _games() == 1
