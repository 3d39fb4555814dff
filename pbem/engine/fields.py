"""Field generators (base-game.md §5): the Isolation, Positron and Repulsor Fields.

They start off the planet. The first time a field is brought in it may go on any territory;
afterwards it can only move to a different territory, or be taken off the planet (Booster Pod
discard, ruling B3). Every way in or out — the card discards here, and later the Proxima
Centauri Scholars (ruling F10) — goes through `place_refusal` / `place` / `remove`.

- Isolation: the territory's bonus is cancelled (`territories.has_bonus`), Data Crystal
  included; on Burroughs Desert the Relic Ship goes home at once and cannot be bought.
- Positron: +1 VP to the territory's controller (`scoring.vp_breakdown`).
- Repulsor: no colony is added to or removed from the territory, from any source
  (`territories.landable`, `colony_move_refusal`). It never stops a field from moving.
"""

from __future__ import annotations

from typing import Final

from .events import Event, event
from .ids import FIELD_NAMES, TERRITORY_NAMES, Field, Territory
from .state import GameState
from .territories import return_relic

# A plain str: a dict finds it several times faster than the StrEnum member.
_REPULSOR: Final = str(Field.REPULSOR)


def field_name(fld: str) -> str:
    return FIELD_NAMES.get(fld, fld)


def territory_name(territory: str) -> str:
    return TERRITORY_NAMES.get(territory, territory)


def place_refusal(state: GameState, fld: str, territory: str) -> str | None:
    """Why `fld` may not be placed on, or moved to, `territory` now (None: it may)."""
    if fld not in state.fields:
        return f"There is no field generator called '{fld}'."
    if territory not in TERRITORY_NAMES:
        return f"There is no territory called '{territory}'."
    if state.fields[fld] == territory:
        return (f"the {field_name(fld)} is already on {territory_name(territory)}; it must "
                "move to a different territory.")
    return None


def place(state: GameState, fld: str, territory: str, seat: int, events: list[Event],
          why: str = "") -> None:
    """Put `fld` on `territory`, from off the planet or from where it was."""
    came_from = state.fields[fld]
    state.fields[fld] = territory
    events.append(event("field_placed" if came_from is None else "field_moved", seat,
                        field=fld, territory=territory, came_from=came_from, why=why))
    if fld == Field.ISOLATION and territory == Territory.BURROUGHS_DESERT:
        return_relic(state, events)  # §4.4: home at once, and not for sale while it stays


def remove_refusal(state: GameState, fld: str) -> str | None:
    if fld not in state.fields:
        return f"There is no field generator called '{fld}'."
    if state.fields[fld] is None:
        return f"the {field_name(fld)} is not on the planet."
    return None


def remove(state: GameState, fld: str, seat: int, events: list[Event], why: str = "") -> None:
    """Take `fld` off the planet; it may be placed again later."""
    came_from = state.fields[fld]
    state.fields[fld] = None
    events.append(event("field_removed", seat, field=fld, came_from=came_from, why=why))


def repulsed(state: GameState, territory: str) -> bool:
    """Whether the Repulsor Field keeps colonies from being added to or removed from it."""
    return state.fields.get(_REPULSOR) == territory


def colony_move_refusal(state: GameState, *territories: str) -> str | None:
    """Why colonies may not leave or enter these territories (the Repulsor Field), or None."""
    for territory in territories:
        if repulsed(state, territory):
            return (f"the Repulsor Field on {territory_name(territory)} lets no colony be "
                    "added there or removed from there.")
    return None
