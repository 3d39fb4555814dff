"""The few moves a turn mail suggests ("Some moves you can make now"), each a link that opens
its form: one per kind of move and facility, the engine's preview of its effect beside it
(``move_lines``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import Preview, action_from_json, format_action
from pbem.mail.outbound import links, move_lines

SUGGESTED_MOVES = 4  # how many moves a turn mail suggests


def _effect_worth(seen: Preview) -> float:
    """How good a docking looks from the engine's preview of it (gains, not costs)."""
    return (20.0 * (seen.decision == "land") + 25.0 * seen.launched
            + 12.0 * len(seen.ships_built) + 6.0 * (seen.decision == "raid")
            + 2.0 * max(0, seen.ore) + max(0, seen.fuel) + 1.5 * seen.hub_steps
            + 2.0 * seen.may_cycle + 3.0 * bool(seen.trade_rates))


def _action_worth(action: dict[str, Any], seen: Preview | None = None) -> float:
    kind = action.get("kind")
    if kind == "dock":
        worth = _effect_worth(seen) if seen is not None else 0.0
        return worth + 0.1 * float(sum(action.get("values", [])))
    return {"launch": 30.0, "land": 22.0, "claim": 18.0, "buy_relic": 16.0, "steal": 8.0,
            "steal_card": 9.0, "trade": 5.0, "cycle": 0.5, "end_raid": 0.0,
            "end_turn": -10.0}.get(str(kind), -5.0)


def suggested_moves(ranked: Sequence[dict[str, Any]], names: list[str], agendas: list[str],
                    previews: Mapping[str, Preview] | None = None,
                    turn_link: str | None = None) -> list[dict[str, str]]:
    """A few good legal moves, one per kind of move and facility, each with the engine's
    preview of its effect (``previews``, by notation) and, given ``turn_link``, its link."""
    seen = previews or {}
    notations = [format_action(action_from_json(action)) for action in ranked]
    ordered = sorted(zip(ranked, notations, strict=True),
                     key=lambda pair: _action_worth(pair[0], seen.get(pair[1])), reverse=True)
    done: set[tuple[Any, ...]] = set()
    moves = []
    for action, notation in ordered:
        key = (action.get("kind"), action.get("facility"), action.get("territory"))
        if key in done:
            continue
        done.add(key)
        move = move_lines.move_line(action, notation, seen.get(notation), names, agendas)
        if turn_link is not None:
            move["url"] = links.move_url(turn_link, notation)
        moves.append(move)
        if len(moves) == SUGGESTED_MOVES:
            break
    return moves
