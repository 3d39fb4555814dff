"""A web worker loads no library its requests never use (issue 25, point 7: a worker's budget
is 80 MB RSS, benchmarks/worker_memory.py). Built as gunicorn builds it (the app, the mail
templates), it creates a game (its invitations are composed), serves the home and turn
pages and a move through the API, then lists what is loaded: no Alembic (migrations
only), no httpx (mail over an HTTP API only), no imap_tools (an IMAP inbox only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts a Python process that builds the app

NEVER = ("alembic", "flask_migrate", "mako", "httpx", "imap_tools", "rich", "pygments")

CODE = """
import json, sys, tempfile
from pbem import tokens
from pbem.app import create_app
from pbem.mail.outbound.compose import warm_templates
from pbem.services import games
from pbem.services.games import SeatSpec
app = create_app(instance_path=tempfile.mkdtemp())
warm_templates(app)
with app.app_context():
    game = games.create_game(name="Worker", host_email="ana@example.org", seed=3,
                             seats=[SeatSpec("Ana", "ana@example.org"),
                                    SeatSpec("Bo", "bo@example.org")],
                             options={"factions": False}, fixed_order=True)
    public_id, link = game.public_id, tokens.make_seat_link(game, game.seats[0])
client = app.test_client()
assert client.get("/").status_code == 200
assert client.get(f"/play/{link}").status_code == 200
auth = {"Authorization": f"Bearer {link}"}
seat = client.get(f"/api/games/{public_id}/seat", headers=auth).get_json()
move = {"version": seat["version"], "notation": seat["legal"][0]["notation"]}
assert client.post(f"/api/games/{public_id}/actions", json=move, headers=auth).status_code == 200
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))))
"""


def _loaded(tmp_path: Path, **settings: str) -> list[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'w.sqlite3'}",
           "SECRET_KEY": "x", "API_RATE_LIMIT": "0", **settings}
    migrated = subprocess.run([str(Path(sys.executable).parent / "pbem"), "db-upgrade"],
                              capture_output=True, text=True, timeout=120, env=env, check=False)
    assert migrated.returncode == 0, migrated.stderr
    result = subprocess.run([sys.executable, "-c", CODE, *NEVER], capture_output=True,
                            text=True, timeout=120, env=env, check=False)
    assert result.returncode == 0, result.stderr
    return list(json.loads(result.stdout.splitlines()[-1]))


def test_a_worker_mailing_over_smtp_loads_no_unused_library(tmp_path: Path) -> None:
    assert _loaded(tmp_path, MAIL_BACKEND="smtp") == []


def test_a_worker_mailing_over_an_http_api_loads_httpx_only_to_send(tmp_path: Path) -> None:
    assert _loaded(tmp_path, MAIL_BACKEND="resend", MAIL_API_KEY="k") == []
