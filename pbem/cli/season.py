"""A group's season from the command line: ``pbem resign``, ``pbem rematch``,
``pbem host-link``. Host actions, like ``pbem pause`` and ``pbem substitute``: the operator
acts for the host, through the same services as the pages."""

from __future__ import annotations

from collections.abc import Callable

import click
from flask.cli import with_appcontext

from pbem.cli.mailing import mails
from pbem.mail.outbound import links
from pbem.services import games, host_links, rematch, turns
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
@mails
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
@mails
def host_link(game: str, replace: bool) -> None:
    """Print GAME's host link (the host lost it), or replace it with --replace."""
    def action() -> str:
        ref = _game_ref(game)
        if replace:
            host_links.replace_host_link(ref)
        return links.host_url(turns.find_game(ref))

    _run(action)


@click.command("rematch")
@click.argument("game")
@click.option("--seed", default=None, type=int, help="Game seed (tests only: it is secret).")
@with_appcontext
@mails
def rematch_command(game: str, seed: int | None) -> None:
    """Start the rematch of the finished GAME: the same players, options and levels, a new
    seat order; everyone is mailed an invitation. Prints the new game and its seat links."""
    def action() -> str:
        started = turns.find_game(rematch.start_rematch(_game_ref(game), seed=seed).id)
        lines = [f"game {started.public_id} ({started.name}): the rematch of {game}"]
        for seat in sorted(started.seats, key=lambda s: s.index):
            who = (f"{seat.name} <{seat.email}>" if seat.email
                   else f"{seat.name} (computer, {seat.level})")
            link = "" if seat.is_bot else f"  {links.turn_url(started, seat)}"
            lines.append(f"seat {seat.index} {seat.colour:<6} {who}{link}")
        lines.append(f"host page: {links.host_url(started)}")
        return "\n".join(lines)

    _run(action)


SEASON_COMMANDS = (resign, host_link, rematch_command)
