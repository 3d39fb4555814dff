"""One suggested move as a turn mail shows it: what it is for first, then how and its cost
or gain — "Build your 5th ship · dock 3 3 at the Shipyard (2 fuel, 2 ore)".

Every number is the engine's (``pbem.engine.preview``), so a borrowed bonus or a card in play
reads as the engine will pay it; a hidden outcome (a draw, a roll) is named, never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine import Preview
from pbem.words import describe, effects

Names = Sequence[str]


def goal(action: dict[str, Any], seen: Preview | None, names: Names,
         agendas: Sequence[str]) -> str:
    """What the move is for, as a player would say it ("Build your 5th ship", "Fuel")."""
    label = describe.describe_action(action, names, agendas)
    if action.get("kind") != "dock" or seen is None:
        return label
    if seen.ships_built:
        return f"Build your {describe.ordinal(seen.ships_built[0])} ship"
    if seen.launched:
        return "Launch a colony"
    if seen.decision == "land" or seen.colonies_landed:
        return "Land a colony"
    if seen.decision == "raid":
        return "Raid another player"
    if seen.hub_steps:
        steps = seen.hub_steps
        return f"Move your Hub colony {steps} circle{'s' if steps != 1 else ''}"
    if seen.trade_rates:
        return "Trade fuel for ore"
    if seen.artifact_total:
        return "Towards an Alien Tech card"
    if "drew" in seen.unseen:
        return "Draw an Alien Tech card"
    if seen.ore > 0:
        return "Ore"
    if seen.fuel > 0:
        return "Fuel"
    return label


def cost_and_gain(seen: Preview | None) -> str:
    """ "2 fuel, 2 ore" paid, "+4 fuel" gained, a fee to another player ("" when none)."""
    if seen is None:
        return ""
    parts = []
    fee = effects.fee(seen)
    paid_fuel = seen.paid_fuel - fee
    if paid_fuel > 0:
        parts.append(f"{paid_fuel} fuel")
    if seen.paid_ore > 0:
        parts.append(f"{seen.paid_ore} ore")
    if fee:
        parts.append(f"{fee} fuel to its owner")
    if seen.fuel > 0:
        parts.append(f"+{seen.fuel} fuel")
    if seen.ore > 0:
        parts.append(f"+{seen.ore} ore")
    if seen.vp:
        parts.append(f"{seen.vp:+d} VP")
    return ", ".join(parts)


def how(action: dict[str, Any], names: Names, agendas: Sequence[str]) -> str:
    """The move itself, lower-case after the goal: "dock 3 3 at the Shipyard"."""
    label = describe.describe_action(action, names, agendas)
    return label[:1].lower() + label[1:]


def move_line(action: dict[str, Any], notation: str, seen: Preview | None, names: Names,
              agendas: Sequence[str]) -> dict[str, str]:
    """The parts of one suggested move's line: ``goal``, ``how`` (empty when the goal already
    says it), ``cost`` and ``label`` (the whole line in one sentence)."""
    aim = goal(action, seen, names, agendas)
    move = how(action, names, agendas)
    if move.lower() == aim.lower():
        move = ""
    paid = cost_and_gain(seen)
    if not paid and seen is not None:
        paid = effects.unseen_words(seen)
    label = aim + (f": {move}" if move else "") + (f" ({paid})" if paid else "")
    return {"goal": aim, "how": move, "cost": paid, "label": label, "notation": notation}
