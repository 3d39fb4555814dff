"""A player resigns: the seat stays in the game and the autopilot plays it from now on.

The rules need every seat (the ports open and the colonies each player starts with depend on
the player count, docs/rulings-log.md L-S1), so a seat is never removed: it is marked
``resigned``, the server records it in the log, and the autopilot plays it at the host's
chosen level (``games.autopilot_level``). Everyone hears of it once, in the transaction that
records it: the ``resigned`` mail (which also says what the autopilot played of the turn in
progress, so no others'-turn mail repeats it).

``resign_locked`` works on a game the caller has locked (a reply by mail applies it inside its
own transaction); ``pbem.services.games.resign`` is the use case with its own transaction.
"""

from __future__ import annotations

from pbem import engine
from pbem.engine import GameState
from pbem.mail.outbound import notify
from pbem.models import Game
from pbem.services import deadlines, play, turns
from pbem.services.errors import GameNotActive, NotAllowed
from pbem.services.turns import Step

RESIGN_KIND = "resign"  # a server record in action_log, not an engine action
BY = ("player", "host")


def resign_locked(game: Game, seat_index: int, *, by: str = "player",
                  tell_resigner: bool = True) -> list[Step]:
    """Resign ``seat_index`` of the locked ``game``; returns the steps the autopilot played
    after it (the rest of the seat's turn, and any computer seats after it). Refuses a game
    that is over, a seat that does not exist, a computer seat and a seat that has resigned
    already, changing nothing. ``tell_resigner``: False when the caller answers the player
    itself (a reply by mail gets its answer)."""
    if game.status not in ("active", "paused"):
        raise GameNotActive(f"This game is {game.status}: nobody can resign from it now.")
    try:
        seat = game.seat(seat_index)
    except LookupError:
        raise NotAllowed("There is no such seat in this game.") from None
    if seat.is_bot:
        raise NotAllowed(f"{seat.name} is a computer player: it cannot resign.")
    if seat.resigned:
        raise NotAllowed(f"{seat.name} has already resigned from this game.")
    state = GameState.from_json(game.state)
    if engine.awaited(state) == seat_index and game.turn_steps:
        turns.append_log(game, list(game.turn_steps))  # keep the log in time order
        game.turn_steps = []
        game.turn_start_state = state.to_json()
    turns.append_log(game, [{
        "seat": seat_index, "action": {"kind": RESIGN_KIND, "seat": seat_index},
        "notation": RESIGN_KIND, "events": [{"kind": "resigned", "seat": seat_index}],
        "by": by if by in BY else "player", "round": state.turn.round,
    }])
    seat.resigned = True
    game.version += 1
    steps = play.run_autopilot(game, state) if game.status == "active" else []
    deadline = deadlines.schedule_for(game)
    notify.seat_resigned(game, seat_index, steps, tell_resigner=tell_resigner)
    if steps and game.status == "active":  # the autopilot played on to another seat
        turns.announce(game, state, deadline)
    return steps
