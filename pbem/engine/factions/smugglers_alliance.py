"""Smuggler's Alliance (ruling F13).

Facility: only together with a docking at the Raiders' Outpost in the same action:
`smuggle 2 3 4 5` docks the run 2-3-4 at the Raiders' Outpost and the 5 here. The raid then
takes up to 4 resources AND 1 Alien Tech card, from any mix of opponents, in the order the
raider chooses; a Holographic Decoy protects only while its holder still has it (the raid
itself is `facilities.raiders_outpost`). Owner: any run bumps the Raiders' Outpost."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from .. import facilities
from ..actions import Action, Dock, register_action
from ..alien_tech.common import ship_word
from ..board import free_slot
from ..errors import InvalidAction
from ..events import Event, event
from ..ids import Facility, Faction
from ..state import GameState
from . import common
from .spec import BoardAction, BoardFacility, FactionSpec

ID: Final[str] = str(Faction.SMUGGLERS_ALLIANCE)
NAME: Final = "Smuggler's Alliance"
RAIDERS: Final[str] = str(Facility.RAIDERS_OUTPOST)
SMUGGLED: Final = 4  # ships a smuggle docks: a run of three and one here


@dataclass(frozen=True, slots=True)
class Smuggle(Action):
    """Dock the run `values` at the Raiders' Outpost and the ship `ship` at the Smuggler's
    Alliance in one action. `relic`: the Relic Ship's value among the run; `ship_relic`: the
    single ship is the Relic Ship."""

    values: tuple[int, ...]
    ship: int
    relic: int | None = None
    ship_relic: bool = False


register_action("smuggle", Smuggle)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return (f"{NAME}: dock here only together with a run at the Raiders' Outpost, in one "
            "action: write it like 'smuggle 2 3 4 5' (ruling F13).")


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    raise AssertionError("a Smuggler's Alliance docking is a Smuggle action")


def _run(action: Smuggle) -> Dock:
    return Dock(action.seat, RAIDERS, action.values,
                None if action.ship_relic else action.relic)


def smuggle_refusal(state: GameState, action: Smuggle) -> str | None:
    if not isinstance(action.ship, int) or isinstance(action.ship, bool) \
            or not 1 <= action.ship <= 6:
        return "Ship values are 1 to 6."
    if action.ship_relic and action.relic is not None:
        return "There is only one Relic Ship."
    reason = common.refuse(state, action.seat, ID)
    if reason:
        return reason
    if free_slot(state, ID) is None:
        return f"{NAME}: its port is taken."
    reason = facilities.dock_refusal(state, _run(action))
    if reason:
        return reason
    values = (*action.values, action.ship)
    relic = action.ship if action.ship_relic else action.relic
    found = facilities.match_ships(state, action.seat, values, relic)
    return found if isinstance(found, str) else None


def smuggle(state: GameState, action: Smuggle, events: list[Event]) -> None:
    seat = action.seat
    if action.ship_relic:
        index = len(state.ships) - 1
    else:
        run = facilities.match_ships(state, seat, (*action.values, action.ship), action.relic)
        assert not isinstance(run, str)
        index = run[-1]  # match_ships lists the single ship last
    ship = state.ships[index]
    ship.loc, ship.slot = ID, 0
    events.append(event("docked", seat, facility=ID, values=[action.ship],
                        relic=action.ship if action.ship_relic else None))
    common.pay_fee(state, seat, ID, events)
    facilities.do_dock(state, _run(action), events)
    pending = state.turn.pending
    assert pending is not None and pending["kind"] == "raid"
    pending["cards"] = 1  # ruling F13: 4 resources AND 1 card


def candidates(state: GameState, seat: int) -> list[Action]:
    if state.turn.pending is not None or common.owner_of(state, ID) is None:
        return []
    tokens = facilities.ship_tokens(state, seat)
    if len(tokens) < SMUGGLED or free_slot(state, ID) is None:
        return []
    return list(_smuggles(seat, tokens))


@lru_cache(maxsize=4096)
def _smuggles(seat: int, tokens: tuple[facilities.Token, ...]) -> tuple[Smuggle, ...]:
    """Every smuggle a hand of ships allows by shape (a run for the Raiders' Outpost, any
    other ship here), in menu order: a pure table, built once per hand."""
    out: list[Smuggle] = []
    for trio in combinations(range(len(tokens)), 3):
        values = tuple(tokens[i][0] for i in trio)
        if facilities.shape_refusal(RAIDERS, values) is not None:
            continue
        relic = next((tokens[i][0] for i in trio if tokens[i][1]), None)
        for j in {tokens[k] for k in range(len(tokens)) if k not in trio}:
            out.append(Smuggle(seat, values, j[0], relic, j[1]))
    return tuple(dict.fromkeys(out))


def parse(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 4:
        raise InvalidAction(f"{NAME}: write the run then the ship, like 'smuggle 2 3 4 5'.")
    run = [ship_word(w) for w in words[:3]]
    value, ship_relic = ship_word(words[3])
    relic = next((v for v, r in run if r), None)
    return Smuggle(seat, tuple(sorted(v for v, _ in run)), value, relic, ship_relic)


def format_smuggle(action: Action) -> str:
    assert isinstance(action, Smuggle)
    ships = [str(v) for v in action.values]
    if action.relic is not None and str(action.relic) in ships:
        ships[ships.index(str(action.relic))] += "r"
    last = f"{action.ship}r" if action.ship_relic else str(action.ship)
    return " ".join(["smuggle", *ships, last])


def bot_smuggle_score(state: GameState, seat: int, action: Smuggle) -> float:
    """The greedy bot: a raid with a card, worth more the richer the richest opponent."""
    loot = max(s.fuel + s.ore for i, s in enumerate(state.seats) if i != seat)
    return 9.0 + 0.5 * loot


FACTION: Final = FactionSpec(
    id=ID,
    name=NAME,
    aliases=("smugglers", "smuggler"),
    facility=BoardFacility(
        effect="Together with a Raiders' Outpost docking: take 4 resources AND 1 card.",
        refuse=refuse, dock=dock, candidates=candidates),
    owner="Any run bumps the Raiders' Outpost.",
    actions=(BoardAction(action=Smuggle, refusal=smuggle_refusal, effect=smuggle,
                         format=format_smuggle, bot_score=bot_smuggle_score),),
    bot_preference=6.0,
)
