"""The parts the Agendas' conditions are made of (each Agenda's two halves are declared in
`catalog.py`): the in-game halves read the turn's recorded facts (`Turn.facts`, see facts.py)
and the state, the end-game halves the state.

An in-game half is asked only for the active seat, about its own turn (ruling A3); an
end-game half about the final state (ruling A4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..board import group_count
from ..ids import SHIPS_MAX, Facility
from ..lookup import SERVO_SHIPS, fleet_indices
from ..scoring import vps
from ..state import GameState
from .spec import EndGame, Facts

# -- in-game halves that read the fleet roll (ruling A3: the roll before any card) ------------

def rolled(facts: Facts) -> Sequence[int]:
    roll: Sequence[int] = facts.get("roll", ())  # read, never changed: no copy
    return roll


# Asked once a turn and at a reveal: a set or a count of a handful of faces costs less than a
# cache keyed by a tuple made for the asking.
_ONE_TO_FIVE: Final = frozenset(range(1, 6))
_TWO_TO_SIX: Final = frozenset(range(2, 7))


def sequential(roll: Sequence[int]) -> bool:
    values = set(roll)
    return values.issuperset(_ONE_TO_FIVE) or values.issuperset(_TWO_TO_SIX)


def four_of_a_kind(roll: Sequence[int]) -> bool:
    # the commonest face's count, in C: no generator made at every turn's start
    return len(roll) >= 4 and max(map(roll.count, set(roll))) >= 4


def low_roll(roll: Sequence[int]) -> bool:
    return len(roll) >= 5 and sum(roll) <= 10


# -- in-game halves that read the board now ---------------------------------------------------

def unique_techs(state: GameState, seat: int) -> int:
    """Card types `seat` holds that no other player holds (ruling A3)."""
    others = {c for i, s in enumerate(state.seats) if i != seat for c in s.cards}
    return len(set(state.seats[seat].cards) - others)


def four_unique(state: GameState, seat: int, facts: Facts) -> bool:
    """An in-game half itself (`InGame`): the latch asks it of every seat after every action
    that may have moved a card. It reads the cards, no facts."""
    return len(state.seats[seat].cards) >= 4 and unique_techs(state, seat) >= 4


_ARTIFACT: Final[str] = str(Facility.ALIEN_ARTIFACT)
_MINE: Final[str] = str(Facility.LUNAR_MINE)
_SOLAR: Final[str] = str(Facility.SOLAR_CONVERTER)
# The facilities `docked_halves` reads (a docking elsewhere moves none of their ships).
DOCKS: Final[frozenset[str]] = frozenset({_ARTIFACT, _MINE, _SOLAR})


def docked_halves(state: GameState, seat: int, facts: Facts) -> tuple[bool, bool, bool]:
    """(artifact_eight, fill_solar, fill_mine) of `seat` now, from one pass over its fleet
    (`fleet_indices`: the Relic Ship or a ship borrowed this turn too, ruling B20): the latch
    asks the three after every action that may have moved a ship (`AgendaSpec.docked`).
    Ports are kept as bits of an int (port k is bit k): no set is made for a pass that runs
    after most actions."""
    artifact_ships = artifact_total = 0  # the seat's ships at the Alien Artifact
    mine_ports = solar_mine = 0  # ports holding a ship of the seat
    ships = state.ships
    if SERVO_SHIPS in state.turn.facts:
        fleet = [ships[i] for i in fleet_indices(state, seat)]
    else:  # `fleet_indices` as ships: the colour's run of the list, one slice, no indices
        first = seat * SHIPS_MAX
        fleet = ships[first:first + SHIPS_MAX]
        if state.relic_owner == seat:
            fleet.append(ships[-1])  # the Relic Ship, the last ship
    for s in fleet:
        loc = s.loc
        if loc not in DOCKS:  # most ships: one look-up rather than three comparisons
            continue
        if loc == _ARTIFACT:
            artifact_ships += 1
            artifact_total += s.value
        elif loc == _MINE:
            mine_ports |= 1 << s.slot
        else:  # the Solar Converter
            solar_mine |= 1 << s.slot
    # Dock four ships totalling exactly 8 at the Alien Artifact.
    eight = artifact_ships == 4 and artifact_total == 8
    # The Solar Converter's ports empty right after your gather now hold your ships, and the
    # converter is full (ruling A3). Its other ports, anyone's, are counted last: rarely are
    # the empty ones all yours.
    solar = False
    empty: list[int] = facts.get("solar_empty", _NO_PORTS)
    if empty:
        wanted = 0
        for port in empty:
            wanted |= 1 << port
        if wanted & solar_mine == wanted:
            taken = 0
            for s in ships:
                if s.loc == _SOLAR:
                    taken |= 1 << s.slot
            solar = taken.bit_count() == group_count(state, _SOLAR)
    # Every open port of the Lunar Mine holds one of your ships (ruling A3); the mine has a
    # port at every player count, so none of yours there answers no without counting them.
    mine = mine_ports != 0 and mine_ports.bit_count() == group_count(state, _MINE)
    return eight, solar, mine


_NO_PORTS: Final[list[int]] = []


def fill_mine(state: GameState, seat: int) -> bool:
    return docked_halves(state, seat, {})[2]


def artifact_eight(state: GameState, seat: int) -> bool:
    return docked_halves(state, seat, {})[0]


def fill_solar(state: GameState, seat: int, facts: Facts) -> bool:
    return docked_halves(state, seat, facts)[1]


def strictly_highest(state: GameState, seat: int) -> bool:
    points = vps(state)  # one VP per seat
    mine = points[seat]
    # the highest, and no other seat on it: asked in C, no generator made for it
    return max(points) == mine and points.count(mine) == 1


def strictly_lowest(state: GameState, seat: int, points: list[int] | None = None) -> bool:
    """Whether `seat` has fewer VP than each other player; `points`: every seat's VP now
    (`vps`), when the caller has counted them already."""
    if points is None:
        points = vps(state)
    mine = points[seat]
    # the lowest, and no other seat on it: asked in C, as `strictly_highest`
    return min(points) == mine and points.count(mine) == 1


def last_to_first(state: GameState, seat: int, facts: Facts) -> bool:
    """Strictly lowest at the start of your turn, strictly highest now (ruling A3)."""
    return bool(facts.get("lowest")) and strictly_highest(state, seat)


def rob_everyone(state: GameState, seat: int, facts: Facts) -> bool:
    victims: list[int] = facts.get("victims", _NO_VICTIMS)  # read, never changed: no copy
    for i in range(state.players):  # noqa: SIM110 - a plain loop: no generator made
        if i != seat and i not in victims:
            return False
    return True


_NO_VICTIMS: Final[list[int]] = []


# -- end-game halves --------------------------------------------------------------------------

def controls(territory: str) -> EndGame:
    return lambda st, s: st.controllers.get(territory) == s


def holds(*cards: str) -> EndGame:
    return lambda st, s: all(c in st.seats[s].cards for c in cards)


def absent(territory: str) -> EndGame:
    return lambda st, s: st.colonies[territory][s] == 0


def _controlled(state: GameState, seat: int) -> list[str]:
    return [t for t, c in state.controllers.items() if c == seat]


def single_colony(state: GameState, seat: int) -> bool:
    return any(sum(state.colonies[t]) == 1 for t in _controlled(state, seat))


def others_three(state: GameState, seat: int) -> bool:
    return any(sum(state.colonies[t]) - state.colonies[t][seat] >= 3
               for t in _controlled(state, seat))


def three_fields(state: GameState, seat: int) -> bool:
    places = set(state.fields.values())
    return len(places) == 1 and state.controllers.get(str(next(iter(places)))) == seat
