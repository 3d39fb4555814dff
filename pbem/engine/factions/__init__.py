"""Faction boards (Factions expansion): one module per board, each with its facility (ruling
F5: one port, any value, 1 fuel access fee to the owner) and its owner's ability, plus the
draft (ruling F3).

A board module names its `ID` (= its facility's id) and provides `refuse` / `dock` like any
facility module; its facility's `FacilitySpec` is made here (`_facility`) and joins the
facility table, so docking, the must-dock rule (B9) and `legal_actions` see it. Only chosen
boards are in the game. Actions that boards add (the draft's choice, follow-up decisions,
owner abilities) are listed in `HANDLERS`, `PENDING` and `candidates`, which `rules` merges
with its own.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from .. import facilities
from ..actions import Action
from ..errors import InvalidAction
from ..events import Event
from ..facilities.spec import FacilitySpec
from ..ids import COLOURS, FACILITY_NAMES, FACTION_NAMES
from ..notation import (
    FACILITY_ALIASES,
    register_format,
    register_verb,
    seat_of,
    territory_id,
)
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
from .smugglers_alliance import Smuggle
from .uranian_syndicate import Contest, MoveColony

FACTIONS: dict[str, ModuleType] = {
    m.ID: m
    for m in (corex_conglomerated, dark_space_explorers, homesteaders_union,
              new_gaia_engineers, proxima_centauri_scholars, scavenger_fleet,
              smugglers_alliance, uranian_syndicate)
}


def _facility(board: ModuleType) -> FacilitySpec:
    """A board's facility: one port for a ship of any value (ruling F5). The one place a
    board module's hooks and marks (`VALUE_FREE`, `LAUNCHES`) become a spec."""
    return FacilitySpec(board.ID, FACILITY_NAMES[board.ID],
                        shape="single", group_size=1, groups=(1, 1, 1),
                        refuse=board.refuse, dock=board.dock,
                        launches=getattr(board, "LAUNCHES", False),
                        value_free=getattr(board, "VALUE_FREE", False))


facilities.join(_facility(board) for board in FACTIONS.values())

ALIASES: dict[str, str] = {
    "corex": "corex_conglomerated", "darkspace": "dark_space_explorers",
    "dark_space": "dark_space_explorers", "explorers": "dark_space_explorers",
    "homesteaders": "homesteaders_union", "homesteader": "homesteaders_union",
    "union": "homesteaders_union", "newgaia": "new_gaia_engineers",
    "new_gaia": "new_gaia_engineers", "gaia": "new_gaia_engineers",
    "proxima": "proxima_centauri_scholars", "scholars": "proxima_centauri_scholars",
    "scavenger": "scavenger_fleet", "scavengers": "scavenger_fleet",
    "smugglers": "smugglers_alliance", "smuggler": "smugglers_alliance",
    "uranian": "uranian_syndicate", "syndicate": "uranian_syndicate",
}
FACILITY_ALIASES.update(ALIASES)

Refusal = Callable[[GameState, Any], "str | None"]
Perform = Callable[[GameState, Any, list[Event]], None]
HANDLERS: dict[type[Action], tuple[Refusal, Perform]] = {
    ChooseFaction: (draft.choose_refusal, draft.choose),
    Smuggle: (smugglers_alliance.smuggle_refusal, smugglers_alliance.smuggle),
    MoveField: (proxima_centauri_scholars.move_refusal, proxima_centauri_scholars.move),
    ScholarsPlace: (proxima_centauri_scholars.place_refusal, proxima_centauri_scholars.place),
    ScholarsRemove: (proxima_centauri_scholars.remove_refusal,
                     proxima_centauri_scholars.remove),
    MoveColony: (uranian_syndicate.move_refusal, uranian_syndicate.move),
    Contest: (uranian_syndicate.contest_refusal, uranian_syndicate.contest),
}

# pending kind -> (the answers it accepts, what to say while it waits, what to say unasked)
PENDING: dict[str, tuple[tuple[type[Action], ...], str, str]] = {
    draft.PENDING: ((ChooseFaction,), "First choose your Faction board.",
                    "The Faction draft is over."),
    proxima_centauri_scholars.PENDING: (
        (MoveField,), "First choose the field generator the Proxima Centauri Scholars move.",
        "Proxima Centauri Scholars: a field moves only after docking there."),
    uranian_syndicate.PENDING: (
        (MoveColony,), "First choose the colony the Uranian Syndicate moves.",
        "Uranian Syndicate: a colony moves only after docking there."),
}


def candidates(state: GameState, seat: int) -> list[Action]:
    """Faction actions to offer `seat` now (the caller filters them through the refusals)."""
    if not any(s.faction for s in state.seats) and state.turn.pending is None:
        return []
    out: list[Action] = []
    out.extend(draft.candidates(state, seat))
    out.extend(proxima_centauri_scholars.candidates(state, seat))
    out.extend(uranian_syndicate.candidates(state, seat))
    out.extend(smugglers_alliance.candidates(state, seat))
    return out


def faction_id(word: str) -> str:
    key = word.lower().replace("-", "_").replace("'", "")
    key = ALIASES.get(key, key)
    if key not in FACTION_NAMES:
        raise InvalidAction(f"Unknown Faction board '{word}'.")
    return key


# -- notation ---------------------------------------------------------------------------------

def _choose(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 1:
        raise InvalidAction("Write 'choose' and a Faction board, for example 'choose corex'.")
    return ChooseFaction(seat, faction_id(words[0]))


def _move(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) == 2:  # Proxima Centauri Scholars: move <field> <territory>
        return MoveField(seat, common.field_id(words[0]), territory_id(words[1]))
    if len(words) == 3:  # Uranian Syndicate: move <colour> <from> <to>
        return MoveColony(seat, seat_of(words[0], players), territory_id(words[1]),
                          territory_id(words[2]))
    raise InvalidAction("Write 'move repulsor pohl' (a field) or 'move red lem pohl' (a "
                        "colony).")


def _scholars(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) == 3 and words[0].lower() == "place":
        return ScholarsPlace(seat, common.field_id(words[1]), territory_id(words[2]))
    if len(words) == 2 and words[0].lower() == "remove":
        return ScholarsRemove(seat, common.field_id(words[1]))
    raise InvalidAction("Write 'scholars place positron lem' or 'scholars remove positron'.")


def _contest(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 1:
        raise InvalidAction("Write 'contest' and a territory, for example 'contest lem'.")
    return Contest(seat, territory_id(words[0]))


def _colour(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else str(seat)


register_verb("choose", _choose)
register_verb("move", _move)
register_verb("scholars", _scholars)
register_verb("contest", _contest)
register_verb("smuggle", smugglers_alliance.parse)


def _format(action: Action) -> str:
    if isinstance(action, ChooseFaction):
        return f"choose {action.faction}"
    if isinstance(action, MoveField):
        return f"move {action.field} {action.territory}"
    if isinstance(action, ScholarsPlace):
        return f"scholars place {action.field} {action.territory}"
    if isinstance(action, ScholarsRemove):
        return f"scholars remove {action.field}"
    if isinstance(action, MoveColony):
        return f"move {_colour(action.owner)} {action.source} {action.target}"
    if isinstance(action, Contest):
        return f"contest {action.territory}"
    return smugglers_alliance.format_smuggle(action)


for _cls in HANDLERS:
    register_format(_cls, _format)

__all__ = ["FACTIONS", "HANDLERS", "PENDING", "candidates", "common", "faction_id"]
