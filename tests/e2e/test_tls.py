"""HTTPS for real (issue #13): gunicorn serves pbem over TLS (a throw-away self-signed
certificate) and a real browser plays a whole turn through the forms.

Over HTTPS Flask-WTF refuses a form without a same-origin Referer; the pages' referrer policy
is ``same-origin``, so the browser sends the page's own URL to the site and nothing to any
other origin (the turn page links nowhere else: every request it makes is checked here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.e2e.test_turn_page import ARGS, _dock_everything
from tests.live_server import SECRET_KEY, migrated_database, serving


def _game(db_url: str, directory: Path) -> tuple[str, int]:
    app = build_app(db_url, directory / "instance", SECRET_KEY=SECRET_KEY)
    with app.app_context():
        game = games.create_game(
            name="Secure Friday", host_email="host@example.com",
            seats=[SeatSpec("Ana", "ana@example.com"), SeatSpec("Ben", "ben@example.com"),
                   SeatSpec("Cy", None, is_bot=True)],
            options={"factions": False}, seed=20240601, fixed_order=True,
        )
        link, game_id = tokens.make_seat_link(game, game.seat(0)), game.id
        db.session.remove()
        db.engine.dispose()
    return link, game_id


@pytest.mark.slow
def test_a_whole_turn_through_the_forms_over_https(chromium: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    db_url = migrated_database(tmp_path)
    link, game_id = _game(db_url, tmp_path)
    with serving(db_url, tmp_path, tls=True, env={"PREFERRED_URL_SCHEME": "https"}) as live:
        origin = live.base
        requests: list[Any] = []
        refused: list[str] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(chromium), args=ARGS)
            context = browser.new_context(viewport={"width": 360, "height": 740},
                                          ignore_https_errors=True)
            page = context.new_page()
            page.on("request", lambda r: requests.append(r))
            page.on("response", lambda r: refused.append(f"{r.status} {r.url}")
                    if r.status >= 400 else None)
            page.goto(f"{origin}/play/{link}")
            assert page.url.startswith("https://")
            assert "your turn" in page.locator(".status-line").inner_text()
            assert _dock_everything(page, shot=None) >= 1
            end = page.locator("button.choice.end:not([disabled])")
            assert end.count() == 1, (refused, page.locator(".why-not").all_inner_texts())
            end.first.click()
            page.wait_for_load_state()
            assert "Waiting for Ben" in page.content(), page.content()[:2000]
            posts = [r for r in requests if r.method == "POST"]
            referers = {r.headers.get("referer", "") for r in posts}
            browser.close()
        assert refused == [], refused  # no 400 from the CSRF check, nothing else refused
        assert len(posts) >= 2
        assert all(ref.startswith(f"{origin}/play/") for ref in referers), referers
        assert all(r.url.startswith(origin) for r in requests), \
            [r.url for r in requests if not r.url.startswith(origin)]
        assert "Traceback" not in live.output()
    app = build_app(db_url, tmp_path / "instance", SECRET_KEY=SECRET_KEY)
    with app.app_context():
        assert db.session.get_one(Game, game_id).state["turn"]["seat"] == 1  # Ben's turn now
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("path", ["/", "/games/new", "/me"])
def test_pages_keep_referrers_on_the_site(path: str, tmp_path: Path) -> None:
    app = build_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", tmp_path / "instance")
    response = app.test_client().get(path, base_url="https://localhost")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert '<meta name="referrer" content="same-origin">' in response.get_data(as_text=True)
