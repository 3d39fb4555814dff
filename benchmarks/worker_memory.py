"""A web worker's memory (RSS) after 300 submissions and 300 page loads (issue 25, point 7).

    .venv/bin/python benchmarks/worker_memory.py [--database-url URL] [--rounds 3]

Each round builds a scratch database (SQLite in a temp dir, or a fresh schema of
``--database-url``, e.g. the local PostgreSQL), creates 20 games (Factions and base, 2-4
seats), starts gunicorn as deployed (``gunicorn.conf.py``: preloaded app, the scheduler thread
in the worker, ticking every 30 s) with one worker, and measures that worker's RSS at boot,
then after 300 moves through the JSON API and 300 page loads (turn pages, the public game
page, the home page), beside the target: <= 80 MB.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from load import free_port, worker_pids, worker_rss_mb  # noqa: E402

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402

TARGET_MB = 80.0
SECRET = "worker-memory-secret"
SUBMITS = PAGES = 300


SCHEMA = "pbem_worker_memory"


def make_games(url: str, count: int) -> list[dict[str, Any]]:
    """``count`` games through the service, on a database migrated to head."""
    import flask_migrate

    from pbem import tokens
    from pbem.app import create_app
    from pbem.extensions import db
    from pbem.services import games
    from pbem.services.games import SeatSpec

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET},
                     instance_path=tempfile.mkdtemp())
    out = []
    with app.app_context():
        flask_migrate.upgrade()
        for n in range(count):
            seats = [SeatSpec(f"P{i}", f"p{i}.{n}@example.org") for i in range(2 + n % 3)]
            game = games.create_game(name=f"Memory {n}", host_email="host@example.org",
                                     seats=seats, options={"factions": n % 2 == 0},
                                     seed=500 + n, fixed_order=True)
            out.append({"id": game.public_id,
                        "links": [tokens.make_seat_link(game, s) for s in game.seats]})
        db.session.remove()
        db.engine.dispose()
    return out


def start(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY=SECRET, MAIL_BACKEND="dev",
               API_RATE_LIMIT="0", TOKEN_RATE_LIMIT="0", WEB_CONCURRENCY="1")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "pbem.app:create_app()",
             "--config", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"gunicorn did not start:\n{log.read_text()}")


class Player:
    """One keep-alive connection playing random legal moves and opening pages."""

    def __init__(self, port: int, tables: list[dict[str, Any]], seed: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.tables, self.rng = tables, random.Random(seed)
        self.states: dict[str, dict[str, Any]] = {}

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, body=json.dumps(body) if body else None,
                          headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        if response.status >= 500:
            raise SystemExit(f"{method} {path}: {response.status}")
        return response.status, (json.loads(raw) if path.startswith("/api") else raw)

    def awaited(self, table: dict[str, Any]) -> dict[str, Any]:
        _, data = self.call("GET", f"/api/games/{table['id']}/seat", token=table["links"][0])
        if data["awaiting"] not in (None, 0):
            _, data = self.call("GET", f"/api/games/{table['id']}/seat",
                                token=table["links"][data["awaiting"]])
        return dict(data)

    def submit(self) -> None:
        table = self.rng.choice(self.tables)
        data = self.states.get(table["id"]) or self.awaited(table)
        if data["awaiting"] is None:
            self.tables.remove(table)
            return self.submit()
        seat = data["seat"]["index"]
        move = self.rng.choice(data["legal"])["notation"]
        status, answer = self.call("POST", f"/api/games/{table['id']}/actions",
                                   {"version": data["version"], "notation": move},
                                   token=table["links"][seat])
        fresh = status == 200 and answer["awaiting"] in (None, seat)
        self.states[table["id"]] = answer if fresh else self.awaited(table)
        return None

    def page(self, n: int) -> None:
        table = self.rng.choice(self.tables)
        path = (f"/play/{self.rng.choice(table['links'])}", f"/games/{table['id']}", "/")[n % 3]
        status, _ = self.call("GET", path)
        assert status == 200, (path, status)


def print_smaps(pid: int) -> None:
    """Where a worker's resident memory is, by kind of mapping (for finding what to cut)."""
    kinds: dict[str, int] = {}
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5:
            name = fields[5] if len(fields) > 5 else "[anonymous]"
            name = name.rsplit("/", 1)[-1]
        elif fields[0] == "Rss:":
            kinds[name] = kinds.get(name, 0) + int(fields[1])
    for what, kb in sorted(kinds.items(), key=lambda item: -item[1])[:15]:
        print(f"    {kb / 1024:6.1f} MB  {what}")


def one_round(base_url: str | None) -> tuple[float, float]:
    directory = Path(tempfile.mkdtemp(prefix="worker-memory-"))
    url = (fresh_schema_url(base_url, SCHEMA) if base_url
           else f"sqlite:///{directory / 'memory.sqlite3'}")
    tables = make_games(url, 20)
    port = free_port()
    server = start(url, port, directory / "gunicorn.log")
    try:
        [worker] = worker_pids(server.pid)
        boot = worker_rss_mb(server.pid)[0]
        player = Player(port, list(tables), seed=len(tables))
        for n in range(max(SUBMITS, PAGES)):
            if n < SUBMITS:
                player.submit()
            if n < PAGES:
                player.page(n)
        after = worker_rss_mb(server.pid)[0]
        assert worker_pids(server.pid) == [worker], "the worker was replaced mid-run"
        if os.environ.get("PBEM_SMAPS"):
            print_smaps(worker)
    finally:
        server.terminate()
        try:
            server.wait(60)  # a loaded machine may take its time to stop gracefully
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(15)
    if base_url:
        engine = sa.create_engine(base_url)
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        engine.dispose()
    return boot, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL server to make a scratch schema on (default: SQLite)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rows = [one_round(args.database_url) for _ in range(args.rounds)]
    where = "PostgreSQL" if args.database_url else "SQLite"
    print(f"one gunicorn worker ({where}), {SUBMITS} submissions + {PAGES} page loads:")
    for n, (boot, after) in enumerate(rows, 1):
        print(f"  round {n}: RSS at boot {boot:.1f} MB, after the run {after:.1f} MB")
    worst = max(after for _, after in rows)
    verdict = "met" if worst <= TARGET_MB else "MISSED"
    print(f"worst RSS after the run: {worst:.1f} MB (target <= {TARGET_MB:g} MB) {verdict}")


if __name__ == "__main__":
    main()
