"""Fixtures for play by reply: an app with a reply address, games made through the services,
and mails written as real clients write them (tests/replies/clients.py)."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.mail.inbound import received
from pbem.models import Game, InboundMessage, Outbox
from pbem.services import replies
from tests.server.conftest import fresh, start

from .dovecot import Imap, dovecot
from .imap_box import empty

INBOUND = "play@pbem.test"

__all__ = ["INBOUND", "fresh", "start"]


@pytest.fixture
def server(app: Flask) -> Iterator[Flask]:
    app.config["INBOUND_ADDRESS"] = INBOUND
    with app.app_context():
        yield app


@pytest.fixture(scope="module")
def imap_server() -> Iterator[Imap]:
    """A dovecot of this test module's own on 127.0.0.1 (skipped where none is installed:
    tests/programs.py)."""
    with dovecot() as running:
        yield running


@pytest.fixture
def polled(server: Flask, imap_server: Imap) -> Flask:
    """The app polling ``imap_server``, whose INBOX each test starts empty."""
    server.config.update(
        INBOUND_IMAP_HOST=imap_server.host, INBOUND_IMAP_PORT=imap_server.port,
        INBOUND_IMAP_USER=imap_server.user, INBOUND_IMAP_PASSWORD=imap_server.password,
        INBOUND_IMAP_FOLDER="INBOX", INBOUND_IMAP_SSL=False,
    )
    empty(imap_server)
    return server


def turn_mail(game_id: int, seat: int) -> Outbox:
    """The newest mail to ``seat`` of the game (what a player replies to)."""
    db.session.rollback()
    row = db.session.execute(
        sa.select(Outbox).where(Outbox.game_id == game_id, Outbox.seat == seat)
        .order_by(Outbox.id.desc())).scalars().first()
    assert row is not None, f"seat {seat} has no mail"
    return row


def mails_to(game_id: int, seat: int) -> list[Outbox]:
    db.session.rollback()
    return list(db.session.execute(
        sa.select(Outbox).where(Outbox.game_id == game_id, Outbox.seat == seat)
        .order_by(Outbox.id)).scalars())


def outbox_count() -> int:
    db.session.rollback()
    return int(db.session.execute(sa.select(sa.func.count()).select_from(Outbox)).scalar_one())


def inbound_rows() -> list[InboundMessage]:
    db.session.rollback()
    return list(db.session.execute(sa.select(InboundMessage).order_by(InboundMessage.id))
                .scalars())


def reply_to(game: Game, seat: int, body: str, *, sender: str | None = None,
             message_id: str | None = None, answering: Outbox | None = None,
             html: str | None = None, headers: dict[str, str] | None = None) -> EmailMessage:
    """A plain reply to the seat's latest mail, from the seat's address unless ``sender``."""
    answering = answering or turn_mail(game.id, seat)
    row = fresh(game.id).seat(seat)
    msg = EmailMessage()
    msg["From"] = f"{row.name} <{sender or row.email}>"
    msg["To"] = answering.headers["Reply-To"]
    msg["Subject"] = "Re: " + answering.subject
    msg["Message-ID"] = message_id or f"<reply-{outbox_count()}-{seat}-{len(body)}@client.test>"
    msg["In-Reply-To"] = answering.headers["Message-ID"]
    msg["References"] = answering.headers["Message-ID"]
    for name, value in (headers or {}).items():
        msg[name] = value
    if html is not None and not body:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    return msg


def deliver(msg: EmailMessage) -> str:
    """Hand the mail to the service as the IMAP path does (raw bytes)."""
    return replies.receive(received.from_bytes(msg.as_bytes()))
