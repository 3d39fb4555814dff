"""Alembic environment for pbem, driven by Flask-Migrate inside an app context.

The target is ``db.metadata`` (every model in ``pbem.models``, with the constraint naming
convention). ``render_as_batch`` and ``compare_type`` come from ``create_app`` through
``configure_args``; batch mode is what lets SQLite alter tables.
"""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
if config.config_file_name is not None:
    # Keep loggers configured by the app or by pytest working after a migration.
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url", db.engine.url.render_as_string(hide_password=False).replace("%", "%%")
)
target_metadata = db.metadata


def run_migrations_offline() -> None:
    """Emit SQL to stdout (``--sql``) instead of running it."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        **current_app.extensions["migrate"].configure_args,
    )
    with context.begin_transaction():
        context.run_migrations()


def _skip_empty_autogenerate(context_, revision, directives):  # type: ignore[no-untyped-def]
    """``flask db migrate`` with no model change writes no empty revision file."""
    if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        logger.info("No changes in schema detected.")


def run_migrations_online() -> None:
    """Run the migrations on the app's engine, one transaction for the whole upgrade."""
    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", _skip_empty_autogenerate)
    with db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode drops and recreates tables; with foreign keys on, SQLite would
            # cascade or refuse. Off only for the migration; back on before the pool reuses it.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            context.configure(connection=connection, target_metadata=target_metadata, **conf_args)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
