"""Post/redirect/get wherever a POST creates something (issue 14, bug 2): the answer to the
POST is a 303 to a page of its own, so reloading that page (or going back to it) never posts
the form again, never creates a second game and never mails a second link."""

from __future__ import annotations

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem.extensions import db
from pbem.models import Game, Outbox
from tests.web.conftest import EMAILS, Table, hidden


def _count(model: type) -> int:
    return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0)


def test_reloading_the_game_is_ready_page_creates_no_second_game(
        client: FlaskClient, ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    posted = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "Lunch", "host_email":
        "host@example.net", "hours": "24", "seat-0-name": "Ana", "seat-0-email":
        "ana@example.net", "seat-1-name": "Robo", "seat-1-computer": "on"})
    assert posted.status_code == 303
    ready_url = posted.headers["Location"]
    assert "/host/" in ready_url
    mails = _count(Outbox)
    for _ in range(3):  # the player reloads the page they were sent to
        ready = client.get(ready_url)
        page = ready.get_data(as_text=True)
        assert ready.status_code == 200 and "Lunch is ready" in page
        assert "Invitations were sent" in page and "/host/" in page and "/games/" in page
        assert ready.headers["Cache-Control"] == "no-store"  # it holds the host link
    assert _count(Game) == 1 and _count(Outbox) == mails


def test_the_ready_page_needs_the_host_token(client: FlaskClient, ctx: object) -> None:
    assert client.get("/host/not-a-token/ready").status_code in (401, 403, 404)


def test_reloading_the_my_games_answer_mails_no_second_link(client: FlaskClient,
                                                             table: Table) -> None:
    form = client.get("/me").get_data(as_text=True)
    posted = client.post("/me", data={"csrf_token": hidden(form, "csrf_token"),
                                      "email": EMAILS[0]})
    assert posted.status_code == 303
    first = client.get(posted.headers["Location"]).get_data(as_text=True)
    assert "sign-in link is on its way" in first and EMAILS[0] in first
    again = client.get(posted.headers["Location"]).get_data(as_text=True)
    assert "sign-in link is on its way" not in again  # said once; nothing posted again
    links = sa.select(sa.func.count()).select_from(Outbox).where(Outbox.kind == "magic_link")
    assert db.session.scalar(links) == 1


def test_host_and_seat_forms_answer_with_a_redirect(client: FlaskClient, table: Table) -> None:
    from pbem import tokens
    from tests.web.conftest import fresh
    host = f"/host/{tokens.make_host_token(fresh(table.id).public_id)}"
    page = client.get(host).get_data(as_text=True)
    csrf = hidden(page, "csrf_token")
    for action, data in (("pause", {}), ("resume", {}), ("extend", {"hours": "2"})):
        answer = client.post(f"{host}/{action}", data={"csrf_token": csrf, **data})
        assert answer.status_code == 303 and answer.headers["Location"].endswith(host), action
