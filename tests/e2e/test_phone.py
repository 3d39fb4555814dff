"""Every page kind and every mail kind at 360 px, in a real browser, as a person on a phone.

One served app (werkzeug in a thread, SQLite in a temp dir) holds a few games brought to the
positions a player meets: a first turn, a faction draft, a pending decision (land a colony),
a finished game. Chromium (Debian's) opens each page and each mail's HTML part at 360x740 and
checks that nothing scrolls sideways; on the turn page the dice and the choices are on the
first screen and the board's text is at least 12 px; axe-core (vendored) finds no serious or
critical violation on the turn page and a turn mail. Screenshots go to
``artifacts/screenshots/`` (CI keeps ``artifacts/``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask
from werkzeug.serving import make_server

from pbem import clock, tokens
from pbem.engine import GameState, awaited
from pbem.engine.bots import greedy_bot, redacted
from pbem.extensions import db
from pbem.mail.addresses import address_key
from pbem.mail.outbound import compose
from pbem.models import Game, NoticeChannel
from pbem.models.outbox import Outbox
from pbem.services import games, magic_links, play
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.programs import CHROMIUM

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 360, "height": 740}
MAIL_KINDS = ("invitation", "your_turn", "decision", "others_turn", "autopilot", "reminder",
              "digest", "vacation", "game_over", "magic_link", "email_failing", "resigned",
              "cancelled", "hosting", "host_link", "substitution", "handed_over",
              "rematch_asked", "notice_paused")


def _humans(*names: str) -> list[SeatSpec]:
    return [SeatSpec(n, f"{n.lower()}@example.com") for n in names]


def _play_until(game_id: int, stop: Callable[[GameState], bool], limit: int = 3000) -> None:
    """Each awaited seat plays the greedy bot's move (from its own view) until `stop`."""
    for _ in range(limit):
        game = db.session.get_one(Game, game_id)
        state = GameState.from_json(game.state)
        seat = awaited(state)
        if game.status != "active" or seat is None or stop(state):
            return
        action = greedy_bot(redacted(state, seat), seat, [7, state.step])
        play.play(game_id, seat, game.version, action)
        db.session.expire_all()
    raise AssertionError("the game did not reach the wanted position")


def _landing(state: GameState) -> bool:
    return (state.turn.pending or {}).get("kind") == "land"


def _magic_key(email: str) -> str:
    """A "my games" key for ``email``, as ``POST /me`` mails one."""
    key = magic_links.issue_key(address_key(email))
    db.session.commit()
    return key


def _tables(app: Flask) -> dict[str, Any]:
    """The games, their links, and the HTML part of one mail of each kind."""
    first = games.create_game(name="Friday Frontier", host_email="host@example.com",
                              seats=_humans("Ana", "Ben", "Cy"), options={"factions": False},
                              seed=20240601, fixed_order=True)
    draft = games.create_game(name="Draft Night", host_email="host@example.com",
                              seats=_humans("Dee", "Eli", "Fay"), options={"factions": True},
                              seed=11, fixed_order=True)
    deciding = games.create_game(name="Landing Party", host_email="host@example.com",
                                 seats=_humans("Gus", "Hal", "Ivy"), options={"factions": True},
                                 seed=11, fixed_order=True)
    _play_until(deciding.id, _landing)
    over = games.create_game(name="Last Round", host_email="host@example.com",
                             seats=_humans("Jo", "Kim"), options={"factions": False},
                             seed=5, fixed_order=True)
    _play_until(over.id, lambda s: False)
    _chat_channels(first)
    db.session.expire_all()
    first, draft, deciding, over = (db.session.get_one(Game, g.id)
                                    for g in (first, draft, deciding, over))
    assert over.status == "finished"
    link = tokens.make_seat_link
    lander = awaited(GameState.from_json(deciding.state))
    assert lander is not None
    drafter = awaited(GameState.from_json(draft.state))
    assert drafter is not None
    return {
        "turn": link(first, first.seat(0)), "waiting": link(first, first.seat(1)),
        "draft": link(draft, draft.seat(drafter)), "decision": link(deciding,
                                                                    deciding.seat(lander)),
        "over": link(over, over.seat(0)), "public_id": first.public_id,
        "over_id": over.public_id, "host": tokens.make_host_token(first.public_id),
        "over_host": tokens.make_host_token(over.public_id),
        "magic": _magic_key("ana@example.com"),
        "mail_settings": tokens.make_unsubscribe_token(first.public_id, 0,
                                                     first.seat(0).link_counter),
        "mails": _mails(first, over),
    }


def _chat_channels(game: Game) -> None:
    """Ana's chat channels (one paused, with the service's long answer) and the game's table
    channel, as the settings page and the host page list them (issue 27)."""
    def channel(seat: int | None, shown: str, position: int, **paused: Any) -> NoticeChannel:
        return NoticeChannel(game_id=game.id, seat=seat, service="discord", shown=shown,
                             url="https://discord.com/api/webhooks/1/x", position=position,
                             failures=0, **paused)
    db.session.add_all([
        channel(0, "Discord · discord.com · …nXYZ", 1),
        channel(0, "ntfy · ntfy.sh · …opic", 2, paused_at=clock.now(),
                paused_reason="Failed to send ntfy notification: Too Many Requests, "
                              "error=429."),
        channel(None, "Discord · discord.com · …abcd", 0)])
    db.session.commit()


def _mails(game: Game, over: Game) -> dict[str, str]:
    """One HTML part per mail kind: the outbox's own rows where the games wrote one, the
    composer's for the kinds only the clock or a bounce sends."""
    found: dict[str, str] = {}
    for row in db.session.scalars(sa.select(Outbox).order_by(Outbox.id)):
        if row.html_body and row.kind not in found:
            found[row.kind] = row.html_body
    ana, ben = game.seat(0), game.seat(1)
    rows = db.session.scalars(sa.select(Outbox).limit(0)).all()  # no digest rows needed
    made = {
        "reminder": lambda: compose.reminder(game, ana, clock.now() + timedelta(hours=12)),
        "digest": lambda: compose.digest(over, over.seat(0), list(rows)),
        "vacation": lambda: compose.vacation(game, ana, "Ben", clock.now() + timedelta(days=2)),
        "autopilot": lambda: compose.autopilot_played(game, ben, []),
        "magic_link": lambda: compose.magic_link("http://localhost/me/example-token"),
        "email_failing": lambda: compose.email_failing(game, ben, "550 mailbox unavailable"),
        "resigned": lambda: compose.resigned(game, ana, 1, []),
        "cancelled": lambda: compose.cancelled(game, ana),
        "hosting": lambda: compose.hosting(game),
        "host_link": lambda: compose.host_link(game),
        "substitution": lambda: compose.substitution(game, ben, "Bartholomew"),
        "handed_over": lambda: compose.handed_over(game, 1, "Bartholomew"),
        "rematch_asked": lambda: compose.rematch_asked(over, 1, clock.now()),
        "notice_paused": lambda: compose.notice_paused(
            game, ana, "Discord · discord.com · …nXYZ",
            "Failed to send Discord notification: Unknown Webhook, error=404."),
    }
    for kind, make in made.items():
        if kind not in found:
            mail = make()
            assert mail.html, kind
            found[kind] = mail.html
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("phone")
    app = build_app(f"sqlite:///{tmp / 'phone.sqlite3'}", tmp / "instance", MAIL_BACKEND="dev")
    with app.app_context():
        flask_migrate.upgrade()
        tables = _tables(app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    tables["base"] = f"http://127.0.0.1:{server.server_port}"
    try:
        yield tables
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM.path), args=ARGS)
        context = browser.new_context(viewport=PHONE, bypass_csp=True)  # to inject axe
        page = context.new_page()
        yield page
        browser.close()


def _fits(page: Any, name: str) -> None:
    """No sideways scrolling at 360 px; a full-page screenshot for the artifact."""
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways on a phone ({width} px)"


def _first_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] + min(box["height"], 60) <= PHONE["height"]


PAGES = {
    "home": "/", "new-game": "/games/new", "dashboard-ask": "/me",
    "turn": "/play/{turn}", "turn-picked": "/play/{turn}?pick=0",
    "turn-waiting": "/play/{waiting}", "turn-draft": "/play/{draft}",
    "turn-decision": "/play/{decision}", "game-over": "/play/{over}",
    "spectator": "/games/{public_id}", "game-over-spectator": "/games/{over_id}",
    "replay": "/games/{public_id}/replay", "host": "/host/{host}",
    "dashboard": "/me/{magic}", "mail-settings": "/mail/unsubscribe/{mail_settings}",
    "resign": "/play/{turn}/resign", "cancel": "/host/{host}/cancel",
    "rematch": "/host/{over_host}/rematch",
    "error-not-found": "/no/such/page", "error-bad-link": "/play/not-a-real-link",
    "dev-mailbox": "/dev/mailbox/", "notation-help": "/help/notation",
}


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_fits_a_phone(site: dict[str, Any], phone: Any, name: str) -> None:
    response = phone.goto(site["base"] + PAGES[name].format(**site))
    assert response is not None
    assert (response.status >= 400) == name.startswith("error"), (name, response.status)
    _fits(phone, name)


def test_the_created_page_and_seat_settings_and_a_mail_message_fit(site: dict[str, Any],
                                                                    phone: Any) -> None:
    phone.goto(site["base"] + "/games/new")
    phone.fill("#name", "Phone Night")
    for i, who in enumerate(("Lu", "Mo")):
        phone.fill(f"#seat-{i}-name", who)
        phone.fill(f"#seat-{i}-email", f"{who.lower()}@example.com")
    phone.fill("#host_email", "lu@example.com")
    phone.locator("form.stack button, form button[type=submit]").last.click()
    phone.wait_for_load_state()
    assert "Phone Night" in phone.content()
    _fits(phone, "created")

    phone.goto(site["base"] + f"/play/{site['turn']}")
    phone.locator("details.your-seat > summary").click()
    _fits(phone, "seat-settings")

    phone.goto(site["base"] + "/dev/mailbox/")
    phone.locator("main a[href*='/dev/mailbox/']").first.click()
    phone.wait_for_load_state()
    _fits(phone, "dev-mailbox-message")


def test_the_turn_page_puts_dice_and_choices_on_the_first_screen(site: dict[str, Any],
                                                                  phone: Any) -> None:
    for name, link in (("turn", site["turn"]), ("turn-decision", site["decision"])):
        phone.goto(site["base"] + f"/play/{link}")
        if name == "turn":
            assert _first_screen(phone, ".my-dice"), "the dice are below the first screen"
        assert _first_screen(phone, ".moves button.choice, .moves details.group"), name
        phone.screenshot(path=str(SHOTS / f"{name}-first-screen.png"))
    phone.goto(site["base"] + f"/play/{site['draft']}")
    assert _first_screen(phone, ".decision button.choice"), "the draft's choices"


def test_the_board_text_is_at_least_12_px_on_a_phone(site: dict[str, Any],
                                                     phone: Any) -> None:
    phone.goto(site["base"] + f"/play/{site['turn']}")
    sizes = phone.evaluate(
        "Array.from(document.querySelectorAll('svg.board text'))"
        ".map(t => t.getBoundingClientRect().height)")
    assert sizes, "the board has text"
    rendered = phone.evaluate(
        "Array.from(document.querySelectorAll('svg.board text')).map(t => {"
        " const m = t.getScreenCTM(); return parseFloat(t.getAttribute('font-size')) * m.a; })")
    assert min(rendered) >= 12, f"board text as small as {min(rendered):.1f} px"


def test_a_closed_facility_shows_why_on_the_phone(site: dict[str, Any], phone: Any) -> None:
    phone.goto(site["base"] + f"/play/{site['turn']}")
    closed = phone.locator(".closed-list [data-group='dock:terraforming_station']")
    assert closed.is_visible()
    assert "may not go below 3 ships" in closed.inner_text()


@pytest.mark.parametrize("kind", MAIL_KINDS)
def test_every_mail_fits_a_phone(site: dict[str, Any], phone: Any, kind: str) -> None:
    assert kind in site["mails"], f"no {kind} mail was written"
    (SHOTS / f"mail-{kind}.html").write_text(site["mails"][kind], encoding="utf-8")
    phone.set_content(site["mails"][kind])
    _fits(phone, f"mail-{kind}")


def _serious(page: Any) -> list[str]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => [v.impact, v.id, v.nodes.length, v.help])")
    return [f"{impact} {rule} ({n}): {words}" for impact, rule, n, words in found
            if impact in ("serious", "critical")]


def test_no_serious_accessibility_violation_on_the_turn_page_and_mail(site: dict[str, Any],
                                                                      phone: Any) -> None:
    phone.goto(site["base"] + f"/play/{site['turn']}")
    assert _serious(phone) == []
    phone.set_content(site["mails"]["your_turn"])
    assert _serious(phone) == []


def test_no_serious_accessibility_violation_in_the_chat_notice_forms(site: dict[str, Any],
                                                                     phone: Any) -> None:
    """Issue 27: "Your seat" open with two chat channels (one paused), and the host page's
    table channel."""
    phone.goto(site["base"] + f"/play/{site['turn']}")
    phone.locator("details.your-seat > summary").click()
    assert phone.locator("#notices-title").is_visible()
    assert _serious(phone) == []
    phone.goto(site["base"] + f"/host/{site['host']}")
    assert "Table channel" in phone.content()
    assert _serious(phone) == []


# Tap targets (issue 26): what a finger presses is at least 44 px tall at 360 px (Apple's
# and WCAG 2.5.5's 44 px). A checkbox or radio is pressed through its label, so the label is
# measured; a link inside running text is exempt (WCAG 2.5.5's "inline" exception: a
# sentence cannot grow to 44 px a line).
MIN_TAP = 44
TAP_TARGETS = """() => {
  const seen = new Set(), out = [];
  const visible = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const inline = a => { const p = a.parentElement;
    return a.tagName === 'A' && p && ['P', 'LI', 'TD', 'SPAN', 'SMALL', 'DD'].includes(p.tagName)
      && p.textContent.trim().length > a.textContent.trim().length + 2
      && getComputedStyle(a).display === 'inline'; };
  const selector = 'a[href], button, summary, select, textarea, [role=button], '
    + 'input:not([type=hidden])';
  for (let e of document.querySelectorAll(selector)) {
    if (e.matches('input[type=checkbox], input[type=radio]')) { e = e.closest('label') || e; }
    if (seen.has(e) || !visible(e) || inline(e)) { continue; }
    seen.add(e);
    const r = e.getBoundingClientRect();
    const kind = e.className ? '.' + String(e.className).split(' ')[0] : '';
    out.push([e.tagName.toLowerCase() + kind,
              (e.textContent || e.value || e.name || '').trim().slice(0, 40),
              Math.round(r.height)]);
  }
  return out;
}"""


def _small_targets(page: Any) -> list[str]:
    return [f"{tag} '{text}': {height} px" for tag, text, height in page.evaluate(TAP_TARGETS)
            if height < MIN_TAP]


@pytest.mark.parametrize("name", list(PAGES))
def test_every_tap_target_is_at_least_44_px_tall(site: dict[str, Any], phone: Any,
                                                  name: str) -> None:
    phone.goto(site["base"] + PAGES[name].format(**site))
    for summary in phone.locator("details:not([open]) > summary").all():
        if summary.is_visible():
            summary.click()  # what an opened section shows is tapped too
    small = _small_targets(phone)
    assert small == [], f"{name}: " + "; ".join(small)


def test_the_forms_offer_the_browsers_own_time_zone(site: dict[str, Any], phone: Any) -> None:
    """Issue 26: the new-game form fills in the browser's zone (Intl.DateTimeFormat), and the
    mail settings offer it in one tap; both are plain text fields without JavaScript."""
    context = phone.context.browser.new_context(viewport=PHONE, timezone_id="Europe/Lisbon")
    page = context.new_page()
    try:
        page.goto(site["base"] + "/games/new")
        assert page.input_value("#timezone") == "Europe/Lisbon"
        assert "Filled in from this device: Europe/Lisbon." in page.inner_text("main")
        page.goto(site["base"] + f"/mail/unsubscribe/{site['mail_settings']}")
        assert page.input_value("#seat-timezone") == "UTC"
        offer = page.get_by_role("button", name="Use this device’s time zone: Europe/Lisbon")
        box = offer.bounding_box()
        assert box is not None and box["height"] >= MIN_TAP
        offer.click()
        assert page.input_value("#seat-timezone") == "Europe/Lisbon"
        page.locator("form.stack button:not(.browser-zone)").last.click()
        page.wait_for_load_state()
        assert "time zone Europe/Lisbon" in page.inner_text("main")
        _fits(page, "mail-settings-browser-zone")
    finally:
        context.close()
