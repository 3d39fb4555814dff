"""Setup, the start of a turn (gather and roll), the end of a turn and the end of the game."""

from __future__ import annotations

from typing import Any

from . import dice
from .alien_tech import resource_cache
from .deck import draw
from .errors import InvalidAction
from .events import Event, event
from .ids import (
    BASE_DECK,
    COLONIES,
    COLOURS,
    DISPLAY_SIZE,
    FACILITY_NAMES,
    MAX_PLAYERS_BASE,
    MIN_PLAYERS,
    RELIC,
    SHIPS_MAX,
    SHIPS_START,
    START_RESOURCES,
    TECH_DEALT,
    Facility,
    Field,
    Territory,
)
from .scoring import result
from .state import BAY, RELIC_HOME, STOCK, UNPLACED, GameState, Seat, Ship, Turn
from .territories import return_relic, send_to_stock

DEFAULT_OPTIONS: dict[str, Any] = {"factions": False}


def new_game(players: int, seed: int, options: dict[str, Any] | None = None) -> GameState:
    """A game at the start of seat 0's first turn, its fleet already rolled.

    `seed` is the server-side secret from which every roll and shuffle follows (ruling C3).
    """
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options or {})
    if opts.get("factions"):
        raise InvalidAction("The Factions expansion is not available in this engine yet.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS_BASE:
        raise InvalidAction(f"The base game takes {MIN_PLAYERS} to {MAX_PLAYERS_BASE} players.")
    if not isinstance(seed, int) or seed < 0:
        raise InvalidAction("The seed is a non-negative integer.")
    seats = []
    for seat in range(players):
        fuel, ore = START_RESOURCES[seat]
        seats.append(Seat(fuel=fuel, ore=ore, colonies=COLONIES[players], hub_track=seat))
    ships = []
    for seat in range(players):
        for n in range(1, SHIPS_MAX + 1):
            loc = BAY if n <= SHIPS_START else STOCK
            ships.append(Ship(f"{COLOURS[seat]}{n}", seat, loc))
    ships.append(Ship(RELIC, None, RELIC_HOME))
    deck = [card for card, copies in BASE_DECK.items() for _ in range(copies)]
    rng = [seed, 0]
    dice.shuffle(rng, deck)
    state = GameState(
        players=players, options=opts, seats=seats, ships=ships,
        colonies={t.value: [0] * players for t in Territory},
        controllers={t.value: None for t in Territory},
        fields={f.value: None for f in Field},
        deck=deck, display=[], discard=[], relic_owner=None, turn=Turn(seat=0, round=1),
        rng=rng,
    )
    ignored: list[Event] = []
    for seat in range(players):
        for _ in range(TECH_DEALT):
            card = draw(state, ignored)
            assert card is not None
            state.seats[seat].cards.append(card)
    for _ in range(DISPLAY_SIZE):
        card = draw(state, ignored)
        assert card is not None
        state.display.append(card)
    start_turn(state, 0, [])
    return state


def start_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """Gather (Terraforming ships to the stock, the Relic Ship home) and roll the fleet."""
    turn = Turn(seat=seat, round=state.turn.round)
    if seat == 0 and state.step > 0:
        turn.round += 1
    state.turn = turn
    for i, ship in enumerate(state.ships):
        mine = ship.owner == seat or (ship.id == RELIC and state.relic_owner == seat)
        if not mine:
            continue
        if ship.loc == Facility.TERRAFORMING_STATION:
            send_to_stock(state, i, events)
        elif ship.loc in FACILITY_NAMES or ship.loc == UNPLACED:
            ship.loc, ship.slot = UNPLACED, -1
    events.append(event("turn_started", seat, round=turn.round))
    rolled = []
    for ship in state.ships:
        mine = ship.owner == seat or (ship.id == RELIC and state.relic_owner == seat)
        if mine and ship.loc == UNPLACED:
            ship.value = dice.roll(state)
            rolled.append(ship.value)
    turn.rolled = rolled
    relic = state.ships[-1]
    events.append(event("rolled", seat, values=rolled,
                        relic=relic.value if state.relic_owner == seat
                        and relic.loc == UNPLACED else None))
    resource_cache.after_roll(state, seat, events)  # before any card can be used (§6.3)


def end_turn(state: GameState, seat: int, return_fuel: int, return_ore: int,
             events: list[Event]) -> None:
    me = state.seats[seat]
    if return_fuel or return_ore:
        me.fuel -= return_fuel
        me.ore -= return_ore
        events.append(event("returned_resources", seat, fuel=return_fuel, ore=return_ore))
    to_bay = [s for s in state.fleet(seat) if s.loc == UNPLACED]
    for ship in to_bay:
        ship.loc, ship.slot, ship.value = BAY, -1, 0
    events.append(event("turn_ended", seat, to_bay=len(to_bay)))
    start_turn(state, (seat + 1) % state.players, events)


def game_over_check(state: GameState, seat: int, events: list[Event]) -> None:
    """Ruling B13: the game ends the moment a player's last colony lands."""
    me = state.seats[seat]
    if me.colonies == 0 and me.hub_circle == 0 and state.turn.pending is None:
        state.phase = "over"
        state.result = result(state)
        events.append(event("game_over", seat, result=state.result))


def isolation_on_burroughs(state: GameState, events: list[Event]) -> None:
    """The Isolation Field on Burroughs Desert sends the Relic Ship home (§5)."""
    if state.fields.get(Field.ISOLATION) == Territory.BURROUGHS_DESERT:
        return_relic(state, events)
