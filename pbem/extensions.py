"""Flask extension singletons, created unbound and attached in ``create_app``.

Constraint names follow a fixed naming convention so Alembic can drop and alter them by name
on both SQLite (batch mode) and PostgreSQL; without it SQLite constraints are anonymous.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar, cast

import click
from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base for every model; its metadata is Alembic's target."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class LazyMigrate:
    """Flask-Migrate, imported only when a migration runs (``pbem db-upgrade``, ``flask db``,
    ``flask_migrate.upgrade()``). Importing it loads Alembic, Mako and Pygments: about 11 MB
    in every process, which serving requests never uses (the budget: 80 MB per web worker).

    ``init_app`` takes Flask-Migrate's arguments and leaves a stand-in in
    ``app.extensions["migrate"]`` and a ``db`` command group; either one brings in the real
    extension on first use.
    """

    def init_app(self, app: Flask, db: SQLAlchemy, **options: Any) -> None:
        app.extensions["migrate"] = _PendingMigrate(app, db, options)
        app.cli.add_command(_MigrateCommands("db", help="Perform database migrations."))


class _PendingMigrate:
    def __init__(self, app: Flask, db: SQLAlchemy, options: dict[str, Any]) -> None:
        self._app, self._db, self._options = app, db, options
        self._loaded: Any = None

    def __getattr__(self, name: str) -> Any:  # only for attributes this stand-in lacks
        if self._loaded is None:
            from flask_migrate import Migrate

            Migrate(self._app, self._db, **self._options)  # replaces the stand-in
            self._loaded = self._app.extensions["migrate"]
        return getattr(self._loaded, name)


class _MigrateCommands(click.Group):
    """``flask db …``: hands the command line to Flask-Migrate's own group, imported then."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        from flask_migrate.cli import db as commands

        context: click.Context = commands.make_context(info_name, args, parent=parent, **extra)
        return context


db = SQLAlchemy(model_class=Base)
migrate = LazyMigrate()
csrf = CSRFProtect()


# How long a SQLite write waits for another process's write to finish before it fails with
# "database is locked": far longer than any one write transaction takes (a few ms to a few
# hundred under load), so under load a write queues instead of answering 500 (issue 25).
SQLITE_BUSY_TIMEOUT_MS = 30_000


@event.listens_for(Engine, "connect")
def _sqlite_settings(dbapi_connection: Any, _record: Any) -> None:
    """Every SQLite connection: foreign keys checked (SQLite ignores them unless asked per
    connection; PostgreSQL always checks), and concurrent writers that queue, never fail.

    - WAL: readers never block a writer's commit, nor a commit the readers (in the default
      rollback journal, a page being read held off every move's commit). The mode is kept in
      the file; the database gets ``-wal`` and ``-shm`` files beside it.
    - ``busy_timeout``: a writer waits for the write lock up to ``SQLITE_BUSY_TIMEOUT_MS``
      (pysqlite's default is 5 s, which a queue of writers on a busy machine outlasted).
    - ``BEGIN IMMEDIATE``: pysqlite opens a transaction before its first write; immediate, it
      takes the write lock at once, waiting out the timeout, so a transaction never holds a
      read snapshot that a later write of its own would find stale (a ``SQLITE_BUSY`` that
      no timeout waits out). Reads outside a write transaction take no lock at all.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.isolation_level = "IMMEDIATE"
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()


View = TypeVar("View", bound=Callable[..., Any])


def csrf_exempt(view: View) -> View:
    """`csrf.exempt` with its type kept (Flask-WTF ships none): for the few POSTs that come
    from outside a page of ours, a mail client's one-click unsubscribe or a cron's tick."""
    return cast(View, csrf.exempt(view))

