"""Each Agenda's two conditions: the in-game half as a function of the turn's recorded facts
(`Turn.facts`, see facts.py) and the state, the end-game half as a function of the state.

`IN_GAME[id](state, seat, facts)` is asked only for the active seat, about its own turn
(ruling A3); `END_GAME[id](state, seat)` about the final state (ruling A4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

from ..board import group_count
from ..ids import Card, Facility, Territory
from ..lookup import commander
from ..scoring import vps
from ..state import GameState

Facts = dict[str, Any]
InGame = Callable[[GameState, int, Facts], bool]
EndGame = Callable[[GameState, int], bool]


# -- in-game halves that read the fleet roll (ruling A3: the roll before any card) ------------

@lru_cache(maxsize=1024)  # a roll is asked about after every action of its turn
def _sequential(roll: tuple[int, ...]) -> bool:
    values = set(roll)
    return set(range(1, 6)) <= values or set(range(2, 7)) <= values


@lru_cache(maxsize=1024)
def _four_of_a_kind(roll: tuple[int, ...]) -> bool:
    return bool(roll) and max(Counter(roll).values()) >= 4


@lru_cache(maxsize=1024)
def _low_roll(roll: tuple[int, ...]) -> bool:
    return len(roll) >= 5 and sum(roll) <= 10


# -- in-game halves that read the board now ---------------------------------------------------

def unique_techs(state: GameState, seat: int) -> int:
    """Card types `seat` holds that no other player holds (ruling A3)."""
    others = {c for i, s in enumerate(state.seats) if i != seat for c in s.cards}
    return len(set(state.seats[seat].cards) - others)


def _four_unique(state: GameState, seat: int) -> bool:
    return len(state.seats[seat].cards) >= 4 and unique_techs(state, seat) >= 4


_ARTIFACT: Final[str] = Facility.ALIEN_ARTIFACT
_MINE: Final[str] = Facility.LUNAR_MINE
_SOLAR: Final[str] = Facility.SOLAR_CONVERTER


def docked_halves(state: GameState, seat: int, facts: Facts) -> tuple[bool, bool, bool]:
    """(artifact_eight, fill_solar, fill_mine) of `seat` now, from one pass over the ships:
    `facts.latch` asks the three after every action (`DOCKED`). A ship of `seat`'s fleet is
    the Relic Ship or a ship borrowed this turn too (ruling B20). Ports are kept as bits of
    an int (port k is bit k): no set is made for a pass that runs after every action."""
    artifact_ships = artifact_total = 0  # the seat's ships at the Alien Artifact
    mine_ports = solar_taken = solar_mine = 0  # ports holding a ship (of the seat)
    for s in state.ships:
        loc = s.loc
        if loc == _ARTIFACT:
            if commander(state, s) == seat:
                artifact_ships += 1
                artifact_total += s.value
        elif loc == _MINE:
            if commander(state, s) == seat:
                mine_ports |= 1 << s.slot
        elif loc == _SOLAR:
            solar_taken |= 1 << s.slot
            if commander(state, s) == seat:
                solar_mine |= 1 << s.slot
    # Dock four ships totalling exactly 8 at the Alien Artifact.
    eight = artifact_ships == 4 and artifact_total == 8
    # The Solar Converter's ports empty right after your gather now hold your ships, and the
    # converter is full (ruling A3).
    solar = False
    empty: list[int] = facts.get("solar_empty", _NO_PORTS)
    if empty:
        wanted = 0
        for port in empty:
            wanted |= 1 << port
        solar = solar_taken.bit_count() == group_count(state, _SOLAR) \
            and wanted & solar_mine == wanted
    # Every open port of the Lunar Mine holds one of your ships (ruling A3).
    mine = mine_ports.bit_count() == group_count(state, _MINE)
    return eight, solar, mine


_NO_PORTS: Final[list[int]] = []


def fill_mine(state: GameState, seat: int) -> bool:
    return docked_halves(state, seat, {})[2]


def artifact_eight(state: GameState, seat: int) -> bool:
    return docked_halves(state, seat, {})[0]


def fill_solar(state: GameState, seat: int, facts: Facts) -> bool:
    return docked_halves(state, seat, facts)[1]


def strictly_highest(state: GameState, seat: int) -> bool:
    points = vps(state)
    mine = points[seat]
    return all(points[i] < mine for i in range(state.players) if i != seat)


def strictly_lowest(state: GameState, seat: int) -> bool:
    points = vps(state)
    mine = points[seat]
    return all(points[i] > mine for i in range(state.players) if i != seat)


def _last_to_first(state: GameState, seat: int, facts: Facts) -> bool:
    """Strictly lowest at the start of your turn, strictly highest now (ruling A3)."""
    return bool(facts.get("lowest")) and strictly_highest(state, seat)


def _rob_everyone(state: GameState, seat: int, facts: Facts) -> bool:
    victims = set(facts.get("victims", []))
    return all(i in victims for i in range(state.players) if i != seat)


IN_GAME: Final[dict[str, InGame]] = {
    "fleet_of_seven": lambda st, s, f: f.get("gathered", 0) >= 7,
    "five_in_a_row": lambda st, s, f: _sequential(tuple(f.get("roll", ()))),
    "three_colonies_one_turn": lambda st, s, f: f.get("landed", 0) >= 3,
    "four_of_a_kind": lambda st, s, f: _four_of_a_kind(tuple(f.get("roll", ()))),
    "two_takeovers": lambda st, s, f: len(f.get("takeovers", [])) >= 2,
    "six_ore": lambda st, s, f: f.get("ore", 0) >= 6,
    "four_unique_techs": lambda st, s, f: _four_unique(st, s),
    "isolated_landing": lambda st, s, f: bool(f.get("isolated")),
    "bump_yourself": lambda st, s, f: bool(f.get("bumped_self")),
    "twelve_fuel": lambda st, s, f: f.get("fuel", 0) >= 12,
    "two_techs_one_turn": lambda st, s, f: len(st.turn.gained) >= 2,
    "last_to_first": _last_to_first,
    "shared_gain": lambda st, s, f: bool(f.get("shared_gain")),
    "seize_and_use": lambda st, s, f: bool(f.get("seize_used")),
    "five_hub_steps": lambda st, s, f: f.get("hub_steps", 0) >= 5,
    "rob_everyone": _rob_everyone,
    "two_ships_one_turn": lambda st, s, f: f.get("ships_gained", 0) >= 2,
    "artifact_eight": lambda st, s, f: artifact_eight(st, s),
    "fill_solar": fill_solar,
    "repulsor_placed": lambda st, s, f: bool(f.get("repulsor")),
    "five_facilities": lambda st, s, f: len(f.get("facilities", [])) >= 5,
    "fill_mine": lambda st, s, f: fill_mine(st, s),
    "launch_and_restart": lambda st, s, f: bool(f.get("restarted")),
    "low_roll": lambda st, s, f: _low_roll(tuple(f.get("roll", ()))),
}

# The facts each in-game half reads, for the halves that read nothing else (not the board, the
# cards or the scores): `facts.latch` asks one again only after a fold changed one of these.
# A half missing here is asked after every action.
READS: Final[dict[str, tuple[str, ...]]] = {
    "fleet_of_seven": ("gathered",),
    "five_in_a_row": ("roll",),
    "three_colonies_one_turn": ("landed",),
    "four_of_a_kind": ("roll",),
    "two_takeovers": ("takeovers",),
    "six_ore": ("ore",),
    "isolated_landing": ("isolated",),
    "bump_yourself": ("bumped_self",),
    "twelve_fuel": ("fuel",),
    "shared_gain": ("shared_gain",),
    "seize_and_use": ("seize_used",),
    "five_hub_steps": ("hub_steps",),
    "rob_everyone": ("victims",),  # and the number of players, which never changes
    "two_ships_one_turn": ("ships_gained",),
    "repulsor_placed": ("repulsor",),
    "five_facilities": ("facilities",),
    "launch_and_restart": ("restarted",),
    "low_roll": ("roll",),
}

# The in-game halves `docked_halves` answers together, in its order: `facts.latch` asks it
# once when it asks any of them.
DOCKED: Final = ("artifact_eight", "fill_solar", "fill_mine")

# In-game halves that can come true on another player's turn; they are kept in `Seat.marks`
# and become revealable during that seat's next turn (ruling A3).
MARKABLE: Final = ("four_unique_techs",)

# Halves judged at the moment of the reveal, never remembered (ruling A3: "strictly highest
# at the moment you reveal").
LIVE_ONLY: Final = ("last_to_first",)


# -- end-game halves --------------------------------------------------------------------------

def _controls(territory: str) -> EndGame:
    return lambda st, s: st.controllers.get(territory) == s


def _holds(*cards: str) -> EndGame:
    return lambda st, s: all(c in st.seats[s].cards for c in cards)


def _absent(territory: str) -> EndGame:
    return lambda st, s: st.colonies[territory][s] == 0


def _controlled(state: GameState, seat: int) -> list[str]:
    return [t for t, c in state.controllers.items() if c == seat]


def _single_colony(state: GameState, seat: int) -> bool:
    return any(sum(state.colonies[t]) == 1 for t in _controlled(state, seat))


def _others_three(state: GameState, seat: int) -> bool:
    return any(sum(state.colonies[t]) - state.colonies[t][seat] >= 3
               for t in _controlled(state, seat))


def _three_fields(state: GameState, seat: int) -> bool:
    places = set(state.fields.values())
    return len(places) == 1 and state.controllers.get(str(next(iter(places)))) == seat


T = Territory
END_GAME: Final[dict[str, EndGame]] = {
    "fleet_of_seven": _holds(Card.RESOURCE_CACHE, Card.OSCILLATION_CAPACITOR),
    "five_in_a_row": _controls(T.POHL_FOOTHILLS),
    "three_colonies_one_turn": _controls(T.HERBERT_VALLEY),
    "four_of_a_kind": _controls(T.VAN_VOGT_MOUNTAINS),
    "two_takeovers": _holds(Card.PLASMA_CANNON, Card.ELECTROFABRICATOR),
    "six_ore": _single_colony,
    "four_unique_techs": _controls(T.ASIMOV_CRATER),
    "isolated_landing": _controls(T.BRADBURY_PLATEAU),
    "bump_yourself": _others_three,
    "twelve_fuel": _three_fields,
    "two_techs_one_turn": _holds(Card.STASIS_BEAM, Card.SOLAR_HARVESTER),
    "last_to_first": _holds(Card.BOOSTER_POD, Card.EXPERIMENTAL_FTL_DRIVE),
    "shared_gain": _controls(T.BURROUGHS_DESERT),
    "seize_and_use": _controls(T.HEINLEIN_PLAINS),
    "five_hub_steps": _controls(T.LEM_BADLANDS),
    "rob_everyone": _holds(Card.POLARITY_DEVICE, Card.MULTIVERSE_WINDOW),
    "two_ships_one_turn": _absent(T.VAN_VOGT_MOUNTAINS),
    "artifact_eight": _absent(T.POHL_FOOTHILLS),
    "fill_solar": _absent(T.HEINLEIN_PLAINS),
    "repulsor_placed": _absent(T.LEM_BADLANDS),
    "five_facilities": _absent(T.BURROUGHS_DESERT),
    "fill_mine": _absent(T.HERBERT_VALLEY),
    "launch_and_restart": _absent(T.ASIMOV_CRATER),
    "low_roll": _absent(T.BRADBURY_PLATEAU),
}
