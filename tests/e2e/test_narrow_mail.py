"""The dev mailbox and the game-over mail on a 360-px phone (issue 14, bug 7): no page
scrolls sideways. The report measured the mailbox list at 398 px, a message page at 1,715 px
(a long header and the text part's long links) and the game-over mail's score table at 393 px.

Playwright drives Debian's chromium against a real server (werkzeug in a thread, SQLite in a
temp dir) with the dev mail backend; the mail is what the services queue for a game whose
players have long names, and a game-over mail for each seat. Screenshots go to artifacts/.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from werkzeug.serving import make_server

from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models import Outbox
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.e2e.test_turn_page import ARGS, ARTIFACTS
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

PHONE = 360
WIDEST = """[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect()
    .right > 360).slice(-3).map(e => e.tagName + '.' + e.className + ' ' +
    (e.textContent || '').slice(0, 40))"""  # what sticks out, for the failure message
LONG = "Maximiliana-Bartholomew"  # a long name without spaces breaks naive tables


@pytest.fixture
def mailbox(tmp_path: Path) -> Iterator[dict[str, Any]]:
    app = build_app(f"sqlite:///{tmp_path / 'mail.sqlite3'}", tmp_path / "instance",
                    MAIL_BACKEND="dev", SERVER_NAME=None)
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="A rather long game name for the Friday evening group",
            host_email="the.host.with.a.long.address@example.com",
            seats=[SeatSpec(LONG, "maximiliana.bartholomew.the.third@example.com"),
                   SeatSpec("Ben", "ben@example.com"), SeatSpec("Cy", None, is_bot=True)],
            options={"factions": True}, seed=20240601, fixed_order=True,
        )
        notify.game_over(game)  # the game-over mail as each seat and the host get it
        db.session.commit()
        ids = list(db.session.scalars(sa.select(Outbox.id).order_by(Outbox.id)))
        kinds = dict(db.session.execute(sa.select(Outbox.id, Outbox.kind)).all())
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"base": f"http://127.0.0.1:{server.server_port}", "ids": ids, "kinds": kinds}
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_mailbox_its_messages_and_the_game_over_mail_fit_a_phone(
        mailbox: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    base = mailbox["base"]
    pages = [("mailbox", f"{base}/dev/mailbox/")]
    for mid in mailbox["ids"]:
        kind = mailbox["kinds"][mid]
        pages += [(f"message-{mid}-{kind}", f"{base}/dev/mailbox/{mid}"),
                  (f"mail-{mid}-{kind}", f"{base}/dev/mailbox/{mid}/html")]
    assert any(name.endswith("game_over") for name, _ in pages)
    too_wide = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport={"width": PHONE, "height": 740})
        page = context.new_page()
        for name, url in pages:  # the mailbox first: opening it delivers the queued mail
            page.goto(url)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE:
                too_wide[name] = (width, page.evaluate(WIDEST))
            if name == "mailbox" or "game_over" in name:
                page.screenshot(path=str(ARTIFACTS / f"narrow-{name}.png"), full_page=True)
        browser.close()
    assert not too_wide, f"these pages scroll sideways at {PHONE} px: {too_wide}"
