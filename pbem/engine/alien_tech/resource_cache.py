"""Resource Cache (base-game.md §6.3): free and automatic, no action and no discard power.

Right after the fleet roll, before any card can be used (`flow.start_turn`), compare the
ships rolled — every one, the Relic Ship included (ruling B10): more odd values give 1 ore,
more even values 1 fuel; a tie gives 1 fuel and 1 ore and the card must be discarded, a
forced discard that does not count as the turn's discard (ruling B17).

It does not work on the turn it is gained. Cards are gained only during their owner's own
turn, after the roll, so the next check is the next turn's roll; `Turn.gained` records the
cards gained this turn and the check skips them all the same. A card dealt at setup works
from its owner's first turn.
"""

from __future__ import annotations

from typing import Final

from ..events import Event, event
from ..payments import gain
from ..state import GameState
from .common import forced_discard
from .spec import CardSpec

ID: Final = "resource_cache"


def after_roll(state: GameState, seat: int, events: list[Event]) -> None:
    if ID not in state.seats[seat].cards or ID in state.turn.gained:
        return
    rolled = state.turn.rolled
    odd = sum(1 for v in rolled if v % 2)
    even = len(rolled) - odd
    fuel, ore = (1 if even >= odd else 0), (1 if odd >= even else 0)
    events.append(event("resource_cache", seat, odd=odd, even=even, fuel=fuel, ore=ore))
    gain(state, seat, fuel, ore, events, why=ID)
    if odd == even:
        forced_discard(state, seat, ID, events, why="tie")


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Resource Cache",
    copies=2,
    expansion="base",
    aliases=("cache",),
    effect=("After each roll: more odd ships +1 ore, more even +1 fuel, equal both (then discard "
            "it)."),
)
