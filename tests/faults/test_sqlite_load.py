"""SQLite, the embedded default, under concurrent play: a real gunicorn (two workers of four
threads, as deployed) on a SQLite file, 20 clients submitting moves through the API and
opening turn pages, and the scheduler ticking every second in both workers. Not one answer
may be a 5xx, none may be lost, and every move answered 200 must be in the log.

Before WAL, a 30 s busy timeout and ``BEGIN IMMEDIATE`` (pbem.extensions), 10 clients for
60 s got 2 of 3,826 submits answered 500 (``database is locked`` on the lock's
``UPDATE games SET version=…``); benchmarks/RESULTS.md has this test's figures before and
after. ``PBEM_SQLITE_LOAD_SECONDS`` runs it longer (the issue's 60 s).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from pbem import tokens
from pbem.extensions import db
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import build_app
from tests.live_server import SECRET_KEY, Live, migrated_database, serving

pytestmark = [pytest.mark.faults, pytest.mark.slow]

CLIENTS = 20
GAMES_PER_CLIENT = 2
SECONDS = float(os.environ.get("PBEM_SQLITE_LOAD_SECONDS", "20"))
PAGE_SHARE = 0.2  # of each client's requests: its turn page, read while others write
HOLD_SECONDS = 6.0  # longer than pysqlite's default busy timeout (5 s)


@dataclass
class Table:
    public_id: str
    links: list[str]
    state: dict[str, Any] = field(default_factory=dict)  # the awaited seat's API picture


@dataclass
class Tally:
    statuses: Counter[int | None] = field(default_factory=Counter)
    applied: Counter[str] = field(default_factory=Counter)  # moves answered 200, by game
    in_flight: int = 0  # moves sent and not yet answered
    most_in_flight: int = 0  # the pressure: how many writes waited on the server at once
    lock = threading.Lock()

    def add(self, status: int | None, game: str | None = None) -> None:
        with self.lock:
            self.statuses[status] += 1
            if game is not None:
                self.applied[game] += 1

    def sending(self, change: int) -> None:
        with self.lock:
            self.in_flight += change
            self.most_in_flight = max(self.most_in_flight, self.in_flight)


def _make_games(db_url: str, directory: Path, count: int) -> list[Table]:
    app = build_app(db_url, directory / "instance", SECRET_KEY=SECRET_KEY)
    tables = []
    with app.app_context():
        for n in range(count):
            game = games.create_game(
                name=f"Load {n}", host_email="host@example.org",
                seats=[SeatSpec("Ana", f"ana{n}@example.org"),
                       SeatSpec("Bo", f"bo{n}@example.org")],
                options={"factions": False}, seed=3000 + n, fixed_order=True)
            tables.append(Table(game.public_id,
                                [tokens.make_seat_link(game, s) for s in game.seats]))
        db.session.remove()
        db.engine.dispose()
    return tables


class Client(threading.Thread):
    """One keep-alive connection playing its own games, so no move of it is ever stale."""

    def __init__(self, live: Live, tables: list[Table], tally: Tally, stop_at: float,
                 seed: int) -> None:
        super().__init__(daemon=True)
        host, port = live.base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.tables, self.tally, self.stop_at = tables, tally, stop_at
        self.rng = random.Random(seed)
        self.failure: BaseException | None = None

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int | None, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body) if body is not None else None
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()  # an idle keep-alive connection closed by the server
                if attempt == 2 or method != "GET" and path.endswith("/actions"):
                    return None, None  # a move with no answer is lost, never resent
                continue
            is_json = response.getheader("Content-Type", "").startswith("application/json")
            return response.status, json.loads(raw) if is_json else None
        return None, None

    def refresh(self, table: Table) -> None:
        """The picture of the seat the game awaits (what that seat's client would read)."""
        status, data = self.call("GET", f"/api/games/{table.public_id}/seat",
                                 token=table.links[0])
        self.tally.add(status)
        if status == 200 and data["awaiting"] not in (None, 0):
            status, data = self.call("GET", f"/api/games/{table.public_id}/seat",
                                     token=table.links[data["awaiting"]])
            self.tally.add(status)
        if status == 200:
            table.state = data

    def run(self) -> None:
        try:
            for table in self.tables:
                self.refresh(table)
            while time.monotonic() < self.stop_at:
                self.step()
        except BaseException as exc:  # reported by the test, never swallowed
            self.failure = exc
        finally:
            self.conn.close()

    def step(self) -> None:
        table = self.rng.choice(self.tables)
        data = table.state
        if not data or data["awaiting"] is None:
            self.refresh(table)
            return
        seat = data["seat"]["index"]
        if self.rng.random() < PAGE_SHARE:
            status, _ = self.call("GET", f"/play/{table.links[seat]}")
            self.tally.add(status)
            return
        self.move(table)

    def move(self, table: Table) -> int | None:
        """One legal move of the awaited seat, chosen at random; its status."""
        data = table.state
        seat = data["seat"]["index"]
        move = self.rng.choice(data["legal"])["notation"]
        self.tally.sending(+1)
        try:
            status, answer = self.call("POST", f"/api/games/{table.public_id}/actions",
                                       {"version": data["version"], "notation": move},
                                       token=table.links[seat])
        finally:
            self.tally.sending(-1)
        self.tally.add(status, table.public_id if status == 200 else None)
        if status == 200 and answer["awaiting"] in (None, seat):
            table.state = answer
        else:
            self.refresh(table)
        return status


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Live, str,
                                                                       list[Table]]]:
    directory = tmp_path_factory.mktemp("sqlite-load")
    db_url = migrated_database(directory)
    tables = _make_games(db_url, directory, CLIENTS * GAMES_PER_CLIENT)
    env = {"API_RATE_LIMIT": "0", "TOKEN_RATE_LIMIT": "0", "MAIL_BACKEND": "dev",
           "SCHEDULER_TICK_SECONDS": "1"}  # the scheduler's writes contend too
    with serving(db_url, directory, workers=2, env=env) as live:
        yield live, db_url, tables
        assert "Traceback" not in live.output(), live.output()[-4000:]
        assert "database is locked" not in live.output(), live.output()[-4000:]


def test_twenty_clients_on_sqlite_never_get_a_server_error(
        server: tuple[Live, str, list[Table]]) -> None:
    live, db_url, tables = server
    tally = Tally()
    stop_at = time.monotonic() + SECONDS
    clients = [Client(live, tables[n::CLIENTS], tally, stop_at, seed=n) for n in range(CLIENTS)]
    for client in clients:
        client.start()
    for client in clients:
        client.join(SECONDS + 120)
    assert not [c for c in clients if c.is_alive()], "a client hung"
    assert [c.failure for c in clients if c.failure] == []
    statuses = dict(tally.statuses)
    print(f"\nSQLite, {CLIENTS} clients, {SECONDS:g} s: answers by status {statuses}, "
          f"{sum(tally.applied.values())} moves applied, at most {tally.most_in_flight} "
          "moves waiting on the server at once")
    server_errors = {s: n for s, n in statuses.items() if s is None or s >= 500}
    assert server_errors == {}, statuses
    assert set(statuses) <= {200}, statuses  # each client owns its games: nothing is stale
    # The pressure, however fast the machine: more writers at once than the server's 8
    # threads, so writes queue for SQLite's lock; and every client got moves through.
    assert tally.most_in_flight > 8, tally.most_in_flight
    assert all(any(tally.applied[t.public_id] for t in c.tables) for c in clients)
    _every_applied_move_is_in_the_log(db_url, tally)


def _every_applied_move_is_in_the_log(db_url: str, tally: Tally) -> None:
    """Each 200 is a committed move: a game's version grew by its applied moves at least
    (the autopilot's and the server's own steps add more, never fewer)."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            versions = dict(conn.execute(sa.text("SELECT public_id, version FROM games")).all())
    finally:
        engine.dispose()
    short = {game: (versions[game], applied) for game, applied in tally.applied.items()
             if versions[game] < applied}
    assert short == {}


def _moved_in_background(live: Live, table: Table) -> tuple[threading.Thread, list[int | None]]:
    """A move of ``table``'s awaited seat, sent from a thread; its status lands in the list."""
    client = Client(live, [table], Tally(), stop_at=0.0, seed=7)
    client.refresh(table)
    answered: list[int | None] = []

    def send() -> None:
        try:
            answered.append(client.move(table))
        finally:
            client.conn.close()

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread, answered


def test_a_move_waits_out_another_process_holding_the_write_lock(
        server: tuple[Live, str, list[Table]]) -> None:
    """Another process (here a sqlite3 connection: a backup, a migration, ``pbem`` in a
    shell) writes for 6 s, longer than pysqlite's default 5 s busy timeout: the move queues
    behind it and is applied, where it was answered 500 ``database is locked``."""
    live, db_url, tables = server
    holder = sqlite3.connect(sa.make_url(db_url).database or "", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("UPDATE app_meta SET value = value")
        thread, answered = _moved_in_background(live, tables[0])
        thread.join(HOLD_SECONDS)
        assert answered == []  # it cannot have written: the lock is held
        holder.execute("COMMIT")
    finally:
        holder.close()
    thread.join(60)
    assert answered == [200]


def test_a_long_read_does_not_hold_off_moves(server: tuple[Live, str, list[Table]]) -> None:
    """A reader that keeps its read transaction open (a backup, a long report): with the
    rollback journal no write could commit until it ended; in WAL moves go on beside it."""
    live, db_url, tables = server
    reader = sqlite3.connect(sa.make_url(db_url).database or "", isolation_level=None)
    try:
        reader.execute("BEGIN")
        before = reader.execute("SELECT sum(version) FROM games").fetchone()
        thread, answered = _moved_in_background(live, tables[1])
        thread.join(60)  # answered while the read transaction is still open
        assert answered == [200]
        assert reader.execute("SELECT sum(version) FROM games").fetchone() == before
        reader.execute("COMMIT")
    finally:
        reader.close()


def test_every_sqlite_connection_is_set_to_queue_its_writes(tmp_path: Path) -> None:
    app = build_app(f"sqlite:///{tmp_path / 'settings.sqlite3'}", tmp_path / "instance")
    with app.app_context(), db.engine.connect() as conn:
        pragma = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                  for name in ("journal_mode", "busy_timeout", "foreign_keys")}
        raw = conn.connection.dbapi_connection
        assert raw is not None
        isolation = raw.isolation_level  # type: ignore[attr-defined]
    with app.app_context():
        db.engine.dispose()
    assert pragma == {"journal_mode": "wal", "busy_timeout": 30_000, "foreign_keys": 1}
    assert isolation == "IMMEDIATE"
