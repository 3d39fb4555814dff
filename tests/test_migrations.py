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
            db.session.execute(sa.text(
                "INSERT INTO games (id, public_id, name, status, players, options, seed, state,"
                " version, turn_start_state, turn_steps, host_email, time_per_move_hours,"
                " created_at, updated_at) VALUES (1, 'g', 'Old', 'active', 2, '{}', 1, '{}',"
                " 1, '{}', '[]', 'h@example.org', 48, '2026-01-01', '2026-01-01')"))
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
