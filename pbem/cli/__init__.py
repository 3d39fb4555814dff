"""The ``pbem`` command line: ``pbem serve``, ``pbem db-upgrade``, ``pbem clock``, ...

An entry point like the web and the scheduler: it builds the app, the app never imports it.
``main`` is the ``pbem`` console script, a ``FlaskGroup`` that builds the app with
``pbem.app.create_app``; ``cli`` holds the same commands as a plain group, which the
``flask.commands`` entry point (pyproject.toml) adds to ``flask --app pbem.app``, so
``flask --app pbem.app pbem serve`` works too. Commands get the app from the app context
(``AppGroup`` wraps each in ``with_appcontext``): ``pbem --help`` opens no database.
"""

from __future__ import annotations

from collections.abc import Callable

import click
from flask import Flask, current_app
from flask.cli import AppGroup, FlaskGroup
from werkzeug.serving import run_simple

from pbem.app import create_app
from pbem.balance import balance
from pbem.cli.database import db_upgrade, upgrade_with_report
from pbem.cli.games import GAME_COMMANDS
from pbem.cli.mail import mail as mail_group
from pbem.cli.mailing import dev_reply_box, mails
from pbem.cli.season import SEASON_COMMANDS
from pbem.cli.status import status as status_command
from pbem.mail.outbound.links import SERVED_AT
from pbem.scheduler import (
    TICK_SECONDS,
    registered_steps,
    run_blocking,
    runs_in_web,
    start_background,
)
from pbem.services import host as host_actions
from pbem.services import server_settings
from pbem.services.errors import ServiceError

HELP = "Play-by-email server for Alien Frontiers."
cli = AppGroup("pbem", help=HELP)
cli.add_command(db_upgrade)  # pbem db-upgrade: names the migrations applied (pbem/cli/database.py)
cli.add_command(mail_group)  # pbem mail status | retry (pbem/cli/mail.py)
cli.add_command(status_command)  # pbem status: database size, games, outbox (pbem/cli/status.py)
cli.add_command(balance)  # pbem balance: self-play win rates per seat and faction (pbem/balance.py)
for _command in GAME_COMMANDS:  # new-game, verify, export, import (pbem/cli/games.py)
    cli.add_command(_command)
for _command in SEASON_COMMANDS:  # resign, rematch, host-link (pbem/cli/season.py)
    cli.add_command(_command)


def _app() -> Flask:
    return current_app._get_current_object()  # type: ignore[attr-defined,no-any-return]


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="TCP port.")
def serve(host: str, port: int) -> None:
    """Migrate the database, start the scheduler and serve the site (one machine, no PaaS)."""
    app = _app()
    dev_reply_box(app.config)  # the dev mailbox's reply box
    if not app.config.get("SERVER_NAME"):  # mailed links name the port really served
        shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        app.config[SERVED_AT] = f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"
    for line in upgrade_with_report():
        click.echo(line)
    server_settings.record(app.config)  # what mailing commands of a shell read
    scheduler = start_background(app) if runs_in_web(app) else None
    click.echo(f"pbem is running: open http://{host}:{port}/")
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
    finally:
        if scheduler is not None:
            scheduler.shutdown(wait=False)


@cli.command("clock")
def clock() -> None:
    """Run the periodic steps every 30 s in the foreground (the Procfile clock process)."""
    steps = ", ".join(registered_steps()) or "none registered"
    seconds = _app().config.get("SCHEDULER_TICK_SECONDS", TICK_SECONDS)
    click.echo(f"pbem clock: ticking every {seconds:g} s (steps: {steps})")
    server_settings.record(_app().config)  # the clock composes mail too
    run_blocking(_app())


# -- host actions on the clock and the seats -----------------------------------------------

def _game_ref(game: str) -> int | str:
    """A game by primary key (digits) or by its public id (what URLs carry)."""
    return int(game) if game.isdigit() else game


def _host_action(action: Callable[[], str]) -> None:
    try:
        click.echo(action())
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None


@cli.command("pause")
@click.argument("game")
@mails
def pause(game: str) -> None:
    """Pause GAME: its clock stops until it is resumed."""
    _host_action(lambda: f"paused: {host_actions.pause_game(_game_ref(game)).public_id}")


@cli.command("resume")
@click.argument("game")
@mails
def resume(game: str) -> None:
    """Resume a paused GAME: the clock goes on where it stopped."""
    _host_action(lambda: f"resumed: {host_actions.resume_game(_game_ref(game)).public_id}")


@cli.command("extend")
@click.argument("game")
@click.option("--hours", required=True, type=int, help="Hours added to the current deadline.")
@mails
def extend(game: str, hours: int) -> None:
    """Give the player GAME waits for more time."""
    _host_action(
        lambda: f"new deadline: {host_actions.extend_deadline(_game_ref(game), hours).isoformat()}"
    )


@cli.command("substitute")
@click.argument("game")
@click.argument("seat", type=int)
@click.argument("email")
@click.option("--name", default=None, help="The new player's name (default: keep the seat's).")
@mails
def substitute(game: str, seat: int, email: str, name: str | None) -> None:
    """Hand SEAT of GAME to a new player at EMAIL; the old links stop working."""
    def action() -> str:
        taken = host_actions.substitute_seat(_game_ref(game), seat, email, name=name)
        return f"seat {seat} is now played by {taken.email}; the old links no longer work"

    _host_action(action)


@cli.command("scenario")
@click.argument("paths", nargs=-1, required=True)
def scenario(paths: tuple[str, ...]) -> None:
    """Run scenario files (or folders of them); print PASS/FAIL per step and file."""
    from pbem.engine.scenarios import main_scenarios

    raise SystemExit(main_scenarios(list(paths)))


class _ConsoleScript(FlaskGroup):
    """The ``pbem`` console script: ``cli``'s commands, the app built by ``create_app``.

    ``pbem --help`` lists those commands without building the app (a ``FlaskGroup`` builds it
    to list the app's own, and building it writes a secret key into a bare checkout). A
    command not among them is still looked up in the ``flask.commands`` entry points and the
    app (``pbem db upgrade`` is Flask-Migrate's); ``pbem`` itself is one of those entry
    points, and is not found inside itself.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in super(FlaskGroup, self).list_commands(ctx) if name != self.name]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return None if cmd_name == self.name else super().get_command(ctx, cmd_name)


main = _ConsoleScript(name="pbem", help=HELP, create_app=create_app,
                      add_default_commands=False, commands=dict(cli.commands))
