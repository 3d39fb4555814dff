"""Astrogation Servo (Factions, ruling T1).

Use, 2 fuel: take one ship of a colour from the Maintenance Bay (yours too) and roll it; it
is your unplaced ship for this turn. Its ids are kept in `Turn.facts["servo_ships"]`, which
`lookup.commander` and `lookup.unplaced_indices` read, so docking, the must-dock rule (B9),
the other cards and the Agenda conditions see it as yours during this turn, wherever it is,
and as its owner's from the end of the turn (ruling B20). It may never dock at the
Terraforming Station. Unplaced at the end of your turn it goes to the Maintenance Bay;
docked, it stays until its owner gathers it at their next turn, wherever it is. Ownership
never changes. The Relic Ship resting in the Bay may be taken too (`use astrogation_servo
relic`, ruling T1a): it stays the Relic Ship (written `5r`), commanded by the Servo's user
this turn, and its controller gathers it at their next turn as usual.
Discard: every ship docked at one facility goes to the Maintenance Bay; a ship on the
Terraforming Station goes to the stock instead (the Relic Ship home), as with the Plasma
Cannon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import dice
from ..actions import Action, register_action
from ..board import LAYOUT
from ..events import Event, event
from ..facilities import orbital_market
from ..ids import COLOURS, FACILITY_NAMES, Facility
from ..lookup import SERVO_SHIPS
from ..notation import facility_id, seat_of
from ..state import BAY, STOCK, UNPLACED, GameState
from ..territories import send_to_bay, send_to_stock
from .common import words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "astrogation_servo"
TERRAFORMING: Final[str] = str(Facility.TERRAFORMING_STATION)


@dataclass(frozen=True, slots=True)
class UseAstrogationServo(Action):
    """Take a ship of `owner`'s colour from the Maintenance Bay and roll it; `owner` None
    takes the Relic Ship (ruling T1a)."""

    owner: int | None


register_action("use_astrogation_servo", UseAstrogationServo)


@dataclass(frozen=True, slots=True)
class DiscardAstrogationServo(Action):
    """Send every ship docked at `facility` to the Maintenance Bay."""

    facility: str


register_action("discard_astrogation_servo", DiscardAstrogationServo)


RELIC_WORD: Final = "relic"


def _in_bay(state: GameState, owner: int | None) -> int | None:
    """A ship of `owner`'s colour in the Bay, or the Relic Ship resting there (owner None)."""
    return next((i for i, s in enumerate(state.ships)
                 if s.loc == BAY and s.owner == owner
                 and (s.is_relic or owner is not None)), None)


def use_fuel(state: GameState, action: UseAstrogationServo) -> int:
    return 2


def use_refusal(state: GameState, action: UseAstrogationServo) -> str | None:
    if action.owner is None:
        if _in_bay(state, None) is None:
            return "the Relic Ship is not in the Maintenance Bay."
        return None
    if not 0 <= action.owner < state.players:
        return "there is no such colour in this game."
    if _in_bay(state, action.owner) is None:
        return f"no {COLOURS[action.owner]} ship is in the Maintenance Bay."
    return None


def use(state: GameState, action: UseAstrogationServo, events: list[Event]) -> None:
    index = _in_bay(state, action.owner)
    assert index is not None
    ship = state.ships[index]
    ship.loc, ship.slot, ship.value = UNPLACED, -1, dice.roll(state)
    state.turn.facts.setdefault(SERVO_SHIPS, []).append(ship.id)
    events.append(event("borrowed_ship", action.seat, card=ID, ship=ship.id,
                        owner=action.owner, value=ship.value, barrier=True))


def use_candidates(state: GameState, seat: int) -> list[Action]:
    owners: list[int | None] = [*range(state.players), None]  # None: the Relic Ship (T1a)
    return [UseAstrogationServo(seat, owner) for owner in owners]


def discard_refusal(state: GameState, action: DiscardAstrogationServo) -> str | None:
    if action.facility not in LAYOUT:
        return f"there is no orbital facility called '{action.facility}'."
    if not state.at(action.facility):
        return f"no ship is docked at the {FACILITY_NAMES[action.facility]}."
    return None


def discard(state: GameState, action: DiscardAstrogationServo, events: list[Event]) -> None:
    found = [i for i, s in enumerate(state.ships) if s.loc == action.facility]
    to = STOCK if action.facility == TERRAFORMING else BAY
    events.append(event("cleared", action.seat, card=ID, facility=action.facility,
                        ships=[state.ships[i].id for i in found], to=to))
    for i in found:
        if to == STOCK:
            send_to_stock(state, i, events)
        else:
            send_to_bay(state, i)
    if action.facility == Facility.ORBITAL_MARKET:
        orbital_market.pairs_left(state)  # your own pairs there trade no more (B7, A1a)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    """Each facility where a ship is docked (one pass over the ships for them all), so
    `discard_refusal` accepts every discard listed."""
    docked = {s.loc for s in state.ships}
    return [DiscardAstrogationServo(seat, str(f)) for f in LAYOUT if f in docked]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "use astrogation_servo blue")
    if words[0].lower() == RELIC_WORD:  # ruling T1a
        return UseAstrogationServo(seat, None)
    return UseAstrogationServo(seat, seat_of(words[0], players))


def format_use(action: UseAstrogationServo) -> list[str]:
    if action.owner is None:
        return [RELIC_WORD]
    ok = 0 <= action.owner < len(COLOURS)
    return [COLOURS[action.owner] if ok else str(action.owner)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard astrogation_servo alien_artifact")
    return DiscardAstrogationServo(seat, facility_id(words[0]))


def format_discard(action: DiscardAstrogationServo) -> list[str]:
    return [action.facility]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Astrogation Servo",
    copies=1,
    expansion="factions",
    aliases=("servo",),
    effect=("2 fuel: take a ship from the Maintenance Bay, roll it and use it this turn. Discard: "
            "send every ship at one facility to the Maintenance Bay."),
    use=UsePower(action=UseAstrogationServo, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use),
    discard=DiscardPower(action=DiscardAstrogationServo, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard,
                         candidates_pass_refusal=True),  # the facilities with ships now
)
