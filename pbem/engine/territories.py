"""Territories: landing colonies, control (strict majority), bonuses and the Relic Ship.

Control is recomputed whenever a colony is added, removed, moved or swapped, on anyone's
turn (base-game.md §4.1); gaining or losing it takes effect at once.
"""

from __future__ import annotations

from typing import Final

from .events import Event, event
from .ids import TERRITORY_NAMES, Facility, Field, Territory
from .lookup import commander
from .state import BAY, RELIC_HOME, STOCK, GameState


def controller_of(counts: list[int]) -> int | None:
    """The seat with strictly more colonies than any other single seat, else None."""
    most = max(counts, default=0)  # three passes in C: quicker than one in Python
    if most <= 0 or counts.count(most) > 1:
        return None
    return counts.index(most)


# A plain str, not the Enum member: looking the member up is slow, and a dict of str keys
# finds a plain str faster than a StrEnum member.
_ISOLATION: Final = str(Field.ISOLATION)
_REPULSOR: Final = str(Field.REPULSOR)


def has_bonus(state: GameState, seat: int, territory: str) -> bool:
    """Whether `seat` benefits from the territory's bonus now (Isolation cancels it)."""
    if state.fields.get(_ISOLATION) == territory:
        return False
    if state.controllers.get(territory) == seat:
        return True
    return territory in state.turn.borrowed and state.turn.seat == seat


def update_control(state: GameState, territory: str, events: list[Event]) -> None:
    old = state.controllers.get(territory)
    new = controller_of(state.colonies[territory])
    if old == new:
        return
    state.controllers[territory] = new
    if old is not None:
        events.append(event("lost_control", old, territory=territory))
    if new is not None:
        events.append(event("gained_control", new, territory=territory, previous=old))
    if territory == Territory.BURROUGHS_DESERT and state.relic_owner is not None \
            and state.relic_owner != new:
        return_relic(state, events)


def return_relic(state: GameState, events: list[Event]) -> None:
    """The Relic Ship goes back to Burroughs Desert at once, from wherever it is (§4.4)."""
    relic = state.relic()
    if relic.loc == RELIC_HOME:
        return
    came_from = relic.loc
    relic.loc, relic.slot, relic.value = RELIC_HOME, -1, 0
    events.append(event("relic_returned", state.relic_owner, came_from=came_from))
    state.relic_owner = None


NEW_GAIA_MARK: Final = "new_gaia_rerolled"  # Seat.marks: the ship re-rolled on the station (F6)


def send_to_stock(state: GameState, ship_index: int, events: list[Event]) -> None:
    """A ship leaves play: a coloured one to its stock, the Relic Ship home instead; a ship
    re-rolled by the New Gaia Engineers may go to the Maintenance Bay (ruling F6)."""
    ship = state.ships[ship_index]
    if ship.loc == Facility.TERRAFORMING_STATION and _rescued(state, ship_index, events):
        return
    if ship.is_relic:
        return_relic(state, events)
        return
    ship.loc, ship.slot, ship.value = STOCK, -1, 0


def _rescued(state: GameState, ship_index: int, events: list[Event]) -> bool:
    """Ruling F6 (option new_gaia_rescue): a re-rolled ship leaving the station goes to the
    Maintenance Bay on 4-6 ('high', the default) or on 1-3 ('low')."""
    ship = state.ships[ship_index]
    owner = commander(state, ship)  # never a borrowed ship: T1 keeps them off the station
    if owner is None or state.seats[owner].marks.get(NEW_GAIA_MARK) != ship.id:
        return False
    del state.seats[owner].marks[NEW_GAIA_MARK]
    high = state.options.get("new_gaia_rescue", "high") != "low"
    if (ship.value >= 4) != high:
        return False
    events.append(event("rescued", owner, ship=ship.id, value=ship.value))
    send_to_bay(state, ship_index)
    return True


def send_to_bay(state: GameState, ship_index: int) -> None:
    ship = state.ships[ship_index]
    ship.loc, ship.slot, ship.value = BAY, -1, 0


def landable(state: GameState) -> list[str]:
    """Territories a colony may land on: any without the Repulsor Field (§5)."""
    repulsor = state.fields.get(_REPULSOR)
    return [t for t in TERRITORY_NAMES if t != repulsor]


def add_colony(state: GameState, seat: int, territory: str, events: list[Event]) -> None:
    state.colonies[territory][seat] += 1
    update_control(state, territory, events)


def remove_colony(state: GameState, seat: int, territory: str, events: list[Event]) -> None:
    state.colonies[territory][seat] -= 1
    update_control(state, territory, events)
