"""A group's season in a real browser on a 360 px phone: a 3-seat game in which a player
resigns, the host hands a seat to a new player, the game ends and the host starts the
rematch; then every mail each person received is checked (kind, count, first line), and
axe-core finds no serious or critical violation on the turn, seat (the turn page's "Your
seat", the mail-settings page, the resign page), host, game-over and new-game pages.

Ana hosts and plays, Ben resigns on his turn from his turn page (the autopilot plays his seat
from then on), the host hands Cy's seat to Zoe from the host page while it is Cy's turn.
Every link the browser opens is read from the person's own mail. The turns the test does not
look at are played in-process through ``play.play`` (the greedy bot's choice, from the
seat's own view), so the whole test takes seconds, not minutes.
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
from pbem.models import ActionLog, Game, Outbox
from pbem.services import games, play
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.e2e.test_phone import ARGS, AXE, PHONE, SHOTS
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # the mails' "h left" never reads the wall clock
PEOPLE = {"Ana": "ana@example.com", "Ben": "ben@example.com", "Cy": "cy@example.com",
          "Zoe": "zoe@example.com"}
MAX_PUBLIC_HEIGHT = 6000  # px at 360 px wide: the finished game's public page
# the first line of each kind, as the inbox shows it
FIRST_LINES = {
    "invitation": r"Invitation · (Ana invited you|a new game of Alien Frontiers) · keep this "
                  r"mail: its link is your seat",
    "your_turn": r"Your turn · round \d+ · \d+ h left",
    "others_turn": r"(Ana|Ben|Cy|Zoe) moved · round \d+( · ((Ana|Ben|Cy|Zoe)'s|your) turn now)?|"
                   r"Autopilot played for Ben · round \d+ · (Ana's|Zoe's|your) turn now",
    "resigned": r"Ben resigned · the computer plays the seat · (Cy's|your) turn now|"
                r"You resigned · the computer plays your seat from now on",
    "substitution": r"Invitation · you take over Cy's seat · your move now",
    "handed_over": r"Your seat was handed over · Zoe plays it now · your links no longer work",
    "game_over": r"Game over · (Ana|Ben|Zoe)( and (Ana|Ben|Zoe))* (won|share the win) with "
                 r"\d+ VP",
}


@dataclass
class Site:
    app: Flask
    base: str
    game_id: int


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    app = build_app(f"sqlite:///{tmp_path / 'season.sqlite3'}", tmp_path / "instance",
                    MAIL_BACKEND="dev", PBEM_CLOCK=lambda: NOON)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config[SERVED_AT] = f"127.0.0.1:{server.server_port}"  # the mails' links point here
    with app.app_context():
        flask_migrate.upgrade()
        game = games.create_game(
            name="Season Opener", host_email=PEOPLE["Ana"],
            seats=[SeatSpec(name, PEOPLE[name]) for name in ("Ana", "Ben", "Cy")],
            options={"factions": False}, seed=20240601, fixed_order=True)
        game_id = int(game.id)
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


# -- helpers ------------------------------------------------------------------------------

def _mails(app: Flask) -> list[Outbox]:
    with app.app_context():
        rows = list(db.session.scalars(sa.select(Outbox).order_by(Outbox.id)))
        db.session.expunge_all()
        return rows


def _latest(app: Flask, to: str, kind: str) -> Outbox:
    found = [m for m in _mails(app) if m.to_addr == to and m.kind == kind]
    assert found, f"{to} has no {kind} mail"
    return found[-1]


def _link(mail: Outbox, label: str) -> str:
    """The link after ``label`` in the mail's text part, as a person would follow it."""
    found = re.search(re.escape(label) + r"[^\n]*?(https?://\S+)", mail.text_body)
    assert found, f"no '{label}' link in the {mail.kind} mail"
    return found.group(1)


def _awaited(app: Flask, game_id: int) -> int | None:
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        return awaited(GameState.from_json(game.state)) if game.status == "active" else None


def _play_while(app: Flask, game_id: int, keep_on: Any) -> None:
    """The awaited seat plays the greedy bot's move (from its own view) while ``keep_on``."""
    with app.app_context():
        for _ in range(5000):
            db.session.expire_all()
            game = db.session.get_one(Game, game_id)
            state = GameState.from_json(game.state)
            seat = awaited(state)
            if game.status != "active" or seat is None or not keep_on(state, seat):
                return
            play.play(game_id, seat, game.version,
                                greedy_bot(redacted(state, seat), seat, [3, state.step]))
    raise AssertionError("the game did not get there")


def _serious(page: Any, name: str) -> list[str]:
    page.screenshot(path=str(SHOTS / f"season-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => [v.impact, v.id, v.nodes.length, v.help])")
    return [f"{name}: {impact} {rule} ({n}): {words}" for impact, rule, n, words in found
            if impact in ("serious", "critical")]


def _go(page: Any, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)


# -- what each person should have received, from the game's own log ---------------------------

def _expected_turn_mails(app: Flask, game_id: int) -> dict[str, dict[str, int]]:
    """your_turn and others_turn per person, by the rules of docs/mail.md: the awaited seat's
    holder gets "your turn" when its wait starts (and a newcomer handed the seat on its
    turn gets one then); after each turn the other seats' holders but the next one get
    "others' turn", except after a turn the autopilot finished for a seat that resigned in it
    (its resigned mail says it) and after the last turn (the game-over mail says it). A
    resigned player gets neither."""
    with app.app_context():
        rows = list(db.session.execute(
            sa.select(ActionLog.seat, ActionLog.notation)
            .where(ActionLog.game_id == game_id).order_by(ActionLog.seq)))
    holders, gone = {0: "Ana", 1: "Ben", 2: "Cy"}, set[str]()
    turns: list[dict[str, Any]] = []  # each: seat, who held what at its start and at its end
    marks: dict[str, Any] = {}
    start_holders, start_gone = dict(holders), set(gone)
    for row in rows:
        if row.notation == "resign":
            gone.add(holders[row.seat])
            marks["resigned_in_it"] = True
            continue
        if row.notation == "substitute":
            holders[row.seat] = marks["handed_to"] = "Zoe"
            continue
        if not turns or turns[-1]["seat"] != row.seat:
            turns.append({"seat": row.seat, "start": dict(start_holders),
                          "start_gone": set(start_gone), "handed_to": None,
                          "resigned_in_it": False})
        turns[-1].update({k: v for k, v in marks.items() if v})
        turns[-1]["end"], turns[-1]["end_gone"] = dict(holders), set(gone)
        marks = {}
        start_holders, start_gone = dict(holders), set(gone)
    counts = {name: {"your_turn": 0, "others_turn": 0} for name in PEOPLE}
    for i, turn in enumerate(turns):
        holder = turn["start"][turn["seat"]]
        if holder not in turn["start_gone"]:
            counts[holder]["your_turn"] += 1
        if turn["handed_to"]:
            counts[turn["handed_to"]]["your_turn"] += 1
        if i + 1 == len(turns) or turn["resigned_in_it"]:
            continue
        for seat, name in turn["end"].items():
            if seat not in (turn["seat"], turns[i + 1]["seat"]) and name not in turn["end_gone"]:
                counts[name]["others_turn"] += 1
    return counts


# -- the test -----------------------------------------------------------------------------

def test_a_season_resign_substitute_end_and_rematch_on_a_phone(site: Site, phone: Any) -> None:
    app, base = site.app, site.base
    problems: list[str] = []

    _go(phone, f"{base}/games/new")
    problems += _serious(phone, "new-game")

    # Ana plays her first turn; then it is Ben's, who resigns from his turn page.
    _play_while(app, site.game_id, lambda state, seat: seat == 0)
    assert _awaited(app, site.game_id) == 1
    bens_turn = _latest(app, PEOPLE["Ben"], "your_turn")
    _go(phone, _link(bens_turn, "Mail settings:"))  # the seat's settings page links here too
    assert "Resign from Season Opener…" in phone.content()
    problems += _serious(phone, "mail-settings")
    _go(phone, _link(bens_turn, "Take your turn:"))
    problems += _serious(phone, "turn")
    phone.locator("details.your-seat > summary").click()
    problems += _serious(phone, "seat")
    phone.get_by_role("link", name="Resign from this game…").click()
    phone.wait_for_load_state()
    assert "What happens when you resign" in phone.content()
    problems += _serious(phone, "resign")
    phone.get_by_role("button", name="Yes, resign from Season Opener").click()
    phone.wait_for_load_state()
    assert "You resigned from this game on" in phone.content()
    assert _awaited(app, site.game_id) == 2  # the autopilot finished Ben's turn

    # It is Cy's turn: the host hands his seat to Zoe from the host page (her invitation's).
    cy_link = _link(_latest(app, PEOPLE["Cy"], "your_turn"), "Take your turn:")
    _go(phone, _link(_latest(app, PEOPLE["Ana"], "invitation"), "Your host page"))
    problems += _serious(phone, "host")
    phone.select_option("select[name=seat]", "2")
    phone.fill("input[name=email]", PEOPLE["Zoe"])
    phone.fill("input[name=name]", "Zoe")
    phone.get_by_role("button", name="Hand the seat over").click()
    phone.wait_for_load_state()
    response = phone.goto(cy_link)
    assert response is not None and response.status == 401
    assert "handed this seat of Season Opener over to another player" in phone.content()
    _go(phone, _link(_latest(app, PEOPLE["Zoe"], "substitution"), "Your game page:"))
    assert "your turn" in phone.locator(".status-line").inner_text()

    # The rest of the game: Ana and Zoe play in-process, the autopilot plays Ben's seat.
    _play_while(app, site.game_id, lambda state, seat: True)
    over = _latest(app, PEOPLE["Ana"], "game_over")
    _go(phone, _link(_latest(app, PEOPLE["Zoe"], "game_over"), "Ask the host for a rematch"))
    assert "Final ranking" in phone.content() and "Ask the host for a rematch" in phone.content()
    problems += _serious(phone, "game-over")
    with app.app_context():
        public_id = db.session.get_one(Game, site.game_id).public_id
    _go(phone, f"{base}/games/{public_id}")
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height <= MAX_PUBLIC_HEIGHT, f"the finished game's page is {height} px tall"
    assert "resigned" in phone.locator(".standings").inner_text()
    problems += _serious(phone, "game-over-public")

    # The host starts the rematch from the game-over mail: one page, one button.
    _go(phone, _link(over, "Play again: start the rematch"))
    problems += _serious(phone, "rematch")
    phone.get_by_role("button", name="Start the rematch").click()
    phone.wait_for_load_state()
    assert "You started this game, the rematch" in phone.content()
    assert problems == []

    _check_every_mail(app, site.game_id)


def _check_every_mail(app: Flask, game_id: int) -> None:
    with app.app_context():
        rematch = db.session.scalars(sa.select(Game).where(Game.rematch_of == game_id)).one()
        first = awaited(GameState.from_json(rematch.state))
        assert first is not None
        opener = rematch.seat(first).name
        rematch_id = int(rematch.id)
    expected = _expected_turn_mails(app, game_id)
    mails = _mails(app)
    for name, address in PEOPLE.items():
        got = [m for m in mails if m.to_addr == address]
        for mail in got:
            line = mail.text_body.split("\n", 1)[0]
            if mail.kind in FIRST_LINES:
                assert re.fullmatch(FIRST_LINES[mail.kind], line), (name, mail.kind, line)
            assert not any(other in mail.text_body + (mail.html_body or "")
                           for other in PEOPLE.values() if other != address), (name, mail.kind)
        first_game = [m.kind for m in got if m.game_id == game_id]
        second = [m.kind for m in got if m.game_id == rematch_id]
        if name == "Cy":
            assert first_game == ["invitation", "others_turn", "resigned", "your_turn",
                                  "handed_over"]
        if name == "Ben":  # after resigning: only the end
            assert first_game == ["invitation", "your_turn", "resigned", "game_over"]
        if name == "Zoe":
            assert first_game[:2] == ["substitution", "your_turn"]
        if name == "Ana":
            assert first_game[:2] == ["invitation", "your_turn"]
        if name != "Cy":
            assert first_game.count("resigned") == (1 if name != "Zoe" else 0)
            assert first_game[-1] == "game_over" and first_game.count("game_over") == 1
            assert second == ["invitation"] + (["your_turn"] if name == opener else [])
        else:
            assert second == []
        for kind in ("your_turn", "others_turn"):
            assert first_game.count(kind) == expected[name][kind], (name, kind)
    ana_invitation = next(m for m in mails if m.to_addr == PEOPLE["Ana"]
                          and m.game_id == rematch_id and m.kind == "invitation")
    assert "you started a rematch of Season Opener" in ana_invitation.text_body
    assert "/host/" in ana_invitation.text_body  # the host's invitation carries the host link
