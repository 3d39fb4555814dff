"""Table talk in a real browser on a 360 px phone (issue 27, point 4): Ana posts a message
from her turn page (a link and markup in it), the form and the latest messages fit the
phone without sideways scrolling, the page shows the message as text, and the next mail of
another seat (Ben's "your turn", once Ana's turn is played) carries it in "At the table
since your last turn", its HTML part fitting the phone too. Ana opens her page from her own
invitation mail; axe-core finds nothing serious on the page with its messages.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask
from werkzeug.serving import make_server

from pbem.engine import GameState, awaited
from pbem.engine.bots import greedy_bot, redacted
from pbem.extensions import db
from pbem.mail.outbound.links import SERVED_AT
from pbem.models import Game, Outbox
from pbem.services import games, play, table_talk
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.e2e.test_phone import ARGS, AXE, PHONE, SHOTS
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PEOPLE = {"Ana": "ana@example.com", "Ben": "ben@example.com", "Cy": "cy@example.com"}
SAID = ("Good luck all <b>— a long link: https://example.com/a/very/long/path/that/does/"
        "not/break/anywhere/on/its/own/0123456789abcdefghijklmnopqrstuvwxyz")


@dataclass
class Site:
    app: Flask
    base: str
    game_id: int


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    app = build_app(f"sqlite:///{tmp_path / 'talk.sqlite3'}", tmp_path / "instance",
                    MAIL_BACKEND="dev", PBEM_CLOCK=lambda: NOON)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config[SERVED_AT] = f"127.0.0.1:{server.server_port}"  # the mails' links point here
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="Talkative Table", host_email=PEOPLE["Ana"],
            seats=[SeatSpec(name, PEOPLE[name]) for name in PEOPLE],
            options={"factions": False}, seed=20240601, fixed_order=True)
        game_id = int(game.id)
        for n in range(6):  # an earlier conversation, so the list is not empty
            table_talk.post(game_id, 1 + n % 2, f"earlier word {n}: " + "wide" * 20)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(app, f"http://127.0.0.1:{server.server_port}", game_id)
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def phone() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport=PHONE, bypass_csp=True)  # to inject axe
        yield context.new_page()
        browser.close()


def _mails(app: Flask, to: str) -> list[Outbox]:
    with app.app_context():
        rows = list(db.session.scalars(sa.select(Outbox).where(Outbox.to_addr == to)
                                       .order_by(Outbox.id)))
        db.session.expunge_all()
        return rows


def _fits(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"talk-{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways on a phone ({width} px)"


def _within_phone(page: Any, selector: str) -> None:
    for box in (page.locator(selector).nth(i).bounding_box()
                for i in range(page.locator(selector).count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def _finish_turn(app: Flask, game_id: int) -> None:
    with app.app_context():
        seat = None
        for _ in range(200):
            db.session.expire_all()
            game = db.session.get_one(Game, game_id)
            state = GameState.from_json(game.state)
            now = awaited(state)
            if seat is None:
                seat = now
            if now != seat:
                return
            play.play(game_id, now, game.version,
                                greedy_bot(redacted(state, now), now, [5, state.step]))
    raise AssertionError("the turn did not end")


def _serious(page: Any) -> list[str]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => [v.impact, v.id, v.nodes.length, v.help])")
    return [f"{impact} {rule} ({n}): {words}" for impact, rule, n, words in found
            if impact in ("serious", "critical")]


def test_a_message_posted_on_the_phone_is_in_the_next_mail_of_another_seat(
        site: Site, phone: Any) -> None:
    invitation = next(m for m in _mails(site.app, PEOPLE["Ana"]) if m.kind == "invitation")
    turn_link = re.search(r"https?://\S+/play/\S+", invitation.text_body)
    assert turn_link is not None
    phone.goto(turn_link.group(0))
    phone.locator("#talk-text").fill(SAID)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Post").click()
    assert phone.url.endswith("#table-talk")
    shown = phone.locator(".talk-line.mine .talk-text")
    assert shown.inner_text() == SAID  # as written: the markup is text
    assert phone.locator(".talk-line.mine a").count() == 0  # the link is not made clickable
    assert phone.locator(".talk-line").count() == 7
    _fits(phone, "turn-page")
    phone.locator("#table-talk").screenshot(path=str(SHOTS / "talk-table.png"))
    _within_phone(phone, "#table-talk, .talk-line, .talk-form textarea, .talk-form button")
    assert _serious(phone) == []

    before = len(_mails(site.app, PEOPLE["Ben"]))
    _finish_turn(site.app, site.game_id)  # Ana's turn is played: Ben's turn mail goes out
    mail = _mails(site.app, PEOPLE["Ben"])[before:][0]
    assert mail.kind == "your_turn"
    block = mail.text_body.split("At the table since your last turn\n", 1)[1]
    lines = block.split("\nRead and answer at the table: http", 1)[0].splitlines()
    assert "\nRead and answer at the table: http" in block
    said = [line for line in lines if line.startswith("  Ana (")]
    assert said == [f"  Ana (Mon 2 Mar 12:00): {SAID}"]
    assert len(lines) == 7 and all(line.startswith("  ") for line in lines)
    assert PEOPLE["Ana"] not in mail.text_body  # names only, never an address
    phone.set_content(mail.html_body)
    assert "Good luck all <b>" in phone.locator(".table-talk").inner_text()
    _fits(phone, "your-turn-mail")
    _within_phone(phone, ".table-talk")
