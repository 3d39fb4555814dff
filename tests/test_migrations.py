"""The Alembic history builds, tears down and rebuilds the schema on both databases."""

from __future__ import annotations

from pathlib import Path

import flask_migrate
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from pbem.extensions import db
from pbem.paths import migrations_dir
from tests.conftest import build_app


def _tables(app: Flask) -> set[str]:
    with app.app_context():
        return set(sa.inspect(db.engine).get_table_names())


def _insert_old_game(game_id: int = 1, public_id: str = "g", status: str = "active") -> None:
    """A 2-seat game row with the columns every migration since 0005 has (no seats)."""
    db.session.execute(sa.text(
        "INSERT INTO games (id, public_id, name, status, players, options, seed, state,"
        " version, turn_start_state, turn_steps, host_email, time_per_move_hours,"
        " created_at, updated_at) VALUES (:id, :p, 'Old', :s, 2, '{}', 1, '{}',"
        " 1, '{}', '[]', 'h@example.org', 48, '2026-01-01', '2026-01-01')"),
        {"id": game_id, "p": public_id, "s": status})


def test_upgrade_downgrade_upgrade(fresh_db_url: str, tmp_path: Path) -> None:
    app = build_app(fresh_db_url, tmp_path / "instance")
    try:
        with app.app_context():
            flask_migrate.upgrade()
        assert {"app_meta", "alembic_version"} <= _tables(app)
        with app.app_context():
            flask_migrate.downgrade(revision="base")
        assert _tables(app) == {"alembic_version"}
        with app.app_context():
            flask_migrate.upgrade()
            created = db.session.execute(
                sa.text("SELECT value FROM app_meta WHERE key = 'schema_created_at'")
            ).scalar_one()
        assert created.endswith("+00:00")
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_models_match_the_migrations(app: Flask) -> None:
    """``flask db migrate`` would find nothing to do: models and revisions agree."""
    with app.app_context(), db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_revision_files_are_named_by_their_readable_ids() -> None:
    for path in (migrations_dir() / "versions").glob("*.py"):
        revision_line = next(
            line for line in path.read_text().splitlines() if line.startswith("revision = ")
        )
        assert revision_line == f'revision = "{path.stem}"'


def test_levels_migration_names_the_old_computer_seats_greedy(fresh_db_url: str,
                                                              tmp_path: Path) -> None:
    """0008_levels: seats gain ``bot_level`` (a computer player from before levels played
    greedy), games ``autopilot_level`` (greedy); downgrade drops both."""
    app = build_app(fresh_db_url, tmp_path / "instance")
    try:
        with app.app_context():
            flask_migrate.upgrade(revision="0005_digest")
            _insert_old_game()
            for index, is_bot in ((0, False), (1, True)):
                db.session.execute(sa.text(
                    "INSERT INTO seats (game_id, \"index\", name, is_bot, colour, timezone,"
                    " notify, link_counter, resigned, absent, consecutive_timeouts,"
                    " email_failing) VALUES (1, :i, 'S', :b, 'red', 'UTC', 'every_turn', 0,"
                    " false, false, 0, false)"), {"i": index, "b": is_bot})
            db.session.commit()
            flask_migrate.upgrade(revision="0008_levels")
            levels = db.session.execute(sa.text(
                'SELECT bot_level FROM seats ORDER BY "index"')).scalars().all()
            autopilot = db.session.execute(sa.text(
                "SELECT autopilot_level FROM games")).scalar_one()
            db.session.commit()
            assert levels == [None, "greedy"] and autopilot == "greedy"
            flask_migrate.downgrade(revision="0005_digest")
            columns = {c["name"] for c in sa.inspect(db.engine).get_columns("seats")}
            assert "bot_level" not in columns
            game_columns = {c["name"] for c in sa.inspect(db.engine).get_columns("games")}
            assert "autopilot_level" not in game_columns
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_digest_due_migration_has_every_digest_seat_of_a_live_game_looked_at(
        fresh_db_url: str, tmp_path: Path) -> None:
    """0015_digest_due: the digest seats of active and paused games get a ``next_digest_at``
    (the next tick looks at them), the other seats and the seats of ended games none."""
    app = build_app(fresh_db_url, tmp_path / "instance")
    try:
        with app.app_context():
            flask_migrate.upgrade(revision="0014_reply_waits")
            for game_id, status in ((1, "active"), (2, "paused"), (3, "finished")):
                _insert_old_game(game_id, f"g{game_id}", status)
                for index, notify in ((0, "digest"), (1, "my_turn")):
                    db.session.execute(sa.text(
                        "INSERT INTO seats (game_id, \"index\", name, is_bot, colour, timezone,"
                        " notify, link_counter, resigned, absent, consecutive_timeouts,"
                        " email_failing) VALUES (:g, :i, 'S', false, 'red', 'UTC', :n, 0,"
                        " false, false, 0, false)"), {"g": game_id, "i": index, "n": notify})
            db.session.commit()
            flask_migrate.upgrade(revision="0015_digest_due")
            looked = db.session.execute(sa.text(
                'SELECT game_id, "index" FROM seats WHERE next_digest_at IS NOT NULL'
                ' ORDER BY game_id')).all()
            db.session.commit()
            assert [tuple(row) for row in looked] == [(1, 0), (2, 0)]
            flask_migrate.downgrade(revision="0014_reply_waits")
            columns = {c["name"] for c in sa.inspect(db.engine).get_columns("seats")}
            assert "next_digest_at" not in columns
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_bot_budget_migration_leaves_every_game_at_the_default(fresh_db_url: str,
                                                               tmp_path: Path) -> None:
    """0016_bot_budget: games gain a nullable ``bot_budget``, NULL (the strong bot's default)
    for the games there were; downgrade drops it."""
    app = build_app(fresh_db_url, tmp_path / "instance")
    try:
        with app.app_context():
            flask_migrate.upgrade(revision="0015_digest_due")
            _insert_old_game()
            db.session.commit()
            flask_migrate.upgrade(revision="0016_bot_budget")
            budget = db.session.execute(sa.text("SELECT bot_budget FROM games")).scalar_one()
            db.session.execute(sa.text("UPDATE games SET bot_budget = 200"))
            db.session.commit()
            assert budget is None
            column = next(c for c in sa.inspect(db.engine).get_columns("games")
                          if c["name"] == "bot_budget")
            assert column["nullable"] and isinstance(column["type"], sa.Integer)
            flask_migrate.downgrade(revision="0015_digest_due")
            columns = {c["name"] for c in sa.inspect(db.engine).get_columns("games")}
            assert "bot_budget" not in columns
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
