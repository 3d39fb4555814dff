"""Dark Space Explorers (ruling F8).

Facility: pay 1 fuel to the supply and take the top card of the Alien Tech draw pile; a card
you already own is discarded at once. Owner: up to two discard powers per turn
(`alien_tech.discard_limit`)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..deck import draw, gain_card
from ..events import Event, event
from ..ids import Faction
from ..payments import pay
from ..state import GameState
from . import common
from .spec import BoardFacility, FactionSpec, worth

ID: Final[str] = str(Faction.DARK_SPACE_EXPLORERS)
FUEL: Final = 1


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    reason = common.refuse(state, seat, ID, fuel=FUEL)
    if reason is None and not state.deck and not state.discard:
        reason = "Dark Space Explorers: there is no Alien Tech card left to draw."
    return reason


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    pay(state, seat, FUEL, 0, events, why=ID)
    card = draw(state, events)
    assert card is not None
    events.append(event("drew", seat, card=card, why=ID))
    gain_card(state, seat, card, events, how=ID)


FACTION: Final = FactionSpec(
    id=ID,
    name="Dark Space Explorers",
    aliases=("darkspace", "dark_space", "explorers"),
    facility=BoardFacility(effect="Pay 1 fuel: take the top card of the Alien Tech deck.",
                           refuse=refuse, dock=dock, bot_worth=worth(7.0)),
    owner="Use up to two discard powers per turn.",
    bot_preference=6.0,
)
