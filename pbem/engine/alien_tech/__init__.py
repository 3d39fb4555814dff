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
    booster_pod,
    data_crystal,
    gravity_manipulator,
    holographic_decoy,
    orbital_teleporter,
    plasma_cannon,
    polarity_device,
    resource_cache,
    stasis_beam,
    temporal_warper,
)
from .common import card_name, with_pohl

CARDS: dict[str, ModuleType] = {
    m.ID: m
    for m in (alien_city, alien_monument, booster_pod, data_crystal, gravity_manipulator,
              holographic_decoy, orbital_teleporter, plasma_cannon, polarity_device,
              resource_cache, stasis_beam, temporal_warper)
}
USES: dict[type[Action], ModuleType] = {m.USE: m for m in CARDS.values() if m.USE}
DISCARDS: dict[type[Action], ModuleType] = {m.DISCARD: m for m in CARDS.values() if m.DISCARD}


def fuel_cost(state: GameState, action: Action) -> int:
    """What a use costs `action.seat` now: Pohl Foothills takes 1 off each use (§4.3)."""
    base: int = USES[type(action)].use_fuel(state, action)
    return with_pohl(state, action.seat, base)


def _common_refusal(state: GameState, card: str, seat: int) -> str | None:
    if card not in state.seats[seat].cards:
        return "you do not have this card."
    if card in state.turn.cards_used:
        return ("each card may be used only once per turn, by its power or by its discard; "
                "this one has been used this turn.")
    return None


def use_refusal(state: GameState, action: Action) -> str | None:
    module = USES[type(action)]
    reason = _common_refusal(state, module.ID, action.seat)
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
    pay(state, action.seat, cost, 0, events, why=module.ID)
    state.turn.cards_used.append(module.ID)
    events.append(event("used_card", action.seat, card=module.ID, fuel=cost))
    module.use(state, action, events)


def discard_refusal(state: GameState, action: Action) -> str | None:
    module = DISCARDS[type(action)]
    reason = _common_refusal(state, module.ID, action.seat)
    if reason is None and state.turn.discards >= 1:
        reason = "you may use only one discard power per turn, and you have used it."
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
        if module is None or card in used:
            continue
        if module.USE:
            out.extend(module.use_candidates(state, seat))
        if module.DISCARD and not state.turn.discards:
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
