"""A whole turn on the turn page in a real browser on a 360x740 phone screen.

Playwright drives Debian's chromium against a real server (werkzeug in a thread, SQLite in a
temp dir): tap ships, tap the facility that lights up, repeat until no ship can dock, then
end the turn. Run once with JavaScript and once without (the page works as plain forms).
The screenshot goes to ``artifacts/turn-page.png``.
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
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A served app with one game where Ana (seat 0) is to play; yields urls and the app."""
    app = build_app(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", tmp_path / "instance")
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="Friday Frontier", host_email="host@example.com",
            seats=[SeatSpec("Ana", "ana@example.com"), SeatSpec("Ben", "ben@example.com"),
                   SeatSpec("Cy", None, is_bot=True)],
            options={"factions": False}, seed=20240601, fixed_order=True,
        )
        link = tokens.make_seat_link(game, game.seat(0))
        public_id = game.public_id
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        yield {"app": app, "turn": f"{base}/play/{link}", "public_id": public_id}
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _dock_everything(page: Any, shot: str | None = "turn-page.png") -> int:
    """Tap ships and lit facilities until no ship can dock; answer any landing or raid."""
    docked = 0
    for _ in range(20):
        follow_up = page.locator(".moves .group.land button.choice, "
                                 ".moves .group.raid button.choice")
        if follow_up.count():
            follow_up.first.click()
            page.wait_for_load_state()
            continue
        dice = page.locator(".my-dice .die")
        if dice.count() == 0 or page.locator("details.group.dock").count() == 0:
            break
        lit = page.locator("button.choice.hl")
        for i in range(dice.count()):
            dice.nth(i).click()
            page.wait_for_load_state()
            if lit.count():
                break
        assert lit.count(), "some docking is legal, so some pick of ships must light up"
        if docked == 0 and shot:
            page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
        lit.first.click()
        page.wait_for_load_state()
        docked += 1
    return docked


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_whole_turn_by_tapping(live: dict[str, Any], javascript: bool) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740},
                                      java_script_enabled=javascript)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(live["turn"])
        assert "your turn" in page.locator(".status-line").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page scrolls sideways on a phone ({width} px)"

        docked = _dock_everything(page)
        assert docked >= 1
        end = page.locator("button.choice.end:not([disabled])")
        assert end.count() == 1, page.locator(".why-not").all_inner_texts()
        end.first.click()
        page.wait_for_load_state()
        if not javascript:
            page.screenshot(path=str(ARTIFACTS / "turn-page-after.png"), full_page=True)
        assert "Waiting for Ben" in page.content()
        assert errors == [], errors
        browser.close()
    with live["app"].app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        assert game.state["turn"]["seat"] == 1  # Ben's turn now


@pytest.fixture
def live_factions(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A served Factions game (the default): Cy, a computer seat, drafts first; then Ben,
    then Ana, who starts the first turn."""
    app = build_app(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", tmp_path / "instance")
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="Faction Friday", host_email="host@example.com",
            seats=[SeatSpec("Ana", "ana@example.com"), SeatSpec("Ben", "ben@example.com"),
                   SeatSpec("Cy", None, is_bot=True)],
            options={}, seed=20240601, fixed_order=True,
        )
        links = [tokens.make_seat_link(game, game.seat(i)) for i in (0, 1)]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        yield {"app": app, "turns": [f"{base}/play/{link}" for link in links]}
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _choose_a_board(page: Any, shot: str | None) -> str:
    assert "your decision" in page.locator(".status-line").inner_text()
    assert "Choose your faction" in page.locator("#decision").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the draft page scrolls sideways on a phone ({width} px)"
    if shot:
        page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
    button = page.locator("#decision button.pick").first
    chosen = button.inner_text().removeprefix("Choose ").strip()
    button.click()
    page.wait_for_load_state()
    return chosen


def test_the_factions_draft_and_a_whole_turn_by_tapping(live_factions: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    ana, ben = live_factions["turns"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740})
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(ana)
        assert "Waiting for Ben to choose a faction." in page.content()
        assert page.locator("#decision").count() == 0
        page.goto(ben)
        bens = _choose_a_board(page, "draft-page.png")
        assert "Waiting for Ana to choose a faction." in page.content()
        page.goto(ana)
        anas = _choose_a_board(page, None)
        assert "your turn" in page.locator(".status-line").inner_text()
        assert f"Your faction: {anas}" in page.locator(".panel").inner_text()
        assert bens in page.locator(".factions").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the Factions turn page scrolls sideways ({width} px)"
        assert _dock_everything(page, "turn-page-factions.png") >= 1
        for _ in range(10):  # answer anything left (a card drawn over the limit…) then end
            end = page.locator("button.choice.end:not([disabled])")
            if end.count():
                break
            page.locator(".moves button.choice").first.click()
            page.wait_for_load_state()
        end.first.click()
        page.wait_for_load_state()
        assert "Waiting for Ben" in page.content()
        assert errors == [], errors
        browser.close()
    with live_factions["app"].app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        assert game.state["phase"] == "play" and game.state["turn"]["seat"] == 1
