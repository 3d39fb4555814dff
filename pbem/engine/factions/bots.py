"""The greedy bot's view of Faction actions: a quick worth for each (see `bots._score`)."""

from __future__ import annotations

from ..actions import Action, Dock
from ..ids import FACTION_NAMES, Faction, Field
from ..scoring import vp
from ..state import GameState
from ..territories import controller_of
from .common import owner_of
from .corex_conglomerated import controlled
from .draft import ChooseFaction
from .proxima_centauri_scholars import MoveField, ScholarsPlace, ScholarsRemove
from .smugglers_alliance import Smuggle
from .uranian_syndicate import Contest, MoveColony

PREFERENCE: dict[str, float] = {
    Faction.COREX_CONGLOMERATED: 9.0, Faction.URANIAN_SYNDICATE: 8.0,
    Faction.HOMESTEADERS_UNION: 8.0, Faction.SCAVENGER_FLEET: 7.0,
    Faction.SMUGGLERS_ALLIANCE: 6.0, Faction.DARK_SPACE_EXPLORERS: 6.0,
    Faction.PROXIMA_CENTAURI_SCHOLARS: 5.0, Faction.NEW_GAIA_ENGINEERS: 5.0,
}
DOCK_WORTH: dict[str, float] = {
    Faction.DARK_SPACE_EXPLORERS: 7.0, Faction.HOMESTEADERS_UNION: 5.0,
    Faction.NEW_GAIA_ENGINEERS: 4.0, Faction.PROXIMA_CENTAURI_SCHOLARS: 0.5,
    Faction.SCAVENGER_FLEET: 2.0, Faction.URANIAN_SYNDICATE: 3.0,
}


def faction_score(state: GameState, seat: int, action: Action) -> float | None:
    """A worth for Faction actions, or None for any other action."""
    if isinstance(action, ChooseFaction):
        return PREFERENCE.get(action.faction, 5.0)
    if isinstance(action, Dock) and action.facility in FACTION_NAMES:
        return _dock(state, seat, action)
    if isinstance(action, Smuggle):
        loot = max(s.fuel + s.ore for i, s in enumerate(state.seats) if i != seat)
        return 9.0 + 0.5 * loot
    if isinstance(action, MoveField):
        return 0.0
    if isinstance(action, ScholarsPlace | ScholarsRemove):
        return _scholars(state, seat, action)
    if isinstance(action, MoveColony):
        return _move_colony(state, seat, action)
    if isinstance(action, Contest):
        return 1.0
    return None


def _dock(state: GameState, seat: int, action: Dock) -> float:
    facility = action.facility
    fee = 1.0 if owner_of(state, facility) != seat else 0.0
    if facility == Faction.COREX_CONGLOMERATED:
        worth = 3.0 * controlled(state, seat) - 3.0
    elif facility == Faction.HOMESTEADERS_UNION and action.launch:
        worth = 28.0
    else:
        worth = DOCK_WORTH.get(facility, 0.0)
    return worth - fee - 0.1 * action.values[0]


def _scholars(state: GameState, seat: int, action: ScholarsPlace | ScholarsRemove) -> float:
    if isinstance(action, ScholarsPlace):
        mine = state.controllers.get(action.territory) == seat
        if action.field == Field.POSITRON and mine:
            return 6.0
        if action.field == Field.ISOLATION and state.controllers.get(action.territory) \
                not in (None, seat):
            return 1.0
        return -6.0
    at = state.fields.get(action.field)
    harmful = at is not None and state.controllers.get(at) == seat \
        and action.field != Field.POSITRON
    return 2.0 if harmful else -6.0


def _move_colony(state: GameState, seat: int, action: MoveColony) -> float:
    before = vp(state, seat)
    source = list(state.colonies[action.source])
    target = list(state.colonies[action.target])
    source[action.owner] -= 1
    target[action.owner] += 1
    gain = 0.0
    for territory, counts in ((action.source, source), (action.target, target)):
        was, now = state.controllers.get(territory), controller_of(counts)
        gain += 10.0 * ((now == seat) - (was == seat))
        gain += 3.0 * ((was not in (None, seat)) - (now not in (None, seat)))
    return gain - 0.01 * before - (2.0 if action.owner != seat else 1.0)
