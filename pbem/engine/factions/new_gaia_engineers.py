"""New Gaia Engineers (rulings F6, F7).

Facility: only in the turn you docked at the Terraforming Station: roll the terraformed ship
at once; it stays on the station showing the new value. When it leaves (its owner's next
gather, or a Plasma Cannon) it goes to the Maintenance Bay on 4-6 with the option
`new_gaia_rescue = "high"` (the default) or on 1-3 with `"low"`, else to the supply
(`territories.send_to_stock`). Owner: other players' Terraforming Station payments go to the
owner (`terraforming_station.terraforming_payee`)."""

from __future__ import annotations

from typing import Final

from .. import dice
from ..actions import Dock
from ..events import Event, event
from ..ids import Facility, Faction
from ..lookup import commander
from ..state import GameState
from ..territories import NEW_GAIA_MARK
from . import common
from .spec import BoardFacility, FactionSpec, worth

ID: Final[str] = str(Faction.NEW_GAIA_ENGINEERS)
STATION: Final[str] = str(Facility.TERRAFORMING_STATION)


def terraformed(state: GameState, seat: int) -> int | None:
    """Index of `seat`'s ship on the Terraforming Station (docked this turn), or None."""
    for i, ship in enumerate(state.ships):
        if ship.loc == STATION and commander(state, ship) == seat:
            return i
    return None


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    reason = common.refuse(state, seat, ID)
    if reason:
        return reason
    index = terraformed(state, seat)
    if index is None or seat != state.turn.seat:
        return ("New Gaia Engineers: dock here only in a turn in which you docked at the "
                "Terraforming Station (ruling F6).")
    if state.seats[seat].marks.get(NEW_GAIA_MARK) == state.ships[index].id:
        return "New Gaia Engineers: your terraformed ship has been re-rolled already."
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    index = terraformed(state, seat)
    assert index is not None
    ship = state.ships[index]
    was = ship.value
    ship.value = dice.roll(state)
    state.seats[seat].marks[NEW_GAIA_MARK] = ship.id
    events.append(event("rerolled", seat, ship=ship.id, was=was, now=ship.value, why=ID))


FACTION: Final = FactionSpec(
    id=ID,
    name="New Gaia Engineers",
    aliases=("newgaia", "new_gaia", "gaia"),
    facility=BoardFacility(
        effect="With a ship on the Terraforming Station: re-roll it; a good roll rescues it "
               "(see the game's options).",
        refuse=refuse, dock=dock, bot_worth=worth(4.0)),
    owner="Other players' Terraforming Station payments go to the owner.",
    bot_preference=5.0,
)
