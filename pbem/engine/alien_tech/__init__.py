"""Alien Tech cards (base-game.md §6): one module per card, and the rules every card shares.

Each card module ends in its one declaration, `CARD = CardSpec(...)` (`spec.py`): id, name,
copies, aliases, effect text, VP, and its use and discard powers with their hooks (fuel
cost, refusal, effect, menu candidates, notation). `catalog.SPECS` lists the cards, and
every table about cards is derived from that list.

The general rules (§6.2) live here, once: one copy of each card; each card once per turn in
any way (its power or its discard); one discard per turn (forced discards do not count,
ruling B17); own turn only, no pending decision (rules.refusal); Pohl Foothills takes 1 fuel
off every use, never below 0. Passive cards (Alien City, Alien Monument, Holographic Decoy)
and the automatic Resource Cache have specs but no powers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from ..actions import Action
from ..events import Event, event
from ..payments import pay
from ..state import GameState
from . import oscillation_capacitor
from .catalog import CARDS, DISCARDS, SPECS, USES
from .common import with_pohl
from .spec import CardSpec, CountedActions, DiscardPower, UsePower

__all__ = ["CARDS", "DISCARDS", "SPECS", "USES", "CardSpec", "DiscardPower", "UsePower",
           "candidate_families", "candidates", "common_refusal", "discard",
           "discard_common_refusal", "discard_limit", "discard_refusal", "fuel_cost",
           "second_use", "use", "use_refusal"]


def fuel_cost(state: GameState, action: Action) -> int:
    """What a use costs `action.seat` now: Pohl Foothills takes 1 off each use (§4.3)."""
    return with_pohl(state, action.seat, USES[type(action)][1].fuel(state, action))


def second_use(state: GameState, action: Action) -> bool:
    """Whether this use repeats the card with the Oscillation Capacitor (ruling T7)."""
    card, power = USES[type(action)]
    return card.id in state.turn.cards_used and oscillation_capacitor.grants_second_use(
        state, action.seat, card.id, power.fuel(state, action))


def common_refusal(state: GameState, card: str, seat: int, repeat: bool = False) -> str | None:
    """The rules every power shares: the card held, and unused this turn unless `repeat` (a
    second use the Oscillation Capacitor grants, ruling T7)."""
    if card not in state.seats[seat].cards:
        return "you do not have this card."
    if card in state.turn.cards_used and not repeat:
        return ("each card may be used only once per turn, by its power or by its discard; "
                "this one has been used this turn.")
    return None


def use_refusal(state: GameState, action: Action) -> str | None:
    card, power = USES[type(action)]
    reason = common_refusal(state, card.id, action.seat, second_use(state, action))
    if reason is None:
        reason = power.refusal(state, action)
    if reason is None:
        cost = fuel_cost(state, action)
        have = state.seats[action.seat].fuel
        if have < cost:
            reason = f"this use costs {cost} fuel; you have {have}."
    return f"{card.name}: {reason}" if reason else None


def use(state: GameState, action: Action, events: list[Event]) -> None:
    card, power = USES[type(action)]
    cost = fuel_cost(state, action)
    if second_use(state, action):  # ruling T7: the Capacitor's use pays for this one
        state.turn.cards_used.append(oscillation_capacitor.ID)
        events.append(event("used_card", action.seat, card=oscillation_capacitor.ID,
                            repeats=card.id))
    pay(state, action.seat, cost, 0, events, why=card.id)
    state.turn.cards_used.append(card.id)
    events.append(event("used_card", action.seat, card=card.id, fuel=cost))
    power.effect(state, action, events)


def discard_limit(state: GameState, seat: int) -> int:
    """Discard powers per turn: 1, or 2 for the Dark Space Explorers' owner (ruling F8)."""
    return 2 if state.seats[seat].faction == "dark_space_explorers" else 1


def discard_common_refusal(state: GameState, card: str, seat: int) -> str | None:
    """The rules every discard power shares: the card held and unused, one discard a turn."""
    reason = common_refusal(state, card, seat)
    if reason is None and state.turn.discards >= discard_limit(state, seat):
        reason = ("you may use only one discard power per turn (two with Dark Space "
                  "Explorers), and you have used it.")
    return reason


def discard_refusal(state: GameState, action: Action) -> str | None:
    card, power = DISCARDS[type(action)]
    reason = discard_common_refusal(state, card.id, action.seat)
    if reason is None:
        reason = power.refusal(state, action)
    return f"{card.name}: {reason}" if reason else None


def discard(state: GameState, action: Action, events: list[Event]) -> None:
    """The card leaves the hand, its power happens, then it lands on the discard pile (so the
    Temporal Warper cannot take itself back)."""
    card, power = DISCARDS[type(action)]
    state.seats[action.seat].cards.remove(card.id)
    state.turn.cards_used.append(card.id)
    state.turn.discards += 1
    events.append(event("discarded_card", action.seat, card=card.id))
    power.effect(state, action, events)
    state.discard.append(card.id)


def candidates(state: GameState, seat: int) -> list[Action]:
    """Concrete card actions to offer; the caller filters them through the refusals."""
    return [action for _, _, actions in candidate_families(state, seat) for action in actions]


# A string: the powers are interpreted classes in the compiled build (`compiled.interpreted`),
# which cannot be subscripted at run time.
Family: TypeAlias = "tuple[CardSpec, UsePower[Any] | DiscardPower[Any], CountedActions]"


def candidate_families(state: GameState, seat: int, counted: bool = False) -> list[Family]:
    """The card candidates in menu order, one family per held card and power: (card, power,
    its candidates). Only a held card has families; a discard family only while the card is
    unused this turn and a discard is left, a use family of a used card only when the
    Oscillation Capacitor may repeat it: so the menu (`menu.cards`) asks the rules every
    card shares only of those repeats. With `counted`, the use family of an unused card
    whose power counts its candidates (`UsePower.counted`) is that count, not a list."""
    out: list[Family] = []
    used = state.turn.cards_used
    for held in state.seats[seat].cards:
        card = CARDS.get(held)
        if card is None:
            continue
        use_power, discard_power = card.use, card.discard
        if held in used:  # the Oscillation Capacitor may allow a second use (ruling T7)
            if use_power and oscillation_capacitor.may_repeat(state, seat, held):
                out.append((card, use_power, use_power.candidates(state, seat)))
            continue
        if use_power:
            made: Callable[[GameState, int], CountedActions] = use_power.candidates
            if counted and use_power.counted is not None:
                made = use_power.counted
            out.append((card, use_power, made(state, seat)))
        if discard_power and state.turn.discards < discard_limit(state, seat):
            out.append((card, discard_power, discard_power.candidates(state, seat)))
    return out
