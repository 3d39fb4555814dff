"""The mail hooks services call inside their transaction (docs/architecture.md).

Each hook decides who hears about what, composes with ``pbem.mail.outbound.compose`` (which sees the
game only through ``engine.view``) and adds rows to the outbox in the caller's session. Nothing
here commits or sends, and nothing here reads the deadline rows: a hook that states a
deadline is given the one the service has just scheduled. A seat without an address (a
computer player) never gets mail; a seat whose address bounced permanently
(``email_failing``) gets none until the host fixes it. The notices in chat apps (issue 27)
are written by the same hooks (``pbem.mail.outbound.chat.notices``), in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from pbem.engine import GameState, awaited
from pbem.mail.outbound import compose
from pbem.mail.outbound.chat import notices as chat
from pbem.mail.outbound.message import check_header_value
from pbem.mail.outbound.outbox import enqueue
from pbem.mail.reply_address import reply_address
from pbem.models import history
from pbem.models.game import Game, Seat
from pbem.models.outbox import Outbox
from pbem.words import since


def _seats(game: Game) -> list[Seat]:
    return sorted(game.seats, key=lambda s: s.index)


def mailable(seat: Seat) -> bool:
    """True when ``seat`` has a working address (not a bot, not bounced, not resigned)."""
    return bool(seat.email and not seat.is_bot and not seat.email_failing and not seat.resigned)


def mailable_at_end(seat: Seat) -> bool:
    """``mailable``, or resigned: a player who resigned still hears how the game ended (the
    game-over or cancelled mail), and nothing else."""
    return bool(seat.email and not seat.is_bot and not seat.email_failing)


def _send(game: Game, seat: Seat, mail: compose.Mail) -> Outbox | None:
    assert seat.email is not None  # mailable(seat)
    row = enqueue(to_addr=seat.email, mail=mail, game=game, seat=seat.index)
    reply_to = reply_address(game, seat)
    if row is not None and reply_to:  # a reply to this mail plays this seat
        row.headers = {**row.headers, "Reply-To": check_header_value("Reply-To", reply_to)}
    return row


def invitations(game: Game) -> None:
    """Tell every human seat that the game exists, with their own turn link (the host's
    also carries the host link); a host who does not play gets the host link alone."""
    for seat in _seats(game):
        if mailable(seat):
            _send(game, seat, compose.invitation(game, seat))
    _to_host(game, lambda: compose.hosting(game))


def host_link_replaced(game: Game) -> None:
    """The host replaced the host link: the new one, to the host's address only."""
    if game.host_email:
        enqueue(to_addr=game.host_email, mail=compose.host_link(game), game=game, seat=None)


def turn_started(game: Game, seat_index: int, deadline: datetime | None) -> None:
    """It is ``seat_index``'s turn: the private summary and the suggested moves. ``deadline``:
    the one the service has just scheduled for this wait (None: no clock runs for it)."""
    seat = game.seat(seat_index)
    if mailable(seat):
        _send(game, seat, compose.your_turn(game, seat, deadline))
    chat.turn_started(game, seat, deadline, hand_off=True)  # and the table's hand-off post


def decision_needed(game: Game, seat_index: int, deadline: datetime | None) -> None:
    """Another seat's turn waits on ``seat_index`` (e.g. a choice to make now); ``deadline``
    as for ``turn_started``."""
    seat = game.seat(seat_index)
    if mailable(seat):
        _send(game, seat, compose.decision_needed(game, seat, deadline=deadline))
    chat.turn_started(game, seat, deadline, decision=True)


def turn_ended(game: Game, seat_index: int, steps: list[dict[str, Any]]) -> None:
    """``seat_index`` handed the turn over: tell the others who want every turn.

    ``steps`` are the turn's steps (each a dict holding ``events``, or engine events
    themselves). The seat that played, and the seat whose turn starts next (it gets
    ``turn_started`` instead), are not told here.
    """
    state = GameState.from_json(game.state)
    if state.phase == "over":
        return  # the game-over mail follows at once and says how it ended
    actor = game.seat(seat_index)
    if actor.resigned and compose.follows_resignation(game, seat_index, len(steps)):
        return  # the rest of the turn of a seat that resigned now: its ``resigned`` mail says it
    events = list(_events_of(steps))
    next_seat = awaited(state)
    why = autopilot_reason(game, actor, steps)
    for seat in _seats(game):
        if seat.index in (seat_index, next_seat) or not mailable(seat):
            continue
        if seat.notify != "every_turn":
            continue  # "my_turn" seats get none; "digest" seats get the daily digest
        _send(game, seat, compose.others_turn(game, seat, seat_index, events, autopilot=why))
    if any(step.get("by") == "timeout" for step in steps) and mailable(actor) \
            and autopilot_mail_due(game, actor):
        _send(game, actor, compose.autopilot_played(game, actor, events))


def autopilot_mail_due(game: Game, seat: Seat) -> bool:
    """The late player hears of every timeout; an absent seat only once: for the wait that
    marked it absent (or its first one after it played again while still marked), not for
    each turn the autopilot plays while it is away."""
    if not seat.absent:
        return True
    runs = len(history.autopilot_runs(game.id, seat.index))
    return runs == max(seat.consecutive_timeouts or 0, 1)


def autopilot_reason(game: Game, seat: Seat, steps: list[dict[str, Any]]) -> str | None:
    """Why the server played (part of) this turn, in words for the other players; None when
    the player played it, or the seat is a computer player (nothing to explain)."""
    by = {step.get("by") for step in steps}
    name = seat.name
    if "timeout" in by:
        run = max(len(history.autopilot_runs(game.id, seat.index)), 1)
        return f"{since.autopilot_words(seat, run)}; the autopilot played"
    if "bot" in by and seat.resigned:
        return f"{name} has resigned; the autopilot played"
    return None


def game_over(game: Game) -> None:
    """Final scores to every human seat (a resigned one too) and to the host when the host
    does not play."""
    for seat in _seats(game):
        if mailable_at_end(seat):
            _send(game, seat, compose.game_over(game, seat))
    _to_host(game, lambda: compose.game_over(game, None))
    chat.game_over(game)


def _host_plays(game: Game) -> bool:
    host = (game.host_email or "").lower()
    return any(s.email and s.email.lower() == host for s in game.seats)


def _to_host(game: Game, mail: Callable[[], compose.Mail]) -> None:
    """A copy for the host when the host does not play (a player host has its own)."""
    if game.host_email and not _host_plays(game):
        enqueue(to_addr=game.host_email, mail=mail(), game=game, seat=None)


def game_cancelled(game: Game) -> None:
    """The host cancelled the game: every player hears it once (a resigned one too)."""
    for seat in _seats(game):
        if mailable_at_end(seat):
            _send(game, seat, compose.cancelled(game, seat))
    chat.game_cancelled(game)


def seat_substituted(game: Game, seat_index: int, *, old_name: str,
                     old_email: str | None) -> None:
    """The host handed ``seat_index`` to a new player: the newcomer's invitation (what
    happened, and a private recap of the seat), and a word to the old player, whose links
    no longer work. The newcomer's turn or decision mail, when the game waits for the seat,
    is the service's to send (``turns.announce``), after the fresh clock is written."""
    seat = game.seat(seat_index)
    chat.seat_handed_over(game, seat)
    if mailable(seat):
        _send(game, seat, compose.substitution(game, seat, old_name))
    if old_email and old_email.lower() != (seat.email or "").lower():
        enqueue(to_addr=old_email, mail=compose.handed_over(game, seat_index, old_name),
                game=game, seat=None)


def rematch_asked(game: Game, seat_index: int, when: datetime) -> None:
    """A player asks the host for a rematch: one mail to the host. Its row names the asking
    seat (``seat``), so a second ask is known and mails nothing (``services.rematch``)."""
    if game.host_email:
        enqueue(to_addr=game.host_email, mail=compose.rematch_asked(game, seat_index, when),
                game=game, seat=seat_index)


def seat_resigned(game: Game, seat_index: int, steps: list[dict[str, Any]], *,
                  tell_resigner: bool = True) -> None:
    """Seat ``seat_index`` resigned: one mail to every player (its own confirmation to it,
    unless the caller answers it itself) and to a host who does not play. ``steps``: what
    the autopilot played after it, of which only the resigned seat's own turn is told here
    (``turn_ended`` leaves it out)."""
    played = [event for step in steps if step.get("seat") == seat_index
              for event in step.get("events") or ()]
    for seat in _seats(game):
        if seat.index == seat_index:
            if tell_resigner and mailable_at_end(seat):
                _send(game, seat, compose.resigned(game, seat, seat_index, played))
        elif mailable(seat):
            _send(game, seat, compose.resigned(game, seat, seat_index, played))
    _to_host(game, lambda: compose.resigned(game, None, seat_index, played))


def reminder(game: Game, seat_index: int, due: datetime) -> None:
    """The deadline of ``seat_index``'s turn is close."""
    seat = game.seat(seat_index)
    if mailable(seat):
        _send(game, seat, compose.reminder(game, seat, due))
    chat.reminder(game, seat, due)


def vacation_started(game: Game, seat_index: int, until: datetime) -> None:
    """``seat_index`` is away until ``until`` (its clock stops): the other players are told."""
    away = game.seat(seat_index)
    for seat in _seats(game):
        if seat.index != seat_index and mailable(seat):
            _send(game, seat, compose.vacation(game, seat, away.name, until))


def game_paused(game: Game, since: datetime) -> None:
    """The host stopped the clock: every player hears it (a paused game waits for nobody)."""
    for seat in _seats(game):
        if mailable(seat):
            _send(game, seat, compose.paused(game, seat, since))


def game_resumed(game: Game, due: datetime | None) -> None:
    """The clock runs again: every player hears it, with the awaited seat's deadline ``due``
    (the one the service has just scheduled)."""
    awaited_seat = awaited(GameState.from_json(game.state))
    for seat in _seats(game):
        if mailable(seat):
            _send(game, seat, compose.resumed(game, seat, awaited_seat, due))


def deadline_extended(game: Game, seat_index: int, hours: int, due: datetime) -> None:
    """The host gave ``seat_index`` ``hours`` more: every player hears the new deadline."""
    for seat in _seats(game):
        if mailable(seat):
            _send(game, seat, compose.deadline_extended(game, seat, seat_index, hours, due))


def magic_link(email: str, url: str) -> None:
    """A sign-in link to the "my games" dashboard of ``email``."""
    enqueue(to_addr=email, mail=compose.magic_link(url), game=None, seat=None)


def host_email_failing(game: Game, seat: Seat, error: str) -> None:
    """Tell the host that mail to ``seat`` is refused, so they can fix the address."""
    host = game.host_email
    if host:
        enqueue(to_addr=host, mail=compose.email_failing(game, seat, error), game=game, seat=None)


def notice_channel_paused(game: Game, seat_index: int | None, channel: str,
                          reason: str) -> None:
    """A chat channel failed five times in a row and is paused: its seat hears why by mail
    (the host, for the game's table channel)."""
    if seat_index is None:
        if game.host_email:
            enqueue(to_addr=game.host_email, game=game, seat=None,
                    mail=compose.notice_paused(game, None, channel, reason))
        return
    seat = game.seat(seat_index)
    if mailable_at_end(seat):
        _send(game, seat, compose.notice_paused(game, seat, channel, reason))


def _events_of(steps: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for step in steps:
        if "kind" in step:
            yield step
        else:
            yield from step.get("events") or ()
