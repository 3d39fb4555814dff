"""Mail fixtures: a real SMTP server (aiosmtpd on 127.0.0.1, a free port) and mail apps.

``smtp_server`` records every message it accepts; ``refuse`` makes it answer RCPT TO for the
listed addresses with ``550`` (a permanent refusal), as a real server does for a dead mailbox.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from flask import Flask

from pbem.services.games import SeatSpec, create_game
from tests.conftest import MakeApp


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Recorder:
    """aiosmtpd handler: keeps what it accepts, refuses what it is told to."""

    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: Any) -> str:
        if address in self.refuse:
            return "550 5.1.1 <" + address + ">: mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.messages.append(msg)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted"


@dataclass
class SMTPServer:
    host: str
    port: int
    handler: Recorder
    controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.handler, hostname=self.host, port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    @property
    def messages(self) -> list[EmailMessage]:
        return self.handler.messages


@pytest.fixture
def smtp_server() -> Iterator[SMTPServer]:
    server = SMTPServer("127.0.0.1", free_port(), Recorder())
    server.start()
    yield server
    server.stop()


def smtp_config(port: int) -> dict[str, Any]:
    return {
        "MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": port,
        "SMTP_SECURITY": "none", "SMTP_USERNAME": None, "SMTP_TIMEOUT": 5.0,
        "MAIL_FROM": "pbem@pbem.test", "MAIL_MESSAGE_ID_DOMAIN": "pbem.test",
        "SERVER_NAME": "pbem.test", "PREFERRED_URL_SCHEME": "https",
        "WTF_CSRF_ENABLED": False,
    }


@pytest.fixture
def smtp_app(make_app: MakeApp, smtp_server: SMTPServer, app: Flask) -> Flask:
    """An app sending through ``smtp_server`` (``app`` first empties every table)."""
    return make_app(**smtp_config(smtp_server.port))


PLAYERS = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]


def new_game(players: list[tuple[str, str | None]] | None = None, **kwargs: Any) -> Any:
    """A game in fixed seat order; the base game unless ``options`` says otherwise (the
    Factions mails have their own tests, which pass ``options={}``: Factions on)."""
    specs = [SeatSpec(name=n, email=e, is_bot=e is None)
             for n, e in (players or PLAYERS)]
    return create_game(name="Friday Frontier", host_email="host@example.org", seats=specs,
                       options=kwargs.pop("options", {"factions": False}), fixed_order=True,
                       seed=kwargs.pop("seed", 7), **kwargs)
