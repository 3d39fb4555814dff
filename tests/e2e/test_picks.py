"""Issue 12 in a real browser: a move made of any subset of ships is played by ticking
checkboxes (the view's `picks`) and one submit, through the signed form, and `check` judges it.

Ana (seat 0) holds the Plasma Cannon and the Temporal Warper with 5 fuel; two of Ben's ships
showing 2 share the Shipyard's group. She shoots both (base-game.md E31's own move), then
re-rolls two of her three unplaced ships.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from werkzeug.serving import make_server

from pbem import tokens
from pbem.engine import GameState
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

BEN_AT_SHIPYARD = (6, 7)  # two of Ben's ships (seat 1), by index in state["ships"]


def _set_position(data: dict[str, Any]) -> dict[str, Any]:
    """Ana gets the Plasma Cannon (from the deck or the display) and 5 fuel; two of Ben's
    ships showing 2 dock together at the Shipyard."""
    state = GameState.from_json(data)
    for pile in (state.deck, state.display):
        if "plasma_cannon" in pile:
            pile.remove("plasma_cannon")
            break
    state.seats[0].cards.append("plasma_cannon")
    state.seats[0].fuel = 5
    for i in BEN_AT_SHIPYARD:
        ship = state.ships[i]
        assert ship.owner == 1
        ship.loc, ship.slot, ship.value = "shipyard", 0, 2
    return state.to_json()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[dict[str, Any]]:
    app = build_app(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", tmp_path / "instance")
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="Subset Shot", host_email="host@example.com",
            seats=[SeatSpec("Ana", "ana@example.com"), SeatSpec("Ben", "ben@example.com"),
                   SeatSpec("Cy", None, is_bot=True)],
            options={"factions": False}, seed=20240601, fixed_order=True,
        )
        game.state = _set_position(dict(game.state))
        db.session.commit()
        link = tokens.make_seat_link(game, game.seat(0))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"app": app, "turn": f"http://127.0.0.1:{server.server_port}/play/{link}"}
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _last(app: Any) -> tuple[dict[str, Any], GameState]:
    """The last action played this turn (its JSON form) and the game's state now."""
    with app.app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        assert game.turn_steps, "nothing was played"
        return dict(game.turn_steps[-1]["action"]), GameState.from_json(game.state)


def _tick_and_play(page: Any, legend: str, boxes: int) -> None:
    form = page.locator("form.pick-form", has=page.locator(f"legend:has-text('{legend}')"))
    assert form.count() == 1, page.locator("form.pick-form legend").all_inner_texts()
    ticks = form.locator("input[type=checkbox]")
    assert ticks.count() >= boxes
    for i in range(boxes):
        ticks.nth(i).check()
    with page.expect_navigation():
        form.locator("button.pick-submit").click()
    page.wait_for_load_state()
    refused = page.locator(".notice")
    assert not refused.count() or "not played" not in refused.first.inner_text(), \
        refused.first.inner_text()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_two_ship_shot_and_a_two_of_three_reroll_by_ticking(live: dict[str, Any],
                                                              javascript: bool) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740},
                                      java_script_enabled=javascript)
        page = context.new_page()
        page.goto(live["turn"])
        assert "your turn" in page.locator(".status-line").inner_text()

        _tick_and_play(page, "Plasma Cannon at the Shipyard", 2)
        action, state = _last(live["app"])
        assert action["kind"] == "use_plasma_cannon" and action["ships"] == [2, 2]
        assert [state.ships[i].loc for i in BEN_AT_SHIPYARD] == ["maintenance_bay"] * 2
        assert state.seats[0].fuel == 3  # 1 fuel a ship
        if not javascript:
            page.screenshot(path=str(ARTIFACTS / "turn-page-picks.png"), full_page=True)

        _tick_and_play(page, "Temporal Warper", 2)
        action, state = _last(live["app"])
        assert action["kind"] == "use_temporal_warper" and len(action["ships"]) == 2
        assert state.seats[0].fuel == 2 and "temporal_warper" in state.turn.cards_used
        assert sum(s.loc == "unplaced" for s in state.ships[:3]) == 3
        browser.close()
