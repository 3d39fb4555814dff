"""The example of a mail's play-by-reply block: a reply the seat can send as written.

The turn mail once showed two lines of the menu and ``end``: an end while ships must still
dock, or two dockings that need the same ships, so the reply was refused as a whole (issue
24). The example is now a legal sequence played on a copy of the game when the mail is
composed (the engine's ``apply``, line by line): each line is the move the engine's ranking
(``bots.ranking``, on the seat's own knowledge) puts first among those that reveal nothing
and keep the game waiting on the seat, until the best is to end the turn, which ends the
example (with its discard when the seat is over the resource limit). A move that reveals
something (a draw, a roll) or hands the wait to another seat can only be the last line,
because the reply service stops applying there (``pbem.services.replies``). A decision
mail's example is the decision alone.
"""

from __future__ import annotations

from pbem.engine import (
    Action,
    EndTurn,
    GameState,
    apply,
    awaited,
    crosses_barrier,
    format_action,
    legal_actions,
)
from pbem.engine.bots import redacted
from pbem.engine.bots.ranking import ranked

MAX_LINES = 30  # the reply service reads 40 lines; a turn takes far fewer


def reply_example(state: GameState, seat: int, *, decision_only: bool = False) -> list[str]:
    """The lines of a reply ``seat`` can send now, each accepted on a copy of ``state`` after
    the lines before it; empty when the game does not wait on the seat. ``decision_only``:
    stop once the seat's pending decision is made."""
    lines: list[str] = []
    deciding = state.turn.pending is not None
    while len(lines) < MAX_LINES and awaited(state) == seat:
        action, state, last = _next_line(state, seat)
        lines.append(format_action(action))
        if last or (decision_only and deciding and state.turn.pending is None):
            break
    return lines


def _next_line(state: GameState, seat: int) -> tuple[Action, GameState, bool]:
    """The best-ranked move after which the reply goes on, or the end of the turn if that
    ranks first; when every move reveals something or hands over, the best of them. Returns
    the move, the state after it and whether it must be the last line."""
    fallback: tuple[Action, GameState, bool] | None = None
    for _, action in ranked(redacted(state, seat), seat, legal_actions(state, seat)):
        after, events = apply(state, action)
        if isinstance(action, EndTurn):
            return action, after, True
        if not crosses_barrier(events) and awaited(after) == seat:
            return action, after, False
        if fallback is None:
            fallback = (action, after, True)
    assert fallback is not None, "the game waits on a seat with no legal move"
    return fallback
