"""A group's season from the command line: ``pbem resign``, ``pbem rematch``,
``pbem host-link``. Host actions, like ``pbem pause`` and ``pbem substitute``: the operator
acts for the host, through the same services as the pages."""

from __future__ import annotations

from collections.abc import Callable

import click
from flask.cli import with_appcontext

from pbem.services import games, turns
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


SEASON_COMMANDS = (resign,)
