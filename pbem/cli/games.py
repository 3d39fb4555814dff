"""Game commands of the ``pbem`` CLI: ``new-game``, ``verify``, ``export``, ``import``.

Kept apart from ``pbem/cli/__init__.py`` (serve, clock, host actions) so each module stays
small; ``pbem.cli`` adds ``GAME_COMMANDS`` to its group.
"""

from __future__ import annotations

import json
import sys
from email.utils import parseaddr
from typing import TextIO

import click
from flask.cli import with_appcontext

from pbem.cli.mailing import mails
from pbem.clock import TimeBank
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, MAX_BUDGET, MIN_BUDGET, is_level
from pbem.engine.bots.strong import ROLLOUTS
from pbem.mail.outbound.links import turn_url
from pbem.services import games
from pbem.services.errors import ServiceError
from pbem.services.games import SeatSpec
from pbem.services.validation import shared_addresses
from pbem.words.glossary import options_words

BOT_WORDS = ("bot", "computer")


def _game_ref(game: str) -> int | str:
    """A game by primary key (digits) or by its public id (what URLs carry)."""
    return int(game) if game.isdigit() else game


def parse_player(text: str) -> SeatSpec:
    """``"Ana <ana@example.org>"``, ``"ana@example.org"``, or a computer player: ``"bot"``,
    ``"bot:HAL"`` (a name), ``"bot:strong"`` (a level) or ``"bot:strong:HAL"``."""
    word, _, rest = text.partition(":")
    if word.strip().lower() in BOT_WORDS:
        first, _, name = rest.partition(":")
        if is_level(first.strip().lower()):
            return SeatSpec(name=name.strip() or "Computer", email=None, is_bot=True,
                            level=first.strip().lower())
        return SeatSpec(name=rest.strip() or "Computer", email=None, is_bot=True)
    name, address = parseaddr(text)
    if not address or "@" not in address:
        raise click.BadParameter(f"{text!r}: write 'Name <address>', an address, or 'bot'.")
    return SeatSpec(name=name or address.split("@")[0], email=address)


def _with_levels(seats: list[SeatSpec], levels: tuple[str, ...]) -> list[SeatSpec]:
    """The ``--level`` options, in order, to the computer seats that named no level."""
    unnamed = [seat for seat in seats if seat.is_bot and seat.level is None]
    if len(levels) > max(len(unnamed), 1):
        raise click.BadParameter(f"{len(levels)} levels for {len(unnamed)} computer seats "
                                 "without a level.", param_hint="--level")
    for seat, level in zip(unnamed, levels if len(levels) != 1 else levels * len(unnamed),
                           strict=False):
        seat.level = level
    return seats


def _fail(exc: ServiceError) -> click.ClickException:
    return click.ClickException(exc.message)


@click.command("new-game")
@click.option("--name", required=True, help="The game's name.")
@click.option("--player", "players", multiple=True, required=True,
              help='A seat: "Name <address>", or a computer player "bot", "bot:NAME", '
                   '"bot:LEVEL" or "bot:LEVEL:NAME" (repeat once per seat).')
@click.option("--level", "levels", multiple=True, type=click.Choice(LEVELS),
              help="The level of the computer seats that name none: once for all of them, "
                   f"or once per such seat in order (default {DEFAULT_LEVEL}).")
@click.option("--autopilot-level", type=click.Choice(LEVELS), default=DEFAULT_LEVEL,
              show_default=True,
              help="The level that plays for timed-out, absent and resigned players.")
@click.option("--bot-budget", type=int, default=None,
              help=f"The strong computer players' rollouts per decision, {MIN_BUDGET} to "
                   f"{MAX_BUDGET} (default: the strong bot's, {ROLLOUTS}; more is stronger "
                   "and slower).")
@click.option("--host", "host_email", default=None,
              help="Host address (default: the first human player's).")
@click.option("--hours", default=48, show_default=True, type=int, help="Time per move.")
@click.option("--bank-hours", type=int, default=None,
              help="A time bank instead of a time per move: the hours each seat starts with.")
@click.option("--increment-hours", type=int, default=0, show_default=True,
              help="Time bank: the hours added after each of a seat's turns.")
@click.option("--max-bank-hours", type=int, default=None,
              help="Time bank: the most it may hold (default: no cap).")
@click.option("--fixed-order", is_flag=True, help="Keep the seats in the order given.")
@click.option("--factions/--base-game", default=None,
              help="With or without the Factions expansion (default: the engine's).")
@click.option("--new-gaia-rescue", "rescue", type=click.Choice(["high", "low"]), default=None,
              help="Factions: a re-rolled New Gaia ship is rescued on 4-6 (high, the "
                   "rulebook text; default) or on 1-3 (low, its worked examples).")
@click.option("--seed", default=None, type=int, help="Game seed (tests only: it is secret).")
@with_appcontext
@mails
def new_game(name: str, players: tuple[str, ...], levels: tuple[str, ...],
             autopilot_level: str, bot_budget: int | None, host_email: str | None,
             hours: int, bank_hours: int | None, increment_hours: int,
             max_bank_hours: int | None,
             fixed_order: bool, factions: bool | None, rescue: str | None,
             seed: int | None) -> None:
    """Create a game, mail the invitations, print the game id and every seat's link."""
    seats = _with_levels([parse_player(p) for p in players], levels)
    host = host_email or next((s.email for s in seats if s.email), None)
    if host is None:
        raise click.UsageError("Give --host when every seat is a computer player.")
    try:
        options: dict[str, object] = {} if factions is None else {"factions": factions}
        if rescue is not None:
            options["new_gaia_rescue"] = rescue
        game = games.create_game(name=name, host_email=host, seats=seats, options=options,
                                 time_per_move_hours=hours, seed=seed, fixed_order=fixed_order,
                                 autopilot_level=autopilot_level, bot_budget=bot_budget,
                                 time_bank=_time_bank(bank_hours, increment_hours,
                                                      max_bank_hours))
    except ServiceError as exc:
        raise _fail(exc) from None
    click.echo(f"game {game.public_id} ({game.name}): {game.players} seats, host {host}")
    for warning in shared_addresses([(s.name, s.email) for s in game.seats]):
        click.echo(f"warning: {warning}", err=True)
    for seat in game.seats:
        who = (f"{seat.name} <{seat.email}>" if seat.email
               else f"{seat.name} (computer, {seat.level})")
        link = "" if seat.is_bot else f"  {turn_url(game, seat)}"
        click.echo(f"seat {seat.index} {seat.colour:<6} {who}{link}")
    words = options_words(game.options or {}, game.time_per_move_hours, game.time_bank)
    click.echo(f"options: {words}")
    if game.bot_budget is not None:
        click.echo(f"strong computer players: {game.bot_budget} rollouts per decision")
    click.echo(f"autopilot level: {game.autopilot_level}")


def _time_bank(hours: int | None, increment: int, cap: int | None) -> TimeBank | None:
    if hours is None:
        if increment or cap is not None:
            raise click.UsageError("--increment-hours and --max-bank-hours need --bank-hours.")
        return None
    return TimeBank(float(hours), float(increment), None if cap is None else float(cap))


@click.command("verify")
@click.argument("game")
@with_appcontext
def verify(game: str) -> None:
    """Replay GAME from its creation record and log; exit 1 if anything differs."""
    try:
        problems = games.verify_replay(_game_ref(game))
    except ServiceError as exc:
        raise _fail(exc) from None
    for problem in problems:
        click.echo(f"problem: {problem}", err=True)
    if problems:
        sys.exit(1)
    click.echo(f"{game}: replay matches the stored game")


@click.command("export")
@click.argument("game")
@with_appcontext
def export(game: str) -> None:
    """Write GAME as JSON to standard output (it includes the secret seed)."""
    try:
        data = games.export_game(_game_ref(game))
    except ServiceError as exc:
        raise _fail(exc) from None
    click.echo(json.dumps(data, indent=1, sort_keys=True))


@click.command("import")
@click.argument("file", type=click.File("r"))
@with_appcontext
def import_(file: TextIO) -> None:
    """Replay and store a game exported with ``pbem export``; print its new id."""
    try:
        data = json.load(file)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{file.name} is not JSON: {exc}") from None
    try:
        game = games.import_game(data)
    except ServiceError as exc:
        raise _fail(exc) from None
    click.echo(f"imported as game {game.public_id}")


GAME_COMMANDS = (new_game, verify, export, import_)
