"""Terraforming Station: exactly one ship showing 6, 1 fuel + 1 ore: land one colony at once.
The ship is used up: it goes to the stock at its owner's next gather (the Relic Ship goes
home). You may not go below 3 ships of your colour this way (base-game.md §3.10)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import FACILITY_NAMES, SHIPS_MIN, TERRAFORMING_COST, Facility, Faction
from ..lookup import SERVO_SHIPS, colour_ships, is_borrowed, unplaced_indices
from ..payments import can_pay, pay
from ..state import STOCK, GameState
from .landing import colony_source, start_landing
from .spec import FacilitySpec

ID: Final[str] = str(Facility.TERRAFORMING_STATION)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    if colony_source(state, seat) is None:
        return "Terraforming Station: you have no colony left to land."
    if action.relic is None and SERVO_SHIPS in state.turn.facts and not any(
            state.ships[i].value == 6 and not is_borrowed(state, state.ships[i])
            for i in unplaced_indices(state, seat)):
        return ("Terraforming Station: a ship taken with the Astrogation Servo may never dock "
                "here (ruling T1).")
    if action.relic is not None and is_borrowed(state, state.ships[-1]):
        return ("Terraforming Station: the Relic Ship taken with the Astrogation Servo may "
                "never dock here (rulings T1, T1a).")
    if action.relic is None:
        # ships of your colour (ownership, ruling B20), borrowed by someone or not
        in_play = len([s for s in colour_ships(state, seat) if s.loc != STOCK])
        if in_play - 1 < SHIPS_MIN:
            return ("Terraforming Station: the ship is used up, and you may not go below 3 "
                    "ships of your colour.")
    if not can_pay(state, seat, *TERRAFORMING_COST):
        return "Terraforming Station: it costs 1 fuel and 1 ore; you cannot pay."
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    pay(state, seat, *TERRAFORMING_COST, events, why=ID, payee=terraforming_payee(state, seat))
    start_landing(state, seat, ID)


def terraforming_payee(state: GameState, seat: int) -> int | None:
    """Who receives the payment: the New Gaia Engineers' owner when another player pays
    (ruling F7), else the supply."""
    owner = next((i for i, s in enumerate(state.seats)
                  if s.faction == Faction.NEW_GAIA_ENGINEERS), None)
    return owner if owner != seat else None


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="six", group_size=1, groups=(1, 1, 1),
    refuse=refuse, dock=dock, value_free=True,
)
