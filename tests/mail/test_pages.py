"""The dev mailbox and the one-click unsubscribe page."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask import Flask

from pbem.engine import GameState, awaited
from pbem.engine.bots import greedy_bot, redacted
from pbem.extensions import db
from pbem.mail.outbound.delivery import deliver_pending
from pbem.models.game import Game
from pbem.models.outbox import SENT, Outbox
from pbem.services import play
from tests.conftest import MakeApp
from tests.mail.conftest import new_game


def dev_app(make_app: MakeApp) -> Flask:
    return make_app(MAIL_BACKEND="dev", SERVER_NAME="localhost", WTF_CSRF_ENABLED=False,
                    MAIL_MESSAGE_ID_DOMAIN="pbem.test")


def test_the_dev_mailbox_lists_by_recipient_and_shows_both_parts(app: Flask,
                                                                 make_app: MakeApp) -> None:
    mail_app = dev_app(make_app)
    with mail_app.app_context():
        new_game()
    client = mail_app.test_client()
    page = client.get("/dev/mailbox/")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "ana@example.org" in body and "Alien Frontiers: Friday Frontier" in body
    with mail_app.app_context():
        sent = db.session.scalars(sa.select(Outbox).where(Outbox.status == SENT)).all()
        assert sent, "opening the mailbox delivers what is due"
        ana_turn = next(r for r in sent if r.kind == "your_turn")
        ana_id = ana_turn.id
    only_ana = client.get("/dev/mailbox/?to=ana@example.org").get_data(as_text=True)
    assert "ben@example.org</td>" not in only_ana
    show = client.get(f"/dev/mailbox/{ana_id}").get_data(as_text=True)
    assert "it&#39;s your turn" in show or "it's your turn" in show
    link = re.search(r'<a href="(http://localhost/play/[^"]+)"', show)
    assert link, "the text part's links are clickable"
    html = client.get(f"/dev/mailbox/{ana_id}/html")
    assert html.status_code == 200 and "<table" in html.get_data(as_text=True)
    assert "style-src 'unsafe-inline'" in html.headers["Content-Security-Policy"]
    # the turn link goes to the turn page of this server
    path = link.group(1).removeprefix("http://localhost")
    assert client.get(path).status_code in (200, 302)


def test_the_dev_mailbox_is_absent_for_other_backends_and_other_machines(
    app: Flask, make_app: MakeApp
) -> None:
    smtp = make_app(MAIL_BACKEND="smtp")
    assert smtp.test_client().get("/dev/mailbox/").status_code == 404
    dev = dev_app(make_app).test_client()
    remote = dev.get("/dev/mailbox/", environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert remote.status_code == 404


def _unsubscribe_path(mail_app: Flask, seat: int) -> str:
    with mail_app.app_context():
        row = db.session.scalars(sa.select(Outbox).where(Outbox.seat == seat)).first()
        assert row is not None
        url = row.headers["List-Unsubscribe"].strip("<>")
    return url.removeprefix("http://localhost")


def test_one_click_post_sets_my_turn_only_without_login(app: Flask, make_app: MakeApp) -> None:
    mail_app = dev_app(make_app)
    with mail_app.app_context():
        game_id = new_game().id
    client = mail_app.test_client()
    path = _unsubscribe_path(mail_app, 1)
    form = client.get(path)
    assert form.status_code == 200 and 'name="notify"' in form.get_data(as_text=True)
    response = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    with mail_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        assert game.seat(1).notify == "my_turn"
        assert game.seat(2).notify == "every_turn"
        # Ana plays a step that hands the turn over: Cy hears of it, Ben does not
        before = db.session.query(Outbox).count()
        for _ in range(30):
            state = GameState.from_json(game.state)
            seat = awaited(state)
            if seat != 0:
                break
            play.play(game.id, 0, game.version, greedy_bot(redacted(state, 0), 0, [1, 1]))
            db.session.refresh(game)
        others = db.session.scalars(sa.select(Outbox).where(
            Outbox.id > before, Outbox.kind == "others_turn")).all()
        assert {r.seat for r in others} == {2}


def test_a_forged_unsubscribe_token_changes_nothing(app: Flask, make_app: MakeApp) -> None:
    mail_app = dev_app(make_app)
    with mail_app.app_context():
        game_id = new_game().id
    client = mail_app.test_client()
    response = client.post(_unsubscribe_path(mail_app, 1) + "x",
                           data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 401
    with mail_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.seat(1).notify == "every_turn"


def test_links_use_server_name_not_the_request_host(app: Flask, make_app: MakeApp) -> None:
    mail_app = make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.example",
                        PREFERRED_URL_SCHEME="https")
    with mail_app.test_request_context("/", base_url="http://evil.example"):
        new_game()
        bodies = " ".join(r.text_body for r in db.session.scalars(sa.select(Outbox)))
    assert "evil.example" not in bodies and "https://pbem.example/play/" in bodies
    deliver_pending(mail_app)


def test_a_substitution_revokes_the_old_players_unsubscribe_link(
        app: Flask, make_app: MakeApp) -> None:
    """Issue #13: the old player's mail-settings link no longer controls the seat."""
    from pbem.services.host import substitute_seat

    mail_app = dev_app(make_app)
    with mail_app.app_context():
        game_id = new_game().id
    client = mail_app.test_client()
    old = _unsubscribe_path(mail_app, 1)
    assert client.get(old).status_code == 200
    with mail_app.app_context():
        substitute_seat(game_id, 1, "newcomer@example.org")
    assert client.get(old).status_code == 401
    response = client.post(old, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 401 and "handed this seat of" in response.get_data(
        as_text=True)
    with mail_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.seat(1).notify == "every_turn"
        invitation = db.session.scalars(sa.select(Outbox).where(
            Outbox.to_addr == "newcomer@example.org")).first()
        assert invitation is not None
        new = invitation.headers.get("List-Unsubscribe", "").strip("<>")
    if new:  # the newcomer's own link works
        assert client.get(new.removeprefix("http://localhost")).status_code == 200
