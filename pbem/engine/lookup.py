"""Whose ship is this, and where the ships are.

`commander` is the one answer to "whose ship is this" for the rules (ruling B20): every card,
facility and Agenda condition that asks it goes through `commander`, `fleet` or
`unplaced_indices`, or, in a few scans made at every step, reads what `commander` reads
once for the whole scan (`facilities.ship_hand`, `conditions.docked_halves`, the Plasma
Cannon's and the Chameleon Cloak's targets): the menu audit and the latch test hold them to
the rules. `Ship.owner` is the colour, which never changes; only colour counts read
it directly (Shipyard cost, fleet minimums, the Plasma Cannon's B6 test).

Every answer here is read from the state as it is: the rules keep no memo. (The menu's
accelerator, `pbem.engine.menu`, keeps its own tables apart.)
"""

from __future__ import annotations

from typing import Final, TypeVar

from .ids import RELIC, SHIPS_MAX
from .state import UNPLACED, GameState, Ship

T = TypeVar("T")
SERVO_SHIPS: Final = "servo_ships"  # Turn.facts key: ids of ships borrowed this turn (ruling T1)


def is_borrowed(state: GameState, ship: Ship) -> bool:
    """Whether `ship` was taken with the Astrogation Servo this turn (ruling T1), wherever it
    is now."""
    return ship.id in state.turn.facts.get(SERVO_SHIPS, ())


def commander(state: GameState, ship: Ship) -> int | None:
    """The seat whose ship `ship` counts as now (ruling B20): the Relic Ship is its owner's
    (`relic_owner`, None while it rests at home); a ship borrowed this turn is the borrower's
    (the active seat) wherever it is, until the end of that turn; any other ship its colour's.
    Ownership (`Ship.owner`) never changes."""
    borrowed = ship.id in state.turn.facts.get(SERVO_SHIPS, ())
    if ship.id == RELIC:  # `Ship.is_relic`, asked once: every scan of the ships asks this
        if state.relic_owner is None:
            return None  # at home on Burroughs Desert
        return state.turn.seat if borrowed else state.relic_owner  # borrowed: ruling T1a
    return state.turn.seat if borrowed else ship.owner


def colour_indices(seat: int) -> range:
    """Indices of the ships of `seat`'s colour, in ship order: every game lays the ships out
    as each colour's `SHIPS_MAX` in seat order, then the Relic Ship (`flow.new_game`, the
    scenario positions), so a colour's ships are one run of the list, never to be scanned for."""
    first = seat * SHIPS_MAX
    return range(first, first + SHIPS_MAX)


def colour_ships(state: GameState, seat: int) -> list[Ship]:
    """The ships of `seat`'s colour (`colour_indices`), in ship order."""
    first = seat * SHIPS_MAX
    return state.ships[first:first + SHIPS_MAX]


def fleet(state: GameState, seat: int) -> list[Ship]:
    """Ships `seat` commands now (see `commander`), wherever they are, in ship order."""
    ships = state.ships
    return [ships[i] for i in fleet_indices(state, seat)]


def fleet_indices(state: GameState, seat: int) -> list[int]:
    """Indices of the ships `seat` commands now, in ship order (`commander`, asked of every
    ship at once: with no ship borrowed this turn it is the colour's, then the Relic Ship,
    which is the last ship)."""
    ships = state.ships
    if SERVO_SHIPS in state.turn.facts:
        return [i for i, s in enumerate(ships) if commander(state, s) == seat]
    first = seat * SHIPS_MAX  # `colour_indices`, without its call: asked at every turn
    found = list(range(first, first + SHIPS_MAX))
    if state.relic_owner == seat:
        found.append(len(ships) - 1)
    return found


def unplaced(state: GameState, seat: int) -> list[Ship]:
    """`seat`'s unplaced ships, the Relic Ship and a borrowed ship included."""
    return [s for s in fleet(state, seat) if s.loc == UNPLACED]


def ships_at(state: GameState, loc: str) -> list[Ship]:
    """The ships at a location (a facility, the stock, ...), in ship order."""
    place = str(loc)  # a StrEnum member as its plain value: a ship's place compares faster
    return [s for s in state.ships if s.loc == place]


def unplaced_indices(state: GameState, seat: int) -> list[int]:
    """Indices of the unplaced ships of `seat`'s colour (not the Relic Ship), in ship order."""
    ships = state.ships
    first = seat * SHIPS_MAX  # the colour's run of the list (`colour_indices`), no slice made
    own: list[int] = []
    for i in range(first, first + SHIPS_MAX):  # a plain loop: a comprehension is its own call
        if ships[i].loc == UNPLACED:
            own.append(i)
    if SERVO_SHIPS in state.turn.facts:
        own = _with_borrowed(state, seat, own)
    return own


def borrowed_indices(state: GameState) -> list[int]:
    """Unplaced ships of a colour the active seat took with the Astrogation Servo this turn
    (ruling T1). A Relic Ship taken so (T1a) stays the Relic Ship, found through `commander`."""
    ids = state.turn.facts.get(SERVO_SHIPS, ())
    return [i for i, s in enumerate(state.ships)
            if s.id in ids and s.loc == UNPLACED and not s.is_relic]


def _with_borrowed(state: GameState, seat: int, own: list[int]) -> list[int]:
    """A borrowed ship is the borrower's during their turn (ruling B20), after their own."""
    borrowed = borrowed_indices(state)
    mine = [i for i in own if i not in borrowed]
    return mine + borrowed if seat == state.turn.seat else mine
