"""Local runs (issue #17): ``pbem serve --port N`` mails links to port N; the dev mailbox is
loopback-only and absent with a real backend; ``pbem status`` sums up the database."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

import pbem.cli as pbem_cli
from pbem.extensions import db
from pbem.models import Outbox
from pbem.services.games import SeatSpec, create_game
from tests.conftest import MakeApp, _delete_all_rows

_LINK = re.compile(r"https?://[^\s<>\"/]+")


def _game() -> None:
    create_game(name="Local", host_email="host@example.org",
                seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")],
                options={"factions": False}, seed=3, fixed_order=True)


def _serve_once(app: Flask, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[str]:
    """Run ``pbem serve ARGS`` whose server, instead of serving, creates a game and returns
    the hosts of every link in the mails it queued."""
    hosts: list[str] = []

    class NoScheduler:
        def shutdown(self, wait: bool) -> None:
            pass

    def fake_run_simple(host: str, port: int, served: Flask, **_: Any) -> None:
        with served.app_context():
            _game()
            for row in db.session.scalars(sa.select(Outbox)):
                bodies = [row.text_body, row.html_body or "", *map(str, row.headers.values())]
                hosts.extend(m.group(0) for body in bodies for m in _LINK.finditer(body)
                             if "example.org" not in m.group(0))

    monkeypatch.setattr(pbem_cli, "run_simple", fake_run_simple)
    monkeypatch.setattr(pbem_cli, "start_background", lambda app: NoScheduler())
    result = app.test_cli_runner().invoke(args=["pbem", "serve", *args])
    assert result.exit_code == 0, result.output
    assert hosts, "the game's mails have links"
    return hosts


def test_serve_port_puts_that_port_in_every_mail_link(app: Flask,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    hosts = _serve_once(app, monkeypatch, "--port", "5123")
    assert set(hosts) == {"http://127.0.0.1:5123"}


def test_a_configured_server_name_wins_over_the_served_port(
        make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(SERVER_NAME="games.example.net", PREFERRED_URL_SCHEME="https")
    _delete_all_rows(app)
    hosts = _serve_once(app, monkeypatch, "--port", "5123")
    assert set(hosts) == {"https://games.example.net"}


@pytest.mark.parametrize("backend", ["smtp", "console", "resend", "brevo", "postmark"])
def test_the_dev_mailbox_is_never_registered_with_a_real_backend(
        make_app: MakeApp, backend: str) -> None:
    app = make_app(MAIL_BACKEND=backend)
    assert "dev_mailbox" not in app.blueprints
    assert not [r for r in app.url_map.iter_rules() if r.rule.startswith("/dev")]
    assert app.test_client().get("/dev/mailbox/").status_code == 404


@pytest.mark.parametrize("environ", [
    {"REMOTE_ADDR": "203.0.113.9"},
    {"REMOTE_ADDR": "10.0.0.2"},
    {"REMOTE_ADDR": "::ffff:203.0.113.9"},
    # a proxy on this machine (a tunnel, nginx) makes every visitor look local
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_FORWARDED": "for=203.0.113.9"},
])
def test_the_dev_mailbox_answers_only_this_machine(make_app: MakeApp,
                                                   environ: dict[str, str]) -> None:
    client = make_app(MAIL_BACKEND="dev").test_client()
    assert client.get("/dev/mailbox/", environ_base=environ).status_code == 404
    for local in ("127.0.0.1", "::1", "127.0.0.2"):
        assert client.get("/dev/mailbox/",
                          environ_base={"REMOTE_ADDR": local}).status_code == 200


def test_pbem_status_shows_size_games_and_outbox(app: Flask) -> None:
    with app.app_context():
        _game()
    result = app.test_cli_runner().invoke(args=["pbem", "status"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "engine: pure Python"
    size = re.match(r"database: ([\d.]+) (B|KB|MB|GB) \((sqlite|postgresql)\)", lines[1])
    assert size is not None and float(size.group(1)) > 0, lines[1]
    assert "active: 1" in lines[2] and "finished: 0" in lines[2]
    assert re.search(r"pending: [1-9]", lines[3]) and "failed: 0" in lines[3]
