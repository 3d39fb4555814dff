"""The Faction boards of the game: the one list of board specs, the draft beside them, and
every table derived from them.

To add a board, write its module (ending in its `FACTION = FactionSpec(...)`), list it in
`SPECS`, and give its id in ids.Faction / FACTION_NAMES: a board's id is also a facility id,
which the port layout, the state and the facilities know from `ids` (docs/architecture.md,
"Adding a Faction board"). tests/engine/factions/test_catalog.py checks the list against
ids.toml [factions]. The board facilities, aliases and words reach the facility table and the
notation through the one catalog step, `pbem.engine.catalog`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .. import notation
from ..actions import Action
from ..errors import InvalidAction
from ..events import Event
from ..facilities.spec import FacilitySpec
from ..notation import Formatter, VerbParser
from ..state import GameState
from . import (
    common,
    corex_conglomerated,
    dark_space_explorers,
    draft,
    homesteaders_union,
    new_gaia_engineers,
    proxima_centauri_scholars,
    scavenger_fleet,
    smugglers_alliance,
    uranian_syndicate,
)
from .draft import ChooseFaction
from .proxima_centauri_scholars import MoveField, ScholarsPlace, ScholarsRemove
from .spec import BoardAction, Candidates, FactionSpec
from .uranian_syndicate import Contest, MoveColony

# In ids.toml order: the order of the facility table, so of the menu (and of replays).
SPECS: Final[tuple[FactionSpec, ...]] = (
    corex_conglomerated.FACTION, dark_space_explorers.FACTION, homesteaders_union.FACTION,
    new_gaia_engineers.FACTION, proxima_centauri_scholars.FACTION, scavenger_fleet.FACTION,
    smugglers_alliance.FACTION, uranian_syndicate.FACTION,
)

FACTIONS: Final[dict[str, FactionSpec]] = {spec.id: spec for spec in SPECS}
ALIASES: Final[dict[str, str]] = {alias: spec.id for spec in SPECS for alias in spec.aliases}
BOARD_ACTIONS: Final[dict[type[Action], BoardAction[Any]]] = {
    board.action: board for spec in SPECS for board in spec.actions}

Refusal = Callable[[GameState, Any], "str | None"]
Perform = Callable[[GameState, Any, list[Event]], None]
# The actions the boards and the draft (ruling F3) add; `rules` merges them with its own.
HANDLERS: Final[dict[type[Action], tuple[Refusal, Perform]]] = {
    ChooseFaction: (draft.choose_refusal, draft.choose),
    **{cls: (board.refusal, board.effect) for cls, board in BOARD_ACTIONS.items()},
}

# pending kind -> (the answers it accepts, what to say while it waits, what to say unasked)
PENDING: Final[dict[str, tuple[tuple[type[Action], ...], str, str]]] = {
    draft.PENDING: ((ChooseFaction,), "First choose your Faction board.",
                    "The Faction draft is over."),
    **{spec.decision.kind: (spec.decision.answers, spec.decision.waiting,
                            spec.decision.unasked)
       for spec in SPECS if spec.decision},
}

# The menu: the draft, then the owners' abilities and the decisions, then the dockings the
# boards add (the Smuggler's Alliance's run). A board's `candidates` offers only its owner's
# abilities, or the answers to its own decision while that waits; a facility's offers nothing
# while any decision waits (`FactionSpec`, `BoardFacility`). So a waiting decision names the
# one list to ask, and otherwise only the seat's own board and the boards in the game are
# asked: the same menu, without asking the boards that would offer nothing
# (tests/engine/factions/test_catalog.py plays games against the full round).
_DECISIONS: Final[dict[str, Candidates]] = {
    draft.PENDING: draft.candidates,
    **{spec.decision.kind: spec.candidates
       for spec in SPECS if spec.decision and spec.candidates},
}
_ABILITIES: Final[dict[str, Candidates]] = {
    spec.id: spec.candidates for spec in SPECS if spec.candidates}
_FACILITY_CANDIDATES: Final[tuple[tuple[str, Candidates], ...]] = tuple(
    (spec.id, spec.facility.candidates) for spec in SPECS if spec.facility.candidates)


def candidates(state: GameState, seat: int) -> list[Action]:
    """Faction actions to offer `seat` now (the caller filters them through the refusals)."""
    pending = state.turn.pending
    if pending is not None:
        decision = _DECISIONS.get(pending["kind"])
        return [] if decision is None else decision(state, seat)
    chosen = [s.faction for s in state.seats if s.faction]
    if not chosen:
        return []  # no board chosen and nothing pending
    own = state.seats[seat].faction
    ability = None if own is None else _ABILITIES.get(own)
    out: list[Action] = [] if ability is None else ability(state, seat)
    for board, offered in _FACILITY_CANDIDATES:
        if board in chosen:
            out.extend(offered(state, seat))
    return out


def faction_id(word: str) -> str:
    key = word.lower().replace("-", "_").replace("'", "")
    key = ALIASES.get(key, key)
    if key not in FACTIONS:
        raise InvalidAction(f"Unknown Faction board '{word}'.")
    return key


# -- each board's facility, for the facility table (ruling F5) -----------------------------
# The one place a board becomes a facility: one port for a ship of any value. The table
# cannot import the boards (the Smuggler's Alliance docks at the Raiders' Outpost by id), so
# the catalog step (`pbem.engine.catalog`) joins these to it.
def _facility_spec(spec: FactionSpec) -> FacilitySpec:
    return FacilitySpec(spec.id, spec.name, shape="single", group_size=1, groups=(1, 1, 1),
                        refuse=spec.facility.refuse, dock=spec.facility.dock,
                        launches=spec.facility.launches, value_free=spec.facility.value_free)


FACILITY_SPECS: Final[tuple[FacilitySpec, ...]] = tuple(_facility_spec(spec) for spec in SPECS)


# -- notation: the boards' words, which the catalog step joins to the notation's ------------
def _choose(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 1:
        raise InvalidAction("Write 'choose' and a Faction board, for example 'choose corex'.")
    return ChooseFaction(seat, faction_id(words[0]))


def _move(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) == 2:  # Proxima Centauri Scholars: move <field> <territory>
        return MoveField(seat, common.field_id(words[0]), notation.territory_id(words[1]))
    if len(words) == 3:  # Uranian Syndicate: move <colour> <from> <to>
        return MoveColony(seat, notation.seat_of(words[0], players),
                          notation.territory_id(words[1]), notation.territory_id(words[2]))
    raise InvalidAction("Write 'move repulsor pohl' (a field) or 'move red lem pohl' (a "
                        "colony).")


def _scholars(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) == 3 and words[0].lower() == "place":
        return ScholarsPlace(seat, common.field_id(words[1]), notation.territory_id(words[2]))
    if len(words) == 2 and words[0].lower() == "remove":
        return ScholarsRemove(seat, common.field_id(words[1]))
    raise InvalidAction("Write 'scholars place positron lem' or 'scholars remove positron'.")


def _contest(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 1:
        raise InvalidAction("Write 'contest' and a territory, for example 'contest lem'.")
    return Contest(seat, notation.territory_id(words[0]))


def _format(action: Action) -> str:
    if isinstance(action, ChooseFaction):
        return f"choose {action.faction}"
    return BOARD_ACTIONS[type(action)].format(action)


VERBS: Final[dict[str, VerbParser]] = {
    "choose": _choose, "move": _move, "scholars": _scholars, "contest": _contest,
    "smuggle": smugglers_alliance.parse,
}
FORMATS: Final[dict[type[Action], Formatter]] = {cls: _format for cls in HANDLERS}
