"""Notice fixtures: fake Discord, Slack and ntfy endpoints on loopback (``fake_chat``), an app
that reaches them (the two test settings, ``NOTICE_TEST_LOOPBACK`` and
``NOTICE_TEST_BASE_URLS``), a game whose seats have channels, and a scripted player."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models.game import Game
from pbem.models.notice import Notice
from pbem.services import play, turns
from tests.conftest import MakeApp
from tests.notices import fake_chat

DISCORD_SECRET = "Zq1xSECRETdiscordTOKEN-abc_987"
SLACK_SECRET = "TIiajkdnlazkcOXrSECRETslack"


@pytest.fixture
def fake() -> Iterator[fake_chat.FakeChat]:
    server = fake_chat.start()
    yield server
    fake_chat.stop(server)


def chat_config(fake: fake_chat.FakeChat) -> dict[str, Any]:
    return {"MAIL_BACKEND": "dev", "SERVER_NAME": "pbem.test", "WTF_CSRF_ENABLED": False,
            "MAIL_MESSAGE_ID_DOMAIN": "pbem.test", "PREFERRED_URL_SCHEME": "https",
            "NOTICE_TEST_LOOPBACK": True,
            "NOTICE_TEST_BASE_URLS": {"discord": f"{fake.base}/api/webhooks",
                                      "slack": f"{fake.base}/services"}}


@pytest.fixture
def chat_app(make_app: MakeApp, fake: fake_chat.FakeChat, app: Flask) -> Flask:
    """An app whose posts reach ``fake`` (``app`` first empties every table)."""
    return make_app(**chat_config(fake))


def discord_url(webhook_id: str = "112233445566778899") -> str:
    return f"https://discord.com/api/webhooks/{webhook_id}/{DISCORD_SECRET}"


def slack_url() -> str:
    return f"https://hooks.slack.com/services/T0001/B0002/{SLACK_SECRET}"


def ntfy_url(fake: fake_chat.FakeChat, topic: str = "ana-pbem-topic") -> str:
    return f"ntfy://127.0.0.1:{fake.base.rsplit(':', 1)[1]}/{topic}"


def game_of(game_id: int) -> Game:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game


def awaited_seat(game_id: int) -> int | None:
    return awaited(GameState.from_json(game_of(game_id).state))


def play_one_step(game_id: int, seat: int) -> None:
    game = game_of(game_id)
    state = GameState.from_json(game.state)
    play.play(game_id, seat, game.version, turns.bot_action(game, state, seat))


def play_turn(game_id: int, seat: int) -> int:
    """Seat ``seat`` plays its whole turn, step by step, through ``play.play``."""
    played = 0
    while awaited_seat(game_id) == seat:
        play_one_step(game_id, seat)
        played += 1
    return played


def notices(kind: str | None = None) -> list[Notice]:
    db.session.expire_all()
    query = sa.select(Notice).order_by(Notice.id)
    if kind:
        query = query.where(Notice.kind == kind)
    return list(db.session.scalars(query))


def hidden(page: str, name: str) -> str:
    """The value of the page's hidden field ``name``."""
    found = re.search(rf'name="{name}" value="([^"]+)"', page)
    assert found, f"no hidden {name} in the page"
    return found.group(1)
