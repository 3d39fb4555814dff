"""Pause, resume and extend reach every page and every player (issue 14, bug 3): a paused
game told the awaited player "Waiting for Eve" (herself) and said "paused" nowhere."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Outbox
from tests.web.conftest import EMAILS, HOST, Table, fresh, hidden, magic_key

NAMES = ["Ana", "Cy"]  # the table's seat 1 has a hostile name; checked by its own tests


def host_url(table: Table) -> str:
    return f"/host/{tokens.make_host_token(fresh(table.id).public_id)}"


def host_post(client: FlaskClient, table: Table, action: str, **data: str) -> None:
    url = host_url(table)
    csrf = hidden(client.get(url).get_data(as_text=True), "csrf_token")
    answer = client.post(f"{url}/{action}", data={"csrf_token": csrf, **data})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:1000]


def mails(kind: str) -> list[Outbox]:
    return list(db.session.scalars(sa.select(Outbox).where(Outbox.kind == kind)
                                   .order_by(Outbox.id)))


def plain(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_a_paused_game_says_so_on_every_page_and_never_waits_for_yourself(
        client: FlaskClient, table: Table) -> None:
    host_post(client, table, "pause")
    ana = plain(client.get(f"/play/{table.links[0]}").get_data(as_text=True))  # awaited
    assert "Waiting for Ana" not in ana
    assert "paused" in ana and "the host" in ana.lower() and "resumes" in ana
    cy = plain(client.get(f"/play/{table.links[2]}").get_data(as_text=True))
    assert "Waiting for Ana" not in cy and "paused" in cy and "resumes" in cy
    watch = plain(client.get(f"/games/{table.public_id}").get_data(as_text=True))
    assert "paused" in watch and "Ana’s turn" not in watch
    host = plain(client.get(host_url(table)).get_data(as_text=True))
    assert "paused" in host


def test_the_dashboard_says_paused(app: Flask, client: FlaskClient, table: Table) -> None:
    host_post(client, table, "pause")
    page = client.get(f"/me/{magic_key(app, EMAILS[0])}").get_data(as_text=True)
    assert "paused by the host" in page


def test_every_player_is_mailed_the_pause_the_resume_and_the_new_deadline(
        client: FlaskClient, table: Table) -> None:
    host_post(client, table, "pause")
    paused = mails("paused")
    assert sorted(m.to_addr for m in paused) == sorted(EMAILS)
    for mail in paused:
        assert "The host paused" in mail.text_body and "until the host resumes" in \
            mail.text_body
        assert mail.html_body is not None and "The host paused" in mail.html_body
        assert HOST not in mail.text_body  # the host's address is nobody's business
    host_post(client, table, "resume")
    resumed = mails("resumed")
    assert sorted(m.to_addr for m in resumed) == sorted(EMAILS)
    for mail in resumed:
        assert "The host resumed" in mail.text_body
        whose = "your" if mail.to_addr == EMAILS[0] else "Ana’s"
        assert re.search(whose + r" deadline: \w+day \d+ \w+, \d\d:\d\d", mail.text_body), \
            mail.text_body
    host_post(client, table, "extend", hours="5")
    extended = mails("deadline_extended")
    assert sorted(m.to_addr for m in extended) == sorted(EMAILS)
    for mail in extended:
        whom = "you" if mail.to_addr == EMAILS[0] else "Ana"
        for body in (mail.text_body, mail.html_body or ""):
            assert f"The host gave {whom} 5 more hours" in body, body
            assert re.search(r"new deadline: (<b>)?\w+day \d+ \w+, \d\d:\d\d", body), body
