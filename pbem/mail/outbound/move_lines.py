"""One suggested move as a turn mail shows it: what it is for first, then how and its cost
and gain — "Build your 5th ship · dock 3 3 at the Shipyard (2 fuel, 2 ore)".

Every number is the engine's (``pbem.engine.preview``), so a borrowed bonus or a card in play
reads as the engine will pay it; a hidden outcome (a draw, a roll) is named, never shown.
``worth_suggesting`` keeps out a move whose purpose the player cannot carry out now (a pair
docked at the Orbital Market with too little fuel for one trade).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import Preview, action_from_json, format_action
from pbem.engine.ids import ARTIFACT_CLAIM_TOTAL
from pbem.words import action_labels, describe, effects
from pbem.words.glossary import FACTIONS

Names = Sequence[str]
# Factions moves whose menu label says more than ``describe_action`` ("Move field")
PAGE_LABELS = ("move_field", "scholars_place", "scholars_remove", "contest", "move_colony",
               "smuggle")


def worth_suggesting(action: Mapping[str, Any], seen: Preview | None, fuel: int) -> bool:
    """False for a move the player could make but whose purpose they cannot carry out now:
    a pair at the Orbital Market when ``fuel`` (the player's, before the move) pays for no
    trade at any rate it opens."""
    if action.get("kind") != "dock" or seen is None or not seen.trade_rates:
        return True
    if action.get("facility") != "orbital_market":
        return True
    return fuel - seen.paid_fuel + seen.fuel >= min(seen.trade_rates)


def goal(action: dict[str, Any], seen: Preview | None, names: Names,
         agendas: Sequence[str], view: Mapping[str, Any] | None = None) -> str:
    """What the move is for, as a player would say it ("Build your 5th ship", "Fuel")."""
    label = describe.describe_action(action, names, agendas)
    if action.get("kind") in PAGE_LABELS and view is not None:
        notation = format_action(action_from_json(action))
        label = action_labels.label(view, names, action, notation, seen)[1]
    if action.get("kind") != "dock" or seen is None:
        return label
    return _dock_goal(action, seen) or label


def _dock_goal(action: Mapping[str, Any], seen: Preview) -> str:
    facility = action.get("facility")
    if seen.ships_built:
        return f"Build your {describe.ordinal(seen.ships_built[0])} ship"
    if seen.launched:
        return "Launch a colony"
    if seen.decision == "land" or seen.colonies_landed:
        return "Land a colony"
    if seen.decision == "raid":
        return "Raid another player"
    if facility == "orbital_market" and seen.trade_rates:
        return "Trade fuel for ore"
    if facility == "alien_artifact":
        return ("Claim an Alien Tech card" if seen.artifact_total >= ARTIFACT_CLAIM_TOTAL
                else "Towards an Alien Tech card")
    if seen.hub_steps:
        steps = seen.hub_steps
        return f"Move your Hub colony {steps} circle{'s' if steps != 1 else ''}"
    if "drew" in seen.unseen:
        return "Draw an Alien Tech card"
    if seen.ore > 0:
        return "Ore"
    if seen.fuel > 0:
        return "Fuel"
    return ""


def cost_and_gain(seen: Preview | None, fuel: int | None = None, names: Names = ()) -> str:
    """ "2 fuel, 2 ore" paid, "+4 fuel" gained, a fee to another player, and what a docking
    opens ("then 2 fuel for each ore, up to 2"); "free" for a docking that costs nothing and
    whose gain its goal says ("" without a preview)."""
    if seen is None:
        return ""
    if seen.action.kind.startswith("discard_") and seen.action.kind != "discard_agenda":
        return _discarded(seen, names)
    parts = _paid(seen)
    parts += [f"+{seen.fuel} fuel"] if seen.fuel > 0 else []
    parts += [f"+{seen.ore} ore"] if seen.ore > 0 else []
    parts += [f"{seen.vp:+d} VP"] if seen.vp else []
    parts += _ships_changed(seen)
    opened = _opens(seen, fuel)
    if opened:
        parts.append(opened)
    elif seen.unseen:
        parts.append(effects.unseen_words(seen))
    if not parts and seen.action.kind == "dock":
        parts.append("free")
    return ", ".join(parts)


def _paid(seen: Preview) -> list[str]:
    parts = []
    fee = effects.fee(seen)
    if seen.paid_fuel - fee > 0:
        parts.append(f"{seen.paid_fuel - fee} fuel")
    if seen.paid_ore > 0:
        parts.append(f"{seen.paid_ore} ore")
    if fee:
        parts.append(f"{fee} fuel to its owner")
    return parts


def _discarded(seen: Preview, names: Names) -> str:
    """What a card's discard power does, in the log's words without the discard itself:
    "you took the Positron Field off the planet"."""
    if seen.action.kind == "discard_multiverse_window":
        return ""  # its label says the Agenda it reveals and the point
    shown = [dict(ev) for ev in seen.events
             if ev["kind"] not in seen.unseen and ev["kind"] != "discarded_card"]
    said = " ".join(describe.describe(shown, names, viewer=seen.action.seat)).rstrip(".")
    hidden = effects.unseen_words(seen)
    text = "; ".join(part for part in (said, hidden) if part)
    return text[:1].lower() + text[1:]


def _ships_changed(seen: Preview) -> list[str]:
    """What a card did to ships: "a 2 becomes a 3", "2 ships sent away"."""
    out = []
    for ev in seen.events:
        if ev["kind"] == "ship_changed":
            out.append(f"a {ev.get('was')} becomes a {ev.get('now')}")
        elif ev["kind"] in ("shot", "cleared"):
            count = len(ev.get("ships") or [])
            out.append(f"{count} ship{'s' if count != 1 else ''} sent away")
    return out


def _opens(seen: Preview, fuel: int | None) -> str:
    """What a docking opens for the rest of the turn: trades, a claim, a raid, a landing."""
    if seen.action.kind != "dock":
        return ""
    facility = getattr(seen.action, "facility", "")
    if facility == "orbital_market" and seen.trade_rates:
        rate = min(seen.trade_rates)
        most = f", up to {(fuel - seen.paid_fuel) // rate}" if fuel is not None else ""
        return f"then {rate} fuel for each ore{most}"
    if facility == "alien_artifact":
        if seen.artifact_total >= ARTIFACT_CLAIM_TOTAL:
            return (f"{seen.artifact_total} there, {ARTIFACT_CLAIM_TOTAL} needed: then claim "
                    "a card")
        return f"{seen.artifact_total} of {ARTIFACT_CLAIM_TOTAL} towards a card"
    if seen.decision == "raid":
        return "then take 4 fuel or ore, or a card, from the others"
    if seen.decision == "land":
        return "then land a colony"
    shown = seen.fuel > 0 or seen.ore > 0 or seen.paid_ore or seen.hub_steps or seen.unseen
    if facility in FACTIONS and not shown:  # a board whose effect is for later this turn
        board = FACTIONS[facility].facility.rstrip(".")
        if board.startswith("Pay ") and ": " in board:
            board = board.split(": ", 1)[1]  # its cost is the preview's, said already
        return "then " + board[:1].lower() + board[1:]
    return ""


def how(action: dict[str, Any], names: Names, agendas: Sequence[str]) -> str:
    """The move itself, lower-case after the goal: "dock 3 3 at the Shipyard"."""
    label = describe.describe_action(action, names, agendas)
    return label[:1].lower() + label[1:]


def move_line(action: dict[str, Any], notation: str, seen: Preview | None, names: Names,
              agendas: Sequence[str], fuel: int | None = None,
              view: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The parts of one suggested move's line: ``goal``, ``how`` (empty when the goal already
    says it), ``cost`` (its cost and gain) and ``label`` (the whole line in one sentence).
    ``fuel``: the player's fuel now (how many trades a Market pair allows)."""
    aim = goal(action, seen, names, agendas, view)
    move = how(action, names, agendas)
    if move.lower() == aim.lower() or action.get("kind") in PAGE_LABELS:
        move = ""
    paid = cost_and_gain(seen, fuel, names)
    label = aim + (f": {move}" if move else "") + (f" ({paid})" if paid else "")
    return {"goal": aim, "how": move, "cost": paid, "label": label, "notation": notation}
