"""Commands that mail from a shell use the server's mail settings (issue 26, point 8).

A server records the settings its mails depend on when it starts
(``pbem.services.server_settings``); a command run in a shell without them takes them from
there and says so, warns of those it sets otherwise, refuses another secret key, and warns
when its mails will carry no reply address and no server has said whether it plays by reply.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import Result
from flask import Flask

from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import server_settings

from .conftest import start

SERVER = {"SERVER_NAME": "pbem.example.org", "PREFERRED_URL_SCHEME": "https",
          "INBOUND_ADDRESS": "play@pbem.example.org", "SECRET_KEY": "test-secret"}
NEW_GAME = ["pbem", "new-game", "--name", "Friday", "--player", "Ana <ana@example.org>",
            "--player", "Bo <bo@example.org>", "--base-game"]
# Every command that mails, with arguments (the game is made by the test).
MAILING = {
    "new-game": lambda game: NEW_GAME,
    "pause": lambda game: ["pbem", "pause", game],
    "resume": lambda game: ["pbem", "resume", game],
    "extend": lambda game: ["pbem", "extend", game, "--hours", "5"],
    "substitute": lambda game: ["pbem", "substitute", game, "1", "zoe@example.org"],
    "resign": lambda game: ["pbem", "resign", game, "1"],
    "rematch": lambda game: ["pbem", "rematch", game],
    "host-link": lambda game: ["pbem", "host-link", game, "--replace"],
}


def _recorded(**server: Any) -> None:
    server_settings.record({**SERVER, **server})


def _invoke(app: Flask, args: list[str]) -> Result:
    return app.test_cli_runner().invoke(args=args)


def _invitations() -> list[Outbox]:
    db.session.rollback()
    return list(db.session.scalars(sa.select(Outbox).where(Outbox.kind == "invitation")))


@pytest.fixture
def shell(server: Flask) -> Flask:
    """A shell's app: SMTP like the server, but none of the server's other mail settings."""
    server.config.update(MAIL_BACKEND="smtp", INBOUND_ADDRESS=None, SERVER_NAME=None,
                         PREFERRED_URL_SCHEME="http")
    return server


def test_a_shell_without_the_inbound_settings_takes_the_servers(shell: Flask) -> None:
    _recorded()
    result = _invoke(shell, NEW_GAME)
    assert result.exit_code == 0, result.output
    assert "pbem: INBOUND_ADDRESS is not set here: using the server's, play@pbem.example.org" \
        in result.stderr
    assert "pbem: SERVER_NAME is not set here: using the server's, pbem.example.org" \
        in result.stderr
    assert "https://pbem.example.org/play/" in result.stdout
    mails = _invitations()
    assert len(mails) == 2
    for mail in mails:
        local, _, domain = mail.headers["Reply-To"].partition("@")
        assert local.startswith("play+") and domain == "pbem.example.org"
        assert "https://pbem.example.org/play/" in mail.text_body


def test_a_setting_of_the_shell_wins_with_a_warning(shell: Flask) -> None:
    _recorded()
    shell.config["INBOUND_ADDRESS"] = "other@pbem.example.org"
    result = _invoke(shell, NEW_GAME)
    assert result.exit_code == 0, result.output
    assert ("pbem: warning: INBOUND_ADDRESS is other@pbem.example.org here but "
            "play@pbem.example.org on the server") in result.stderr
    assert all(mail.headers["Reply-To"].startswith("other+") for mail in _invitations())


def test_a_server_without_play_by_reply_means_no_reply_address_and_no_warning(
        shell: Flask) -> None:
    _recorded(INBOUND_ADDRESS=None)
    result = _invoke(shell, NEW_GAME)
    assert result.exit_code == 0, result.output
    assert "INBOUND_ADDRESS" not in result.stderr
    assert all("Reply-To" not in mail.headers for mail in _invitations())


def test_with_no_record_a_shell_without_inbound_settings_is_warned(shell: Flask) -> None:
    result = _invoke(shell, NEW_GAME)
    assert result.exit_code == 0, result.output
    assert "pbem: warning: INBOUND_ADDRESS is not set here, and no server has recorded" \
        in result.stderr
    assert [("Reply-To" in mail.headers) for mail in _invitations()] == [False, False]


def test_the_dev_backend_replies_to_the_dev_mailbox_as_pbem_serve_does(server: Flask) -> None:
    server.config.update(MAIL_BACKEND="dev", INBOUND_ADDRESS=None)
    result = _invoke(server, NEW_GAME)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert all(mail.headers["Reply-To"].startswith("play+")
               and mail.headers["Reply-To"].endswith("@localhost") for mail in _invitations())


@pytest.mark.parametrize("command", sorted(MAILING))
def test_every_command_that_mails_refuses_another_secret_key(shell: Flask,
                                                             command: str) -> None:
    game = start(3)
    _recorded(SECRET_KEY="the-servers-own-key")
    before = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox))
    result = _invoke(shell, MAILING[command](game.public_id))
    assert result.exit_code == 1, result.output
    assert "this shell's SECRET_KEY is not the one the server runs with" in result.stderr
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) == before
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1
