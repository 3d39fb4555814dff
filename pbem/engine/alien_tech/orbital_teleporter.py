"""Orbital Teleporter (base-game.md §6.3).

Use, 2 fuel: move one of your docked ships, keeping its value, to a different facility. It
docks there like any docking — requirement, free ports and cost — and may join unplaced
ships to meet the requirement (a 3 teleported to the Shipyard with an unplaced 3 makes a
pair). What it earned where it was stays earned; it gains the new facility's benefit (at the
Alien Artifact it counts toward the total and allows a cycle, rulings B1, B16). It cannot
leave the Terraforming Station, nor go back to a facility it has left this turn, also with
the Oscillation Capacitor's second use (ruling T9): the facilities each ship has left are kept
in `Turn.facts["teleported_from"]`.
Discard: move any one colony (any player's) from one territory to another; the Repulsor
Field blocks both ends (§5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import facilities, fields
from ..actions import Action, Dock, register_action
from ..board import LAYOUT
from ..errors import InvalidAction
from ..events import Event, event
from ..facilities import orbital_market
from ..ids import COLOURS, FACILITY_NAMES, TERRITORY_NAMES, Facility, Field
from ..lookup import commander, is_borrowed
from ..notation import facility_id, seat_of, territory_id
from ..state import UNPLACED, GameState, territories
from ..territories import add_colony, remove_colony
from .common import ship_text, ship_word, sub_multisets, with_pohl, words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "orbital_teleporter"
COST: Final = 2
# plain strs: a set or dict finds them faster than the StrEnum members
_TERRAFORMING: Final = str(Facility.TERRAFORMING_STATION)
_REPULSOR: Final = str(Field.REPULSOR)
_MARKET: Final = str(Facility.ORBITAL_MARKET)
LEFT: Final = "teleported_from"  # Turn.facts key: ship id -> facilities it was teleported off (T9)


@dataclass(frozen=True, slots=True)
class UseOrbitalTeleporter(Action):
    """Move your ship showing `ship` from `facility` to `to`, docking it there together
    with unplaced ships showing `joined` (`joined_relic`: the Relic Ship's value among them)."""

    facility: str
    ship: int
    to: str
    relic: bool = False
    joined: tuple[int, ...] = ()
    joined_relic: int | None = None


register_action("use_orbital_teleporter", UseOrbitalTeleporter)


@dataclass(frozen=True, slots=True)
class DiscardOrbitalTeleporter(Action):
    """Move one colony of `owner` from `territory` to `to`."""

    owner: int
    territory: str
    to: str


register_action("discard_orbital_teleporter", DiscardOrbitalTeleporter)


def use_fuel(state: GameState, action: UseOrbitalTeleporter) -> int:
    return COST


def moved_ship(state: GameState, action: UseOrbitalTeleporter) -> int | str:
    """The index of the ship `action` moves, or why there is none: it reads only the seat,
    the facility, the value and whether it is the Relic Ship."""
    if action.facility not in LAYOUT:
        return f"there is no orbital facility called '{action.facility}'."
    if action.facility == Facility.TERRAFORMING_STATION:
        return "a ship cannot be moved off the Terraforming Station."
    for i, s in enumerate(state.ships):  # a ship you borrowed this turn is yours (B20)
        if s.loc == action.facility and s.value == action.ship and s.is_relic == action.relic \
                and commander(state, s) == action.seat:
            return i
    what = "Relic Ship" if action.relic else "ship"
    return f"you have no {what} showing {action.ship} docked at the " \
           f"{FACILITY_NAMES[action.facility]}."


DockShape = tuple[str, tuple[int, ...], int | None, bool]  # facility, values, relic, launch


def dock_shape(action: UseOrbitalTeleporter) -> DockShape:
    """`docking(action)` but its seat: what the menu compares with the legal dockings."""
    relic = action.ship if action.relic else action.joined_relic
    joined = action.joined
    values = tuple(sorted((action.ship, *joined))) if joined else (action.ship,)
    return action.to, values, relic, False


def docking(action: UseOrbitalTeleporter) -> Dock:
    """The docking the moved ship (and its joiners) make at the destination."""
    facility, values, relic, _ = dock_shape(action)
    return Dock(action.seat, facility, values, relic)


def _lift(state: GameState, index: int, events: list[Event] | None) -> None:
    """The ship leaves its facility; a pair leaving the Market takes its rate, so it trades
    and draws Agendas no more (rulings B7, A1a). No event for a what-if copy (None)."""
    ship = state.ships[index]
    came_from = ship.loc
    if events is not None:
        events.append(event("teleported", commander(state, ship), ship=ship.id,
                            came_from=came_from))
    ship.loc, ship.slot = UNPLACED, -1
    if came_from == Facility.ORBITAL_MARKET:
        orbital_market.pairs_left(state)


def use_refusal(state: GameState, action: UseOrbitalTeleporter) -> str | None:
    return use_refusals(state, [action])[0]


def use_refusals(state: GameState,
                 actions: Sequence[UseOrbitalTeleporter]) -> list[str | None]:
    """`use_refusal` of each action, with one what-if copy per ship moved (the menu asks it
    of every destination and joiners of each of the seat's docked ships)."""
    copies: dict[tuple[int, int], GameState] = {}
    out: list[str | None] = []
    for action in actions:
        index = before_docking(state, action)
        if isinstance(index, str):
            out.append(index)
            continue
        trial = copies.get((action.seat, index))
        if trial is None:
            trial = copies[(action.seat, index)] = lifted(state, action.seat, index)
        reason = facilities.dock_refusal(trial, docking(action))
        out.append(f"the ship cannot dock there: {reason}" if reason else None)
    return out


def before_docking(state: GameState, action: UseOrbitalTeleporter) -> int | str:
    """The index of the ship `action` moves, or why it may not move there before its docking
    is judged; the docking is then `docking(action)` on `lifted(state, seat, index)`."""
    index = moved_ship(state, action)
    if isinstance(index, str):
        return index
    return move_refusal(state, action, index) or index


def move_refusal(state: GameState, action: UseOrbitalTeleporter, index: int) -> str | None:
    """Why ship `index` may not go where `action` sends it, the docking itself aside."""
    if action.to == action.facility:
        return "the ship must move to a different facility from the one it left."
    if action.to in state.turn.facts.get(LEFT, {}).get(state.ships[index].id, ()):
        return (f"this ship has left the {FACILITY_NAMES.get(action.to, action.to)} this turn "
                "and may not be moved back there (ruling T9).")
    if action.to not in facilities.FACILITIES:
        return f"there is no orbital facility called '{action.to}' to dock at."
    if action.to == Facility.TERRAFORMING_STATION and is_borrowed(state, state.ships[index]):
        return ("a ship taken with the Astrogation Servo may never dock at the Terraforming "
                "Station (ruling T1).")
    return None


def barred_destinations(state: GameState, index: int, facility: str) -> set[str]:
    """Where `move_refusal` refuses ship `index`, docked at `facility`, besides the names of
    no facility: there itself, where it has left this turn (ruling T9), and the Terraforming
    Station if it is borrowed (ruling T1). The menu asks this once a ship, not once a move."""
    ship = state.ships[index]
    barred = {facility, *state.turn.facts.get(LEFT, {}).get(ship.id, ())}
    if is_borrowed(state, ship):
        barred.add(_TERRAFORMING)
    return barred


def lifted(state: GameState, seat: int, index: int) -> GameState:
    """A what-if copy with the fuel paid and ship `index` lifted off its facility."""
    trial = paid(state, seat)
    _lift(trial, index, None)
    return trial


def paid(state: GameState, seat: int) -> GameState:
    """A what-if copy with the fuel paid (the ships and the Market rates may change on it)."""
    trial = state.trial()
    trial.seats[seat].fuel -= with_pohl(state, seat, COST)
    return trial


def lift_undone_by_return(state: GameState, index: int) -> bool:
    """Whether lifting ship `index` (`_lift`) only moves it, so that putting it back where it
    was undoes it: not off the Orbital Market, where a pair leaving takes its rate."""
    return state.ships[index].loc != _MARKET


def use(state: GameState, action: UseOrbitalTeleporter, events: list[Event]) -> None:
    index = moved_ship(state, action)
    assert isinstance(index, int)
    left: dict[str, list[str]] = state.turn.facts.setdefault(LEFT, {})
    left.setdefault(state.ships[index].id, []).append(action.facility)  # ruling T9
    _lift(state, index, events)
    waiting = [i for i, s in enumerate(state.ships) if s.loc == UNPLACED and i != index]
    facilities.do_dock(state, docking(action), events)
    _keep_moved(state, index, waiting)


def _keep_moved(state: GameState, index: int, waiting: list[int]) -> None:
    """The moved ship itself stays docked. Docking picks ships by value, so it may take an
    unplaced ship of yours showing the same value instead of a borrowed one moved (or the
    reverse); those two change places, so each colour is where the player put it (B20)."""
    moved = state.ships[index]
    if moved.loc != UNPLACED:
        return
    other = next((state.ships[i] for i in waiting if state.ships[i].loc != UNPLACED
                  and state.ships[i].value == moved.value and not state.ships[i].is_relic
                  and state.ships[i].owner != moved.owner), None)
    if other is not None:
        moved.loc, moved.slot, other.loc, other.slot = other.loc, other.slot, UNPLACED, -1


def use_candidates(state: GameState, seat: int) -> list[Action]:
    """Each docked ship of yours to each other facility, alone or with any of your unplaced
    ships joining it in a shape that facility takes (at a track too); none when the fuel
    cannot pay for a move (asked first: it is the cheapest answer)."""
    if with_pohl(state, seat, COST) > state.seats[seat].fuel:
        return []
    table = facilities.FACILITIES  # the table itself: `LAYOUT` is a view of it, by method
    mine = sorted({(s.loc, s.value, s.is_relic) for s in state.ships
                   if s.loc in table and s.loc != Facility.TERRAFORMING_STATION
                   and commander(state, s) == seat})
    if not mine:
        return []
    return list(_moves(seat, tuple(mine), facilities.ship_tokens(state, seat)))


@lru_cache(maxsize=1024)
def _moves(seat: int, mine: tuple[tuple[str, int, bool], ...],
           hand: tuple[facilities.Token, ...]) -> tuple[UseOrbitalTeleporter, ...]:
    """The moves of the docked ships `mine` (facility, value, is the Relic Ship; sorted) with
    the unplaced `hand` joining, by shape alone: a pure table, built once per position of the
    seat's ships."""
    # each choice of joiners: their values, and the Relic Ship's value among them
    joiners = [(tuple(v for v, _ in joined), next((v for v, r in joined if r), None))
               for joined in [(), *sub_multisets(hand, 2)]]
    # (destination, values) -> a shape it takes: asked once, though several docked ships
    # may show the same value and several joiners make the same values
    fits: dict[tuple[str, tuple[int, ...]], bool] = {}
    out: list[UseOrbitalTeleporter] = []
    for source, value, relic in mine:
        for to, spec in facilities.FACILITIES.items():
            if to == source:
                continue
            sizes = spec.sizes
            for joined, joined_relic in joiners:
                if len(joined) + 1 not in sizes:
                    continue
                shape = (to, tuple(sorted((value, *joined))))
                fit = fits.get(shape)
                if fit is None:
                    fit = fits[shape] = facilities.shape_refusal(*shape) is None
                if fit:
                    out.append(UseOrbitalTeleporter(seat, source, value, to, relic, joined,
                                                    joined_relic))
    return tuple(out)


def discard_refusal(state: GameState, action: DiscardOrbitalTeleporter) -> str | None:
    for territory in (action.territory, action.to):
        if territory not in TERRITORY_NAMES:
            return f"there is no territory called '{territory}'."
    if not 0 <= action.owner < state.players:
        return "there is no such player in this game."
    if action.territory == action.to:
        return "the colony must move to a different territory."
    if state.colonies[action.territory][action.owner] == 0:
        return (f"{COLOURS[action.owner]} has no colony on "
                f"{TERRITORY_NAMES[action.territory]}.")
    return fields.colony_move_refusal(state, action.territory, action.to)


def discard(state: GameState, action: DiscardOrbitalTeleporter, events: list[Event]) -> None:
    events.append(event("colony_moved", action.seat, card=ID, owner=action.owner,
                        came_from=action.territory, to=action.to))
    remove_colony(state, action.owner, action.territory, events)
    add_colony(state, action.owner, action.to, events)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    """Each colony to each other territory, but where the Repulsor Field blocks an end
    (`fields.repulsed`), so `discard_refusal` accepts every move listed."""
    repulsor = state.fields.get(_REPULSOR)
    out: list[Action] = []
    for t, counts in state.colonies.items():
        if t == repulsor:
            continue
        for owner, n in enumerate(counts):
            if n:
                out.extend(_colony_moves(seat, owner, t, repulsor))
    return out


@lru_cache(maxsize=4096)
def _colony_moves(seat: int, owner: int, territory: str,
                  repulsor: str | None) -> tuple[DiscardOrbitalTeleporter, ...]:
    """The moves of a colony of `owner` on `territory` to each other territory but the
    `repulsor`'s: a pure table (at most five seats, owners and eight territories, and nine
    places of the Repulsor Field)."""
    return tuple(DiscardOrbitalTeleporter(seat, owner, territory, to)
                 for to in territories() if to != territory and to != repulsor)


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) < 3:
        words_count(words, 3, ID, "use orbital_teleporter lunar_mine 6 alien_artifact")
    value, relic = ship_word(words[1])
    joined = [ship_word(w) for w in words[3:]]
    relics = [v for v, r in joined if r]
    if len(relics) + relic > 1:
        raise InvalidAction("There is only one Relic Ship.")
    return UseOrbitalTeleporter(seat, facility_id(words[0]), value, facility_id(words[2]),
                                relic, tuple(sorted(v for v, _ in joined)),
                                relics[0] if relics else None)


def format_use(action: UseOrbitalTeleporter) -> list[str]:
    joined = [str(v) for v in action.joined]
    if action.joined_relic is not None and str(action.joined_relic) in joined:
        joined[joined.index(str(action.joined_relic))] += "r"
    return [action.facility, ship_text(action.ship, action.relic), action.to, *joined]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 3, ID, "discard orbital_teleporter red van_vogt_mountains lem_badlands")
    return DiscardOrbitalTeleporter(seat, seat_of(words[0], players), territory_id(words[1]),
                                    territory_id(words[2]))


def format_discard(action: DiscardOrbitalTeleporter) -> list[str]:
    return [COLOURS[action.owner], action.territory, action.to]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Orbital Teleporter",
    copies=2,
    expansion="base",
    aliases=("teleporter",),
    effect=("2 fuel: move one of your docked ships to another facility. Discard: move any one "
            "colony to another territory."),
    use=UsePower(action=UseOrbitalTeleporter, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 refusals=use_refusals,
                 candidates_within_fuel=True),  # none unless the fuel pays for a move
    discard=DiscardPower(action=DiscardOrbitalTeleporter, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard,
                         candidates_pass_refusal=True),  # colonies there now, Repulsor judged
)
