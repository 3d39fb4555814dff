"""GET and HEAD change nothing, anywhere (issue #13: ``HEAD /games/new`` with a form body used
to run the POST branch, creating games and mailing any address with no CSRF check).

The walk visits every rule of the app's url_map with real arguments (seat links, the host
token, a magic token, unsubscribe tokens of a live game) and junk ones, with GET and with HEAD,
each carrying a complete form body that would create a game, ask for a magic link, play a move
or save settings if a POST branch ran. Every row of every table must be the same afterwards.

The app is configured as deployed (``MAIL_BACKEND=console``): the dev mailbox, registered only
with the ``dev`` backend on a developer's machine, delivers what is due when opened, by design.
"""

from __future__ import annotations

import itertools
from typing import Any
from urllib.parse import urlencode

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game
from tests.conftest import MakeApp, _delete_all_rows

from .conftest import EMAILS, HOST, Table, hidden, magic_key

VICTIM = "victim@example.net"


def everything(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (but Alembic's), in primary-key order."""
    with app.app_context():
        db.session.remove()
        dump: dict[str, list[tuple[Any, ...]]] = {}
        with db.engine.connect() as conn:
            meta = sa.MetaData()
            meta.reflect(bind=conn)
            for table in meta.sorted_tables:
                if table.name == "alembic_version":
                    continue
                order = list(table.primary_key.columns) or list(table.columns)
                rows = conn.execute(sa.select(table).order_by(*order)).all()
                dump[table.name] = [tuple(row) for row in rows]
        return dump


def _samples(app: Flask, table: Table) -> dict[str, list[str]]:
    """Values for each URL argument: the live game's real ones first, then junk."""
    with app.app_context():
        game = db.session.get_one(Game, table.id)
        host = tokens.make_host_token(game.public_id)
        unsubscribe = [tokens.make_unsubscribe_token(game.public_id, s.index, s.link_counter)
                       for s in game.seats]
    magic = magic_key(app, EMAILS[0])
    return {
        "seat_link": [*table.links, "junk"],
        "token": [host, magic, *unsubscribe, "junk"],
        "public_id": [table.public_id, "junk"],
        "message_id": ["1", "999999"],
        "filename": ["style.css", "missing.css"],
        "secret": [str(app.config.get("INBOUND_WEBHOOK_SECRET") or "webhook-secret"), "junk"],
        "provider": ["postmark", "mailgun", "sendgrid", "junk"],
    }


def _paths(app: Flask, samples: dict[str, list[str]]) -> list[str]:
    """Every rule with every combination of its arguments' samples."""
    paths: list[str] = []
    for rule in app.url_map.iter_rules():
        arguments = sorted(rule.arguments)
        for name in arguments:
            assert name in samples, f"{rule.rule}: the walk has no sample for <{name}>"
        for values in itertools.product(*(samples[name] for name in arguments)):
            path = rule.rule
            for name, value in zip(arguments, values, strict=True):
                path = path.replace(f"<{name}>", value).replace(
                    f"<int:{name}>", value).replace(f"<path:{name}>", value)
            paths.append(path)
    return paths


def _attack_body(client: FlaskClient, table: Table) -> dict[str, str]:
    """A form that would do harm if any POST branch ran: valid CSRF and form tokens too."""
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    body = {
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "name": "Spam", "host_email": VICTIM, "hours": "24", "seat-0-name": "V",
        "seat-0-email": VICTIM, "seat-1-name": "Robo", "seat-1-computer": "on",
        "email": EMAILS[0], "action": "roll", "notify": "my_turn", "timezone": "UTC",
        "quiet_start": "1", "quiet_end": "2", "days": "3", "seat": "1", "List-Unsubscribe":
        "One-Click",
    }
    return body


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_no_get_or_head_on_any_route_changes_anything(make_app: MakeApp, method: str) -> None:
    app = make_app(MAIL_BACKEND="console", TOKEN_RATE_LIMIT=0)
    _delete_all_rows(app)
    table = _live_table(app)
    client = app.test_client()
    body = _attack_body(client, table)
    samples = _samples(app, table)  # once: a "my games" key is a row, made before the walk
    query = urlencode({"rematch": samples["token"][0], "step": "1",
                       "done": "settings", "move": "roll", "to": EMAILS[0]})
    before = everything(app)
    statuses: dict[str, int] = {}
    for path in _paths(app, samples):
        for target in (path, f"{path}?{query}"):
            answer = client.open(target, method=method, data=body)
            statuses[target] = answer.status_code
            assert answer.status_code < 500, (target, answer.get_data(as_text=True)[:500])
    after = everything(app)
    changed = {name: (before[name], after.get(name)) for name in before
               if before[name] != after.get(name)}
    assert not changed, f"{method} changed {sorted(changed)}"
    assert len(statuses) > 40  # the walk really went everywhere


def _live_table(app: Flask) -> Table:
    from pbem.services import games
    from pbem.services.games import SeatSpec

    with app.app_context():
        game = games.create_game(
            name="Walk", host_email=HOST,
            seats=[SeatSpec("Ana", EMAILS[0]), SeatSpec("Ben", EMAILS[1]),
                   SeatSpec("Cy", EMAILS[2])],
            options={"factions": False}, seed=20240601, fixed_order=True,
        )
        return Table(game.id, game.public_id,
                     [tokens.make_seat_link(game, s) for s in game.seats])


def test_head_with_a_form_body_creates_no_game_and_mails_nobody(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    form = {"csrf_token": hidden(page, "csrf_token"), "name": "Spam", "host_email": VICTIM,
            "hours": "24", "seat-0-name": "V", "seat-0-email": VICTIM, "seat-1-name": "Robo",
            "seat-1-computer": "on"}
    before = everything(app)
    for _ in range(3):
        assert client.open("/games/new", method="HEAD", data=form).status_code == 200
        assert client.open("/me", method="HEAD", data={"email": EMAILS[0]}).status_code == 200
    assert everything(app) == before
