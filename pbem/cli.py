"""The ``pbem`` command line: ``pbem serve``, ``pbem db-upgrade``, ``pbem clock``.

The same click group is installed as the ``pbem`` console script and registered on the app,
so ``flask --app pbem.app pbem serve`` works too. Commands get the app from the app context
(``AppGroup`` wraps each in ``with_appcontext``), so ``pbem --help`` needs no database.
"""

from __future__ import annotations

import click
import flask_migrate
from flask import Flask, current_app
from flask.cli import AppGroup, ScriptInfo
from werkzeug.serving import run_simple

from pbem.scheduler import TICK_SECONDS, registered_steps, run_blocking, start_background

cli = AppGroup("pbem", help="Play-by-email server for Alien Frontiers.")


def _app() -> Flask:
    return current_app._get_current_object()  # type: ignore[attr-defined,no-any-return]


@cli.command("db-upgrade")
def db_upgrade() -> None:
    """Apply every pending database migration (the Procfile release phase runs this)."""
    flask_migrate.upgrade()
    click.echo("pbem: database schema is up to date")


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="TCP port.")
def serve(host: str, port: int) -> None:
    """Migrate the database, start the scheduler and serve the site (one machine, no PaaS)."""
    app = _app()
    flask_migrate.upgrade()
    scheduler = start_background(app)
    click.echo(f"pbem is running: open http://{host}:{port}/")
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
    finally:
        scheduler.shutdown(wait=False)


@cli.command("clock")
def clock() -> None:
    """Run the periodic steps every 30 s in the foreground (the Procfile clock process)."""
    steps = ", ".join(registered_steps()) or "none registered"
    click.echo(f"pbem clock: ticking every {TICK_SECONDS} s (steps: {steps})")
    run_blocking(_app())


def main() -> None:
    """Entry point of the ``pbem`` console script."""
    from pbem.app import create_app  # pbem.app imports this module to register ``cli``

    cli.main(prog_name="pbem", obj=ScriptInfo(create_app=create_app))
