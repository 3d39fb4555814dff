"""Setup, the start of a turn (gather and roll), the end of a turn and the end of the game."""

from __future__ import annotations

from typing import Any, Final

from . import agendas, dice
from .agendas.facts import active, kept_vp, on_turn_start
from .alien_tech import experimental_ftl_drive, resource_cache
from .deck import draw
from .errors import InvalidAction
from .events import Event, event
from .ids import (
    BASE_DECK,
    COLONIES,
    COLOURS,
    DISPLAY_SIZE,
    FACILITY_NAMES,
    FACTION_NAMES,
    FACTIONS_DECK,
    HUB_TRACKS,
    MAX_PLAYERS,
    MAX_PLAYERS_BASE,
    MIN_PLAYERS,
    OPTION_VALUES,
    RELIC,
    SHIPS_MAX,
    SHIPS_START,
    START_RESOURCES,
    TECH_DEALT,
    Facility,
    Faction,
    Field,
    Territory,
)
from .lookup import fleet_indices
from .payments import gain
from .scoring import result
from .state import BAY, RELIC_HOME, STOCK, UNPLACED, GameState, Seat, Ship, Turn
from .territories import return_relic, send_to_stock

# rulings F4, F6: the Factions expansion is on unless the host turns it off
DEFAULT_OPTIONS: Final[dict[str, Any]] = {"factions": True, "new_gaia_rescue": "high"}


def game_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """The options of a new game, defaults filled in; InvalidAction names what is wrong."""
    opts = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        allowed = OPTION_VALUES.get(key)
        if allowed is None:
            raise InvalidAction(f"Unknown game option '{key}': the options are "
                                f"{', '.join(OPTION_VALUES)}.")
        if isinstance(value, bool) != isinstance(allowed[0], bool) or value not in allowed:
            shown = " or ".join(str(v).lower() for v in allowed)
            raise InvalidAction(f"Game option '{key}' is {shown}, not {value!r}.")
        opts[key] = value
    top = MAX_PLAYERS if opts["factions"] else MAX_PLAYERS_BASE
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= top:
        game = "A game with the Factions expansion" if opts["factions"] else "The base game"
        raise InvalidAction(f"{game} takes {MIN_PLAYERS} to {top} players.")
    return opts


def new_game(players: int, seed: int, options: dict[str, Any] | None = None) -> GameState:
    """A new game. The base game starts at seat 0's first turn, its fleet already rolled;
    with Factions (ruling F3) it starts with the draft, the last seat choosing first.

    `seed` is the server-side secret from which every roll and shuffle follows (ruling C3).
    """
    opts = game_options(options, players)
    if not isinstance(seed, int) or seed < 0:
        raise InvalidAction("The seed is a non-negative integer.")
    seats = []
    for seat in range(players):
        fuel, ore = START_RESOURCES[seat]  # ruling F1
        seats.append(Seat(fuel=fuel, ore=ore, colonies=COLONIES[players],
                          hub_track=min(seat, HUB_TRACKS - 1)))
    ships = []
    for seat in range(players):
        for n in range(1, SHIPS_MAX + 1):
            loc = BAY if n <= SHIPS_START else STOCK
            ships.append(Ship(f"{COLOURS[seat]}{n}", seat, loc))
    ships.append(Ship(RELIC, None, RELIC_HOME))
    cards = {**BASE_DECK, **FACTIONS_DECK} if opts["factions"] else BASE_DECK  # ruling B4
    deck = [card for card, copies in cards.items() for _ in range(copies)]
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
    if opts["factions"]:
        agendas.setup(state)  # ruling F2
        _begin_draft(state)
    else:
        start_turn(state, 0, [])
    return state


def _begin_draft(state: GameState) -> None:
    """Ruling F3: n+1 boards drawn at random; the last seat chooses first (factions.draft)."""
    boards = list(FACTION_NAMES)
    dice.shuffle(state.rng, boards)
    state.draft = boards[:state.players + 1]
    state.phase = "draft"
    state.turn.pending = {"kind": "draft", "seat": state.players - 1}


_TERRAFORMING: Final[str] = str(Facility.TERRAFORMING_STATION)  # a plain str: asked of every ship
_COREX: Final = str(Faction.COREX_CONGLOMERATED)  # plain: a seat's faction compares faster


def start_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """Gather (Terraforming ships to the stock, the Relic Ship home) and roll the fleet. The
    round is the one in `state.turn`: `end_turn` counts a new one when the last seat ends."""
    first = len(events)
    ended = state.turn.facts  # the facts of the turn that ended, folded at its last action
    turn = Turn.fresh(seat, state.turn.round)
    state.turn = turn
    # The new turn borrows nothing yet (ruling T1), and gathering gives no ship to `seat`:
    # every ship of its fleet is its own, so the ships gathered are the ones it rolls.
    ships = state.ships
    gathered: list[Ship] = []
    for i in fleet_indices(state, seat):
        ship = ships[i]
        loc = ship.loc
        if loc in FACILITY_NAMES:  # docked, or in the Maintenance Bay: gathered
            if loc == _TERRAFORMING:
                send_to_stock(state, i, events)  # a New Gaia rescue sends it to the Bay (F6)
                if ship.loc not in FACILITY_NAMES:
                    continue
        elif loc != UNPLACED:
            continue  # in the stock, or the Relic Ship at home
        ship.loc, ship.slot = UNPLACED, -1
        gathered.append(ship)
    # the events of every turn, as `event` would build them, without packing keywords
    events.append({"kind": "turn_started", "seat": seat, "round": turn.round})
    if state.seats[seat].faction == _COREX:  # ruling F15: before the roll
        controlled = sum(1 for c in state.controllers.values() if c == seat)
        gain(state, seat, 1 + controlled, 0, events, why=Faction.COREX_CONGLOMERATED)
    rolled = dice.rolls(state, len(gathered))  # in ship order, as the fleet rolls
    for i, ship in enumerate(gathered):  # one die each (compiled, zip(strict=True) is a
        ship.value = rolled[i]  # generic call)
    turn.rolled = rolled
    relic = ships[-1]
    events.append({"kind": "rolled", "seat": seat, "values": rolled,
                   "relic": relic.value if state.relic_owner == seat
                   and relic.loc == UNPLACED else None,
                   "barrier": True})  # a roll reveals new random information
    if state.seats[seat].cards:  # holding no card, it holds no Resource Cache
        resource_cache.after_roll(state, seat, events)  # before any card can be used (§6.3)
    # ruling A3: the roll and start-of-turn facts; the VP as the last fold counted them when
    # no event since then scored (`events` holds every one of this action's). Without the
    # Factions option there are none to record: no slice made, no VP looked for.
    if active(state):
        on_turn_start(state, events[first:], kept_vp(ended, events))


def end_turn(state: GameState, seat: int, return_fuel: int, return_ore: int,
             events: list[Event]) -> None:
    me = state.seats[seat]
    if return_fuel or return_ore:
        me.fuel -= return_fuel
        me.ore -= return_ore
        events.append({"kind": "returned_resources", "seat": seat, "fuel": return_fuel,
                       "ore": return_ore})  # as `event` would build it
    ships = state.ships
    to_bay = 0
    for i in fleet_indices(state, seat):  # a borrowed ship left unplaced too (ruling T1)
        ship = ships[i]
        if ship.loc == UNPLACED:
            ship.loc, ship.slot, ship.value = BAY, -1, 0
            to_bay += 1
    events.append({"kind": "turn_ended", "seat": seat, "to_bay": to_bay})  # as `event` would
    if state.card_tokens:  # no card's tokens on the board (most turns): nothing to discard
        experimental_ftl_drive.end_of_turn(state, events)  # ruling T4: after its third token
    following = (seat + 1) % state.players
    if following == 0:  # the last seat has ended its turn: a new round begins
        state.turn.round += 1
    start_turn(state, following, events)


def game_over_check(state: GameState, seat: int, events: list[Event]) -> None:
    """Ruling B13: the game ends the moment a player's last colony lands."""
    me = state.seats[seat]
    if me.colonies == 0 and me.hub_circle == 0 and state.turn.pending is None:
        state.phase = "over"
        agendas.finish(state, events)  # ruling A4: before the result
        state.result = result(state)
        events.append(event("game_over", seat, result=state.result))


def isolation_on_burroughs(state: GameState, events: list[Event]) -> None:
    """The Isolation Field on Burroughs Desert sends the Relic Ship home (§5)."""
    if state.fields.get(Field.ISOLATION) == Territory.BURROUGHS_DESERT:
        return_relic(state, events)
