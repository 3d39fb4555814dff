"""Every kind of mail is built, and every link in it (text, HTML, List-Unsubscribe) resolves
to a route of the app through werkzeug's URL map: no mail carries a guessed path."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from werkzeug.routing import BuildError

from pbem import clock, tokens
from pbem.engine import GameState, bots
from pbem.extensions import db
from pbem.mail.outbound import answers, compose, links
from pbem.mail.outbound.compose import Mail
from pbem.models import ActionLog, Game, Outbox
from pbem.services import games, play
from pbem.services.games import SeatSpec
from tests.conftest import MakeApp

SERVER = "pbem.test"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "mail"
URL = re.compile(r"""https?://[^\s<>"']+""")
# each endpoint a mail may link to, and how its token must read
TOKEN_READERS = {
    "play.turn": lambda args: tokens.read_seat_link(args["seat_link"]),
    "mail.settings": lambda args: tokens.read_unsubscribe_token(args["token"]),
    "games.host": lambda args: tokens.read_host_token(args["token"]),
    "rematch.host_confirm": lambda args: tokens.read_host_token(args["token"]),
    "games.spectate": lambda args: None,
    "games.replay": lambda args: None,
    "games.new_game": lambda args: None,
    "me.dashboard": lambda args: None,
    "home.notation": lambda args: None,
}


@pytest.fixture
def mail_app(make_app: MakeApp) -> Iterator[Flask]:
    app = make_app(SERVER_NAME=SERVER, INBOUND_ADDRESS="play@pbem.test")
    with app.app_context():
        yield app


def _game(factions: bool) -> Game:
    return games.create_game(
        name="Every Kind", host_email="ana@example.org",
        seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Ben", "ben@example.org"),
               SeatSpec("Cy", "cy@example.org")],
        options={"factions": factions}, seed=7, fixed_order=True)


def _play(game: Game, steps: int) -> None:
    for _ in range(steps):
        db.session.refresh(game)
        state = GameState.from_json(game.state)
        seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
        action = bots.greedy_bot(bots.redacted(state, seat), seat, [seat, state.step])
        play.play(game.id, seat, game.version, action)


def _finished(game: Game) -> Game:
    final, _ = bots.play_game(3, 7, bots.greedy_bot, {"factions": False})
    game.state = final.to_json()
    db.session.commit()
    return game


def every_kind() -> dict[str, list[Mail]]:
    """One or more mails of each kind, composed as the hooks compose them."""
    now = clock.now()
    draft = _game(factions=True)
    game = _game(factions=False)
    _play(game, 12)
    ana, ben = game.seat(0), game.seat(1)
    rows = list(db.session.scalars(sa.select(ActionLog).where(ActionLog.game_id == game.id)))
    events = [ev for row in rows for ev in row.events]
    awaited = GameState.from_json(game.state).turn.seat
    built = {
        "invitation": [compose.invitation(game, ana)],
        "your_turn": [compose.your_turn(game, game.seat(awaited), now + timedelta(hours=47))],
        "decision": [compose.decision_needed(draft, draft.seat(2), deadline=None)],
        "others_turn": [compose.others_turn(game, ben, 0, events)],
        "autopilot": [compose.autopilot_played(game, ben, events)],
        "reminder": [compose.reminder(game, game.seat(awaited), now + timedelta(hours=12))],
        "digest": [compose.digest(game, ben, [r for r in rows if r.seat != 1])],
        "vacation": [compose.vacation(game, ben, "Ana", now + timedelta(days=2))],
        "paused": [compose.paused(game, ben, now)],
        "resumed": [compose.resumed(game, ben, awaited, now + timedelta(hours=5))],
        "deadline_extended": [compose.deadline_extended(game, ben, awaited, 5,
                                                        now + timedelta(hours=9))],
        "email_failing": [compose.email_failing(game, ben, "550 mailbox unavailable")],
        "notice_paused": [compose.notice_paused(game, ben, "Discord · discord.com · …nXYZ",
                                                "error=404"),
                          compose.notice_paused(game, None, "Slack · hooks.slack.com · …i7FQ",
                                                "error=500")],
        "magic_link": [compose.magic_link(links.dashboard_url("a-random-key"))],
    }
    answers.send_answer(game, ana, answers.Answer(headline="your reply was applied."),
                        in_reply_to="", references=())
    row = db.session.scalars(sa.select(Outbox).where(
        Outbox.kind == answers.ANSWER_KIND, Outbox.game_id == game.id)).one()
    built["reply_answer"] = [Mail(row.kind, row.subject, row.text_body, row.html_body,
                                  unsubscribe_url=row.headers.get("List-Unsubscribe", "")
                                  .strip("<>") or None)]
    over = _finished(_game(factions=False))
    built["game_over"] = [compose.game_over(over, over.seat(0)), compose.game_over(over, None),
                          compose.game_over(over, over.seat(1))]
    built.update({  # a group's season (issue 26)
        "resigned": [compose.resigned(game, ana, 1, events), compose.resigned(game, ben, 1, []),
                     compose.resigned(game, None, 1, [])],
        "cancelled": [compose.cancelled(game, ben)],
        "hosting": [compose.hosting(game)],
        "host_link": [compose.host_link(game)],
        "substitution": [compose.substitution(game, ben, "Bartholomew")],
        "handed_over": [compose.handed_over(game, 1, "Bartholomew")],
        "rematch_asked": [compose.rematch_asked(over, 1, now)],
    })
    return built


def urls_of(mail: Mail) -> list[str]:
    found = URL.findall(mail.text) + URL.findall(mail.html or "")
    if mail.unsubscribe_url:
        found.append(mail.unsubscribe_url)
    return [url.replace("&amp;", "&").rstrip(".,)") for url in found]


def test_there_is_one_template_pair_per_kind_and_every_kind_is_listed() -> None:
    names = {p.stem for p in TEMPLATES.iterdir() if not p.name.startswith("_")}
    assert names == set(compose.KINDS)
    for kind in compose.KINDS:
        assert (TEMPLATES / f"{kind}.txt").exists() and (TEMPLATES / f"{kind}.html").exists()


def test_every_link_of_every_mail_kind_resolves_to_a_route(mail_app: Flask) -> None:
    built = every_kind()
    assert set(built) == set(compose.KINDS)
    adapter = mail_app.url_map.bind(SERVER)
    seen: set[str] = set()
    for kind, mails in built.items():
        for mail in mails:
            found = urls_of(mail)
            assert found, f"{kind} has no link"
            for url in found:
                parts = urlsplit(url)
                assert parts.netloc == SERVER, url
                endpoint, args = adapter.match(parts.path, method="GET")
                assert endpoint in TOKEN_READERS, f"{kind}: {url} opens {endpoint}"
                TOKEN_READERS[endpoint](args)  # a signed link reads back (BadToken if not)
                if "move" in parse_qs(parts.query):
                    assert endpoint == "play.turn"
                seen.add(endpoint)
    assert seen == set(TOKEN_READERS)


def test_the_one_click_unsubscribe_posts_to_the_settings_route(mail_app: Flask) -> None:
    game = _game(factions=False)
    mail = compose.invitation(game, game.seat(1))
    assert mail.unsubscribe_url is not None
    path = urlsplit(mail.unsubscribe_url).path
    endpoint, _ = mail_app.url_map.bind(SERVER).match(path, method="POST")
    assert endpoint == "mail.save"


def test_a_link_to_an_endpoint_the_app_lacks_is_an_error_not_a_guessed_path(
        mail_app: Flask) -> None:
    """The names the mail once asked for (games.show, host.page, mail.unsubscribe) never
    existed, so every such link silently fell back to a hard-coded path."""
    for endpoint in ("games.show", "host.page", "mail.unsubscribe"):
        with pytest.raises(BuildError):
            links.external(endpoint, public_id="x", token="x")
