"""Issue 27, escalation: opening the turn page in a real browser is a visit, and ends the
escalation of the seat's turn notice; fetching the link (as a mail scanner does) is not.

One served app (werkzeug in a thread, SQLite in a temp dir), Debian's chromium through
Playwright: Ben escalates after 3 hours and it is his turn; his page, once shown, posts the
hidden "seen" form (``turn.js``) and the escalation row is gone."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from werkzeug.serving import make_server

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game, NoticeChannel, NoticeEscalation
from pbem.services import notice_channels
from pbem.services.games import SeatSpec, create_game
from tests.conftest import build_app
from tests.notices.conftest import play_turn
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("visit")
    app = build_app(f"sqlite:///{tmp / 'visit.sqlite3'}", tmp / "instance", MAIL_BACKEND="dev")
    with app.app_context():
        flask_migrate.upgrade()
        game = create_game(name="Friday Frontier", host_email="ana@example.com",
                           seats=[SeatSpec("Ana", "ana@example.com"),
                                  SeatSpec("Ben", "ben@example.com")],
                           options={"factions": False}, seed=7, fixed_order=True)
        db.session.add(NoticeChannel(game_id=game.id, seat=None, service="discord",
                                     url="https://discord.com/api/webhooks/1/x", position=0,
                                     shown="Discord · discord.com · …wxyz", failures=0))
        db.session.commit()
        notice_channels.set_options(game.id, 1, handle="", escalate_hours=3)
        play_turn(game.id, 0)
        ben = db.session.get_one(Game, game.id).seat(1)
        link = tokens.make_seat_link(ben.game, ben)
        game_id = game.id
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"app": app, "base": f"http://127.0.0.1:{server.server_port}", "link": link,
               "game_id": game_id}
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _open_escalations(served: dict[str, Any]) -> int:
    with served["app"].app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(NoticeEscalation)
                                     .where(NoticeEscalation.game_id == served["game_id"])))


def test_a_scanner_fetch_is_not_a_visit_and_the_browser_page_is(served: dict[str, Any]) -> None:
    url = f"{served['base']}/play/{served['link']}"
    with urllib.request.urlopen(url) as scanned:  # what a mail scanner does
        assert scanned.status == 200 and 'id="seen-form"' in scanned.read().decode()
    assert _open_escalations(served) == 1
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        page = browser.new_page()
        with page.expect_response(lambda r: r.url.endswith("/seen")) as seen:
            page.goto(url)
        assert seen.value.status == 204
        browser.close()
    assert _open_escalations(served) == 0
