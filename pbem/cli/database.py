"""``pbem db-upgrade``: apply the pending migrations and name each one applied.

An operator reading a release log must see what changed in the database: on an empty database
that the schema was created (and from which revisions), after a release the revisions it
added, otherwise the revision the database is at. ``pbem serve`` upgrades with the same words.
"""

from __future__ import annotations

from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.extensions import db


def upgrade_with_report() -> list[str]:
    """Apply every pending migration; the lines saying what was applied (app context)."""
    import flask_migrate  # Alembic: only migration commands load it (pbem.extensions)
    from alembic.script import ScriptDirectory

    # Flask-Migrate's own Alembic config: the app's migrations folder and options
    script = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())
    before = _current_revisions()
    flask_migrate.upgrade()
    after = _current_revisions()
    applied = list(reversed(list(script.iterate_revisions(after, before or "base"))))
    return _report(before, after, applied)


def _current_revisions() -> tuple[str, ...]:
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        return tuple(MigrationContext.configure(connection).get_current_heads())


def _report(before: tuple[str, ...], after: tuple[str, ...], applied: list[Any]) -> list[str]:
    at = ", ".join(after) or "no revision"
    if not applied:
        return [f"pbem: database schema is up to date (at {at})"]
    if not before:
        head = f"pbem: created the database schema ({len(applied)} migrations applied):"
    else:
        count = "1 migration" if len(applied) == 1 else f"{len(applied)} migrations"
        head = f"pbem: applied {count} (from {', '.join(before)} to {at}):"
    return [head, *(f"  {revision.revision}  {_first_line(revision.doc)}"
                    for revision in applied)]


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


@click.command("db-upgrade")
@with_appcontext
def db_upgrade() -> None:
    """Apply every pending database migration and name each one (the Procfile release
    phase runs this)."""
    for line in upgrade_with_report():
        click.echo(line)
