"""The few moves a turn mail suggests ("Some moves you can make now"), each a link that opens
its form: one per kind of move and facility, the engine's preview of its effect beside it
(``move_lines``), in the order the engine ranks the menu (``rank``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import GameState, Preview, action_from_json, format_action
from pbem.engine.bots import redacted
from pbem.engine.bots.ranking import ranked
from pbem.mail.outbound import links, move_lines

SUGGESTED_MOVES = 4  # how many moves a turn mail suggests


def rank(state: GameState, seat: int,
         legal: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """The seat's menu (``legal``, the view's JSON actions) in the order the engine's ranking
    puts it, best first: the heuristic the computer players weigh a menu with
    (``bots.ranking``), judged on what the seat may know (``bots.redacted``: no deck order,
    no other seat's face-down Agendas)."""
    actions = [action_from_json(action) for action in legal]
    place = {id(action): i for i, action in enumerate(actions)}
    order = ranked(redacted(state, seat), seat, actions)
    return tuple(legal[place[id(action)]] for _, action in order)


def suggested_moves(menu: Sequence[dict[str, Any]], names: list[str], agendas: list[str],
                    previews: Mapping[str, Preview] | None = None,
                    turn_link: str | None = None, fuel: int | None = None,
                    view: Mapping[str, Any] | None = None) -> list[dict[str, str]]:
    """The first few of the ranked ``menu`` (``rank``), one per kind of move and facility,
    each with the engine's preview of its cost and gain (``previews``, by notation) and,
    given ``turn_link``, its link. ``fuel`` (the player's, now) leaves out a move whose
    purpose it cannot pay for (``move_lines.worth_suggesting``); ``view``, the player's,
    words the Factions moves as the turn page does."""
    seen = previews or {}
    done: set[tuple[Any, ...]] = set()
    moves = []
    for action in menu:
        notation = format_action(action_from_json(action))
        key = (action.get("kind"), action.get("facility"), action.get("territory"))
        preview = seen.get(notation)
        if key in done or (fuel is not None and not move_lines.worth_suggesting(
                action, preview, fuel)):
            continue
        done.add(key)
        move = move_lines.move_line(action, notation, preview, names, agendas, fuel, view)
        if turn_link is not None:
            move["url"] = links.move_url(turn_link, notation)
        moves.append(move)
        if len(moves) == SUGGESTED_MOVES:
            break
    return moves
