"""A seat silenced by a bounce (issue #13) gets mail again: from its seat page, or by
``pbem mail retry``. Both clear ``email_failing`` and queue the seat's failed mails again."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem.extensions import db
from pbem.mail.outbound.compose import Mail
from pbem.mail.outbound.outbox import enqueue
from pbem.models import Outbox
from pbem.models.outbox import FAILED, PENDING
from tests.web.conftest import EMAILS, Table, fresh, hidden

BUTTON = "I fixed my mailbox — send again"


def _bounce(table: Table, seat: int) -> int:
    """As delivery leaves a seat after a 550: the flag set and its mail failed."""
    game = fresh(table.id)
    row = enqueue(to_addr=EMAILS[seat], mail=Mail(kind="your_turn", subject="S", text="T",
                                                   html=None), game=game, seat=seat)
    assert row is not None
    row.status, row.last_error = FAILED, "550 5.1.1 mailbox unavailable"
    game.seat(seat).email_failing = True
    db.session.commit()
    return int(row.id)


def _status(row_id: int) -> str:
    db.session.expire_all()
    return str(db.session.get_one(Outbox, row_id).status)


def test_the_player_clears_the_bounce_from_the_seat_page(client: FlaskClient,
                                                         table: Table) -> None:
    assert BUTTON not in client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    row_id = _bounce(table, 1)
    other = _bounce(table, 2)
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    assert BUTTON in page
    response = client.post(f"/play/{table.links[1]}/mailbox", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token")})
    assert response.status_code == 303
    assert "Mail is on its way again" in client.get(
        response.headers["Location"]).get_data(as_text=True)
    assert fresh(table.id).seat(1).email_failing is False
    assert _status(row_id) == PENDING
    assert fresh(table.id).seat(2).email_failing is True and _status(other) == FAILED
    again = client.post(f"/play/{table.links[1]}/mailbox", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token")})
    assert again.status_code == 403 and "not failing" in again.get_data(as_text=True)


def test_the_form_needs_its_tokens(client: FlaskClient, table: Table) -> None:
    row_id = _bounce(table, 1)
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    forged = client.post(f"/play/{table.links[1]}/mailbox", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": "forged"})
    assert forged.status_code == 401
    assert fresh(table.id).seat(1).email_failing is True and _status(row_id) == FAILED
    other_seat = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    crossed = client.post(f"/play/{table.links[1]}/mailbox", data={
        "csrf_token": hidden(other_seat, "csrf_token"),
        "form_token": hidden(other_seat, "form_token")})
    assert crossed.status_code == 403
    assert fresh(table.id).seat(1).email_failing is True


def test_mail_retry_lets_the_seat_get_mail_again(app: Flask, table: Table) -> None:
    first = _bounce(table, 1)
    second = _bounce(table, 2)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["pbem", "mail", "retry", str(first)])
    assert "1 mail(s) queued again" in result.output, result.output
    assert fresh(table.id).seat(1).email_failing is False and _status(first) == PENDING
    assert fresh(table.id).seat(2).email_failing is True
    result = runner.invoke(args=["pbem", "mail", "retry", "--all-failed"])
    assert "1 mail(s) queued again" in result.output
    assert fresh(table.id).seat(2).email_failing is False and _status(second) == PENDING
    unrelated = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)
                                  .where(Outbox.status == FAILED))
    assert unrelated == 0
