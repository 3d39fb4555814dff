"""The submission hot path (issue #6): a move inside a turn is read with its lock and written
as one UPDATE of the games row; any step that does more takes the full path, unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import Deadline, Seat

from .conftest import auth, fresh, link, start

MOVE = "dock 1 solar_converter"  # seat 0's first step of the base game: the turn goes on


@contextmanager
def writes() -> Iterator[list[str]]:
    """The INSERT, UPDATE and DELETE statements sent meanwhile, as "VERB table"."""
    sent: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        words = statement.split()
        if words[0] in ("INSERT", "UPDATE", "DELETE"):
            table = words[2] if words[0] != "UPDATE" else words[1]
            sent.append(f"{words[0]} {table}")

    sa.event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", record)


def _post(server: Flask, game_id: int, notation: str) -> dict:  # type: ignore[type-arg]
    game = fresh(game_id)
    response = server.test_client().post(
        f"/api/games/{game.public_id}/actions", headers=auth(link(game_id, 0)),
        json={"version": game.version, "notation": notation})
    assert response.status_code == 200, response.get_json()
    body: dict = response.get_json()  # type: ignore[type-arg]
    return body


def test_a_move_inside_a_turn_writes_only_the_game_row(server: Flask, database_kind: str) -> None:
    game = start(2)
    with writes() as sent:
        body = _post(server, game.id, MOVE)
    lock = ["UPDATE games"] if database_kind == "sqlite" else []  # SQLite's write lock
    assert sent == [*lock, "UPDATE games"]
    after = fresh(game.id)
    assert after.version == 2
    assert [step["notation"] for step in after.turn_steps] == [MOVE]
    # The answer built from the locked columns is the one a fresh read of the seat gives.
    again = server.test_client().get(f"/api/games/{after.public_id}/seat",
                                     headers=auth(link(game.id, 0))).get_json()
    assert {k: v for k, v in body.items() if k != "applied"} == again


def test_a_move_that_ends_a_timeout_streak_takes_the_full_path(server: Flask) -> None:
    game = start(2)  # the streak does not change the wait: only the seat row tells
    db.session.execute(sa.update(Seat).where(Seat.game_id == game.id, Seat.index == 0)
                       .values(consecutive_timeouts=2))
    db.session.commit()
    _post(server, game.id, MOVE)
    assert fresh(game.id).seat(0).consecutive_timeouts == 0


def test_a_move_with_no_clock_rows_schedules_them(server: Flask) -> None:
    game = start(2)
    db.session.execute(sa.delete(Deadline).where(Deadline.game_id == game.id))
    db.session.commit()
    _post(server, game.id, MOVE)
    rows = db.session.scalars(sa.select(Deadline).where(
        Deadline.game_id == game.id, Deadline.done_at.is_(None))).all()
    assert rows and {row.seat for row in rows} == {0}
