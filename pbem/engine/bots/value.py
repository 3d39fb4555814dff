"""What a position is worth to a seat: the strong bot's evaluation at the end of a rollout.

Victory points and colonies landed dominate; then what turns into points later: ships beyond
the first three (more dice every turn), Alien Tech cards, ore and fuel (the Colony
Constructor and the Terraforming Station take them), a colony on the Colonist Hub and how far
it has travelled, and face-down Agendas. A seat's standing is its worth against its
opponents' (the leader weighs most: hurting the leader is worth more than hurting the last).
A finished game is worth its result, whatever the heuristic says.
"""

from __future__ import annotations

from typing import Final

from ..ids import COLONIES, RESOURCE_LIMIT, SHIPS_START, VP_CARDS
from ..scoring import vps
from ..state import STOCK, GameState

# Fitted by logistic regression of "this seat won" on these features (each against the
# opponents' mean, points also against the leader's) at the end of every turn of 600 greedy
# self-play games with Factions at 2 and 4 seats, rounded and scaled so a victory point is
# worth POINT: the value of a position under the greedy continuation, which is what a
# rollout needs. Base-game fits rank the features the same way (ships and colonies first).
POINT: Final = 10.0
COLONY: Final = 27.0  # each colony landed, on top of the points it scores (the game's clock)
HUB_COLONY: Final = 4.4  # a colony on the Colonist Hub, before it moves
HUB_CIRCLE: Final = 4.4  # each circle it has travelled (it launches after seven)
ORE: Final = 8.0
FUEL: Final = 3.3
SHIP: Final = 32.0  # each ship beyond the starting three: a die more every turn
CARD: Final = 11.0  # an Alien Tech card that is not itself a point
AGENDA: Final = 5.0  # a face-down Agenda: a point if it is ever met
LEADER_SHARE: Final = 0.6  # of the opponents' worth: the leader's share, the mean takes the rest
WIN: Final = 1000.0


def worth(state: GameState, seat: int, points: int) -> float:
    """The seat's absolute worth, given its victory points."""
    s = state.seats[seat]
    value = POINT * points + ORE * min(s.ore, RESOURCE_LIMIT) + FUEL * min(s.fuel, RESOURCE_LIMIT)
    if s.hub_circle:
        value += HUB_COLONY + HUB_CIRCLE * s.hub_circle
    landed = COLONIES[state.players] - s.colonies - (1 if s.hub_circle else 0)
    value += COLONY * landed
    ships = sum(1 for ship in state.ships if ship.owner == seat and ship.loc != STOCK)
    value += SHIP * (ships - SHIPS_START)
    value += CARD * sum(1 for card in s.cards if card not in VP_CARDS)
    return value + AGENDA * len(s.agendas)


def standing(state: GameState, seat: int) -> float:
    """The seat's worth against its opponents'; a finished game: its result."""
    if state.phase == "over" and state.result is not None:
        winners = state.result["winners"]
        if seat in winners:
            return WIN / len(winners)
        return -WIN
    points = vps(state)
    values = [worth(state, i, points[i]) for i in range(state.players)]
    others = values[:seat] + values[seat + 1:]
    return values[seat] - LEADER_SHARE * max(others) - (1 - LEADER_SHARE) * sum(others) / len(
        others)
