"""A group's season from the command line: ``pbem resign``, ``pbem rematch``,
``pbem host-link``. Host actions, like ``pbem pause`` and ``pbem substitute``: the operator
acts for the host, through the same services as the pages."""

from __future__ import annotations

from collections.abc import Callable

import click
from flask.cli import with_appcontext

from pbem.mail.outbound import compose
from pbem.services import games, host_links, turns
from pbem.services.errors import ServiceError


def _game_ref(game: str) -> int | str:
    """A game by primary key (digits) or by its public id (what URLs carry)."""
    return int(game) if game.isdigit() else game


def _run(action: Callable[[], str]) -> None:
    try:
        click.echo(action())
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None


@click.command("resign")
@click.argument("game")
@click.argument("seat", type=int)
@with_appcontext
def resign(game: str, seat: int) -> None:
    """SEAT of GAME resigns (for a player who asked the host): the autopilot plays it at the
    host's level from now on, and every player is mailed once."""
    def action() -> str:
        result = games.resign(_game_ref(game), seat, by="host")
        after = turns.find_game(result.game.id)
        return (f"seat {seat} ({after.seat(seat).name}) resigned; the autopilot plays it at "
                f"level {after.autopilot_level}")

    _run(action)


@click.command("host-link")
@click.argument("game")
@click.option("--replace", is_flag=True,
              help="Replace the link (it leaked): older host links stop working, and the new "
                   "one is mailed to the host.")
@with_appcontext
def host_link(game: str, replace: bool) -> None:
    """Print GAME's host link (the host lost it), or replace it with --replace."""
    def action() -> str:
        ref = _game_ref(game)
        if replace:
            host_links.replace_host_link(ref)
        return compose.host_url(turns.find_game(ref))

    _run(action)


SEASON_COMMANDS = (resign, host_link)
