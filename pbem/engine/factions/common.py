"""What every Faction board shares (ruling F5): its facility has one port for a ship of any
value; a non-owner pays 1 fuel to the owner, the owner docks free, and any further cost goes
to the supply. Only chosen boards are in the game (ruling F3)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..errors import InvalidAction
from ..events import Event
from ..ids import COLOURS, FACTION_ACCESS_FEE, FACTION_NAMES, FIELD_NAMES
from ..payments import pay
from ..state import GameState

FIELD_ALIASES: Final = {"isolation": "isolation_field", "positron": "positron_field",
                 "repulsor": "repulsor_field"}


def faction_name(faction: str) -> str:
    return FACTION_NAMES.get(faction, faction)


def owner_of(state: GameState, faction: str) -> int | None:
    """The seat that chose this Faction board, or None when it is not in the game."""
    for i, seat in enumerate(state.seats):
        if seat.faction == faction:
            return i
    return None


def owns(state: GameState, seat: int, faction: str) -> bool:
    return state.seats[seat].faction == faction


def cost_words(seat: int, owner: int, fuel: int, ore: int) -> str:
    """The words for what docking at the board `owner` chose costs `seat`."""
    parts = []
    if owner != seat:
        parts.append(f"the 1 fuel access fee to {COLOURS[owner]}")
    if fuel:
        parts.append(f"{fuel} fuel to the supply")
    if ore:
        parts.append(f"{ore} ore to the supply")
    return " and ".join(parts)


def refuse(state: GameState, seat: int, faction: str, fuel: int = 0, ore: int = 0) -> str | None:
    """The checks every Faction facility makes: in the game, and the costs affordable."""
    # A board has one owner (the draft): the owner's own board needs no search of the seats.
    me = state.seats[seat]
    owner = seat if me.faction == faction else owner_of(state, faction)
    if owner is None:
        return (f"{faction_name(faction)}: nobody chose this Faction board, so its facility "
                "is not in the game.")
    if me.fuel < fuel + (0 if owner == seat else FACTION_ACCESS_FEE) or me.ore < ore:
        return _cannot_pay(faction, seat, owner, fuel, ore)
    return None


@lru_cache(maxsize=1024)
def _cannot_pay(faction: str, seat: int, owner: int, fuel: int, ore: int) -> str:
    """The words of `refuse` for a cost `seat` cannot pay: made once (every menu asks each
    board's facility, and a seat short of fuel is refused at every step of its turn)."""
    return (f"{faction_name(faction)}: docking costs {cost_words(seat, owner, fuel, ore)}; "
            "you cannot pay.")


def pay_fee(state: GameState, seat: int, faction: str, events: list[Event]) -> None:
    """Ruling F5: the access fee goes to the owner; the owner docks free."""
    owner = owner_of(state, faction)
    if owner is not None and owner != seat:
        pay(state, seat, FACTION_ACCESS_FEE, 0, events, payee=owner, why=faction)


def field_id(word: str) -> str:
    key = word.lower().replace("-", "_")
    key = FIELD_ALIASES.get(key, key)
    if key not in FIELD_NAMES:
        raise InvalidAction(f"Unknown field generator '{word}': isolation, positron or "
                            "repulsor.")
    return key


def once_per_turn(state: GameState, faction: str) -> bool:
    """Whether the owner ability of `faction` was used this turn (Turn.facts)."""
    return bool(state.turn.facts.get(f"{faction}_used"))


def mark_used(state: GameState, faction: str) -> None:
    state.turn.facts[f"{faction}_used"] = True
