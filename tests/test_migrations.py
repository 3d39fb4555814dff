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
