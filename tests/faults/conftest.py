"""A live gunicorn for the attacks, a game on it, an HTTP client with cookies, and the table
of figures every attack adds a row to."""

from __future__ import annotations

import http.cookiejar
import os
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
from tests.live_server import REPO, SECRET_KEY, Live, migrated_database, serving

# One table per pytest worker (xdist runs test files side by side).
FIGURES = REPO / "artifacts" / f"faults-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.md"
COLUMNS = ("attack", "tries", "got through", "lost", "duplicated", "5xx")


@dataclass
class Figures:
    """One attack's counts: ``tries`` requests, of which ``through`` did what the attack
    wanted, ``lost`` got no answer (or a legitimate action was lost), ``server_errors``
    answered 5xx; ``duplicated`` things done twice (a mail, a reminder, a timeout)."""

    attack: str
    tries: int = 0
    through: int = 0
    lost: int = 0
    server_errors: int = 0
    duplicated: int = 0
    notes: list[str] = field(default_factory=list)

    def answered(self, status: int | None) -> None:
        self.tries += 1
        if status is None:
            self.lost += 1
        elif status >= 500:
            self.server_errors += 1

    def assert_targets(self) -> None:
        assert self.tries > 0
        assert (self.through, self.lost, self.duplicated, self.server_errors) == (0, 0, 0, 0), \
            self


@pytest.fixture(scope="session")
def fault_table() -> Iterator[list[Figures]]:
    rows: list[Figures] = []
    yield rows
    if rows:
        FIGURES.parent.mkdir(exist_ok=True)
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += [f"| {r.attack} | {r.tries} | {r.through} | {r.lost} | {r.duplicated} "
                  f"| {r.server_errors} |" for r in rows]
        FIGURES.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def figures(fault_table: list[Figures]) -> Callable[[str], Figures]:
    """``figures("attack name")``: a new row of the table."""

    def new(attack: str) -> Figures:
        row = Figures(attack)
        fault_table.append(row)
        return row

    return new


@dataclass
class Target:
    """The server under attack, the database it uses, and a game on it."""

    live: Live
    db_url: str
    public_id: str
    game_id: int
    links: list[str]

    def count(self, table: str, where: str = "") -> int:
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return int(conn.execute(sa.text(f"SELECT count(*) FROM {table} {where}"))
                           .scalar_one())
        finally:
            engine.dispose()

    def scalar(self, sql: str) -> Any:
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return conn.execute(sa.text(sql)).scalar_one()
        finally:
            engine.dispose()


def _game(db_url: str, directory: Path) -> tuple[str, int, list[str]]:
    app = build_app(db_url, directory / "instance", SECRET_KEY=SECRET_KEY)
    with app.app_context():
        game = games.create_game(
            name="Under attack", host_email="host@example.org",
            seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Ben", "ben@example.org"),
                   SeatSpec("Cy", "cy@example.org")],
            options={"factions": False}, seed=20240601, fixed_order=True)
        found = (game.public_id, game.id, [tokens.make_seat_link(game, s) for s in game.seats])
        db.session.remove()
        db.engine.dispose()
    return found


@contextmanager
def attacked(directory: Path, *, workers: int = 2,
             env: dict[str, str] | None = None) -> Iterator[Target]:
    db_url = migrated_database(directory)
    public_id, game_id, links = _game(db_url, directory)
    with serving(db_url, directory, workers=workers, env=env) as live:
        yield Target(live, db_url, public_id, game_id, links)
        assert "Traceback" not in live.output(), live.output()[-4000:]


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """Two workers as deployed; the seat-link and API limits high enough for the attacks."""
    with attacked(tmp_path_factory.mktemp("faults"),
                  env={"TOKEN_RATE_LIMIT": "100000", "API_RATE_LIMIT": "100000"}) as found:
        yield found


class Browser:
    """urllib with a cookie jar: what a visitor's browser keeps between requests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect())

    def open(self, method: str, path: str, data: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int | None, str]:
        """(status, body); status None when the server gave no answer at all."""
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None, ""

    def csrf(self, path: str = "/games/new") -> str:
        status, page = self.open("GET", path)
        assert status == 200, (status, page[:500])
        found = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert found
        return found.group(1)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 303 is an answer: the attack counts it, it does not follow it
