"""Alien Tech cards (base-game.md §6): one module per card, and the rules every card shares.

Each card module names its card `ID` and, for each power it has, an action class (`USE`,
`DISCARD`, or None) with the functions that power needs:

    use_fuel(state, action) -> int             the printed fuel cost, before Pohl Foothills
    use_refusal(state, action) -> str | None   the card's own reason to refuse, or None
    use(state, action, events)                 the effect (the fuel is already paid)
    use_candidates(state, seat) -> list        concrete uses for the menu
    discard_refusal / discard / discard_candidates   the same for the discard power
    parse_use(words, seat, players) / format_use(action) -> list[str]   and the discard's

The general rules (§6.2) live here, once: one copy of each card; each card once per turn in
any way (its power or its discard); one discard per turn (forced discards do not count,
ruling B17); own turn only, no pending decision (rules.refusal); Pohl Foothills takes 1 fuel
off every use, never below 0. Passive cards (Alien City, Alien Monument, Holographic Decoy)
and the automatic Resource Cache have modules but no actions.
"""

from __future__ import annotations

from types import ModuleType

from ..actions import Action
from ..errors import InvalidAction
from ..events import Event, event
from ..notation import card_id, register_format, register_verb
from ..payments import pay
from ..state import GameState
from . import (
    alien_city,
    alien_monument,
    astrogation_servo,
    booster_pod,
    chameleon_cloak,
    data_crystal,
    electrofabricator,
    experimental_ftl_drive,
    gravity_manipulator,
    holographic_decoy,
    lunar_tunneler,
    multiverse_window,
    orbital_teleporter,
    oscillation_capacitor,
    plasma_cannon,
    polarity_device,
    resource_cache,
    solar_harvester,
    stasis_beam,
    temporal_warper,
)
from .common import card_name, with_pohl

CARDS: dict[str, ModuleType] = {
    m.ID: m
    for m in (alien_city, alien_monument, booster_pod, data_crystal, gravity_manipulator,
              holographic_decoy, orbital_teleporter, plasma_cannon, polarity_device,
              resource_cache, stasis_beam, temporal_warper,
              # the Factions cards (rulings T1-T8)
              astrogation_servo, chameleon_cloak, electrofabricator, experimental_ftl_drive,
              lunar_tunneler, multiverse_window, oscillation_capacitor, solar_harvester)
}
USES: dict[type[Action], ModuleType] = {m.USE: m for m in CARDS.values() if m.USE}
DISCARDS: dict[type[Action], ModuleType] = {m.DISCARD: m for m in CARDS.values() if m.DISCARD}


def fuel_cost(state: GameState, action: Action) -> int:
    """What a use costs `action.seat` now: Pohl Foothills takes 1 off each use (§4.3)."""
    base: int = USES[type(action)].use_fuel(state, action)
    return with_pohl(state, action.seat, base)


def _second_use(state: GameState, action: Action) -> bool:
    """Whether this use repeats the card with the Oscillation Capacitor (ruling T7)."""
    module = USES[type(action)]
    return module.ID in state.turn.cards_used and oscillation_capacitor.grants_second_use(
        state, action.seat, module.ID, module.use_fuel(state, action))


def _common_refusal(state: GameState, card: str, seat: int,
                    second_use: bool = False) -> str | None:
    if card not in state.seats[seat].cards:
        return "you do not have this card."
    if card in state.turn.cards_used and not second_use:
        return ("each card may be used only once per turn, by its power or by its discard; "
                "this one has been used this turn.")
    return None


def use_refusal(state: GameState, action: Action) -> str | None:
    module = USES[type(action)]
    reason = _common_refusal(state, module.ID, action.seat, _second_use(state, action))
    if reason is None:
        reason = module.use_refusal(state, action)
    if reason is None:
        cost = fuel_cost(state, action)
        have = state.seats[action.seat].fuel
        if have < cost:
            reason = f"this use costs {cost} fuel; you have {have}."
    return f"{card_name(module.ID)}: {reason}" if reason else None


def use(state: GameState, action: Action, events: list[Event]) -> None:
    module = USES[type(action)]
    cost = fuel_cost(state, action)
    if _second_use(state, action):  # ruling T7: the Capacitor's use pays for this one
        state.turn.cards_used.append(oscillation_capacitor.ID)
        events.append(event("used_card", action.seat, card=oscillation_capacitor.ID,
                            repeats=module.ID))
    pay(state, action.seat, cost, 0, events, why=module.ID)
    state.turn.cards_used.append(module.ID)
    events.append(event("used_card", action.seat, card=module.ID, fuel=cost))
    module.use(state, action, events)


def discard_limit(state: GameState, seat: int) -> int:
    """Discard powers per turn: 1, or 2 for the Dark Space Explorers' owner (ruling F8)."""
    return 2 if state.seats[seat].faction == "dark_space_explorers" else 1


def discard_refusal(state: GameState, action: Action) -> str | None:
    module = DISCARDS[type(action)]
    reason = _common_refusal(state, module.ID, action.seat)
    if reason is None and state.turn.discards >= discard_limit(state, action.seat):
        reason = ("you may use only one discard power per turn (two with Dark Space "
                  "Explorers), and you have used it.")
    if reason is None:
        reason = module.discard_refusal(state, action)
    return f"{card_name(module.ID)}: {reason}" if reason else None


def discard(state: GameState, action: Action, events: list[Event]) -> None:
    """The card leaves the hand, its power happens, then it lands on the discard pile (so the
    Temporal Warper cannot take itself back)."""
    module = DISCARDS[type(action)]
    state.seats[action.seat].cards.remove(module.ID)
    state.turn.cards_used.append(module.ID)
    state.turn.discards += 1
    events.append(event("discarded_card", action.seat, card=module.ID))
    module.discard(state, action, events)
    state.discard.append(module.ID)


def candidates(state: GameState, seat: int) -> list[Action]:
    """Concrete card actions to offer; the caller filters them through the refusals."""
    out: list[Action] = []
    used = state.turn.cards_used
    for card in state.seats[seat].cards:
        module = CARDS.get(card)
        if module is None:
            continue
        if card in used:  # the Oscillation Capacitor may allow a second use (ruling T7)
            if module.USE and oscillation_capacitor.may_repeat(state, seat, card):
                out.extend(module.use_candidates(state, seat))
            continue
        if module.USE:
            out.extend(module.use_candidates(state, seat))
        if module.DISCARD and state.turn.discards < discard_limit(state, seat):
            out.extend(module.discard_candidates(state, seat))
    return out


# -- notation: 'use <card> ...' and 'discard <card> ...' ----------------------------------------

def _parse(verb: str, words: list[str], seat: int, players: int | None) -> Action:
    if not words:
        raise InvalidAction(f"Write '{verb}' and a card, for example '{verb} booster_pod 3'.")
    card = card_id(words[0])
    module = CARDS.get(card)
    power = None if module is None else (module.USE if verb == "use" else module.DISCARD)
    if module is None or power is None:
        what = "use power" if verb == "use" else "discard power"
        raise InvalidAction(f"{card_name(card)} has no {what}.")
    parser = module.parse_use if verb == "use" else module.parse_discard
    action: Action = parser(words[1:], seat, players)
    return action


def _format(action: Action) -> str:
    if type(action) in USES:
        module = USES[type(action)]
        return " ".join(["use", module.ID, *module.format_use(action)])
    module = DISCARDS[type(action)]
    return " ".join(["discard", module.ID, *module.format_discard(action)])


register_verb("use", lambda words, seat, players: _parse("use", words, seat, players))
register_verb("discard", lambda words, seat, players: _parse("discard", words, seat, players))
for _cls in (*USES, *DISCARDS):
    register_format(_cls, _format)
