"""Build a GameState from a scenario's position table (the format: docs/scenarios.md).

Everything not written gets the default a player would assume: ships of a colour not named
are in the Maintenance Bay up to the 3 of the setup and in the stock beyond; colonies in the
supply are the player-count's colonies less those landed or on the Hub; controllers follow
from the colonies (never written); the Relic Ship rests on Burroughs Desert.
"""

from __future__ import annotations

from typing import Any

from .. import dice
from ..board import LAYOUT, group_count, group_size
from ..errors import InvalidAction
from ..flow import DEFAULT_OPTIONS, game_options
from ..ids import (
    BASE_DECK,
    CARD_NAMES,
    COLONIES,
    COLOURS,
    FACILITY_NAMES,
    FACTIONS_DECK,
    HUB_CIRCLES,
    HUB_PORTS_PER_TRACK,
    MAX_PLAYERS,
    MAX_PLAYERS_BASE,
    MIN_PLAYERS,
    RELIC,
    SHIPS_MAX,
    SHIPS_START,
    Facility,
    Field,
    Territory,
)
from ..lookup import unplaced
from ..state import BAY, RELIC_HOME, STOCK, UNPLACED, GameState, Seat, Ship, Turn
from ..territories import controller_of
from .agendas import agenda_deck, agenda_id, agenda_position
from .common import ScenarioError, check_keys, die, named_id, seat_index
from .factions import faction_position, hub_ports_freeform, ship_owner
from .setup import new_game_position

POSITION_KEYS = {"description", "title", "players", "turn", "round", "seed", "seats", "colonies",
                 "fields", "display", "deck", "discard", "relic", "turn_facts", "next_dice",
                 "options", "steps", "card_tokens", "agenda_deck",
                 "agenda_discard", "draft", "setup"}
SEAT_KEYS = {"fuel", "ore", "colonies", "hub", "cards", "unplaced", "docked", "bay", "stock",
             "agendas", "revealed", "marks", "faction", "hub_track"}
TURN_FACTS = {"artifact_total", "may_cycle", "market_rates", "hub_ships", "asimov_used",
              "mine_ships", "rolled", "facts"}
FIELD_ALIASES = {"isolation": Field.ISOLATION, "positron": Field.POSITRON,
                 "repulsor": Field.REPULSOR}


def build_state(table: dict[str, Any]) -> GameState:
    """The GameState a scenario's position describes; raises ScenarioError when it cannot.
    `setup = "new"` starts from the engine's own new-game setup instead (setup.py)."""
    setup = table.get("setup", "position")
    if setup == "new":
        return new_game_position(table)
    if setup != "position":
        raise ScenarioError(f"setup: \"new\" (the engine's new game) or \"position\", not "
                            f"{setup!r}")
    check_keys(table, POSITION_KEYS, "position")
    players = int(table.get("players", 2))
    seats_table: dict[str, Any] = table.get("seats", {})
    options = _options(table)
    top = MAX_PLAYERS if options["factions"] else MAX_PLAYERS_BASE
    if not MIN_PLAYERS <= players <= top:
        raise ScenarioError(f"players: {MIN_PLAYERS} to {top} (5 only with the Factions "
                            "option)")
    by_seat = {seat_index(k, players): v for k, v in seats_table.items()}
    state = GameState(
        players=players, options=options, seats=[], ships=[],
        colonies=_colonies(table.get("colonies", {}), players), controllers={},
        fields=_fields(table.get("fields", {})), deck=[], display=[], discard=[],
        relic_owner=None, turn=_turn(table, players), rng=[int(table.get("seed", 0)), 0],
    )
    state.controllers = {t: controller_of(c) for t, c in state.colonies.items()}
    relic: list[tuple[int, str, int, int]] = []
    for seat in range(players):
        entry = by_seat.get(seat, {})
        check_keys(entry, SEAT_KEYS, f"seats.{COLOURS[seat]}")
        state.seats.append(_seat(state, seat, entry))
        state.ships.extend(_ships(state, seat, entry, relic))
    state.ships.append(Ship(RELIC, None, RELIC_HOME))
    _place_relic(state, relic, table.get("relic"))
    _check_ports(state)
    _cards(state, table)
    state.scripted = [die(v, "next_dice") for v in table.get("next_dice", [])]
    _turn_facts(state, table.get("turn_facts", {}))
    agenda_position(state, table, by_seat)  # Agenda discards, marks and turn facts (A3)
    faction_position(state, table, by_seat)  # boards, the draft (F3)
    return state


def _options(table: dict[str, Any]) -> dict[str, Any]:
    """The base game unless the position names Faction boards, a draft or the option."""
    seats = table.get("seats", {}).values()
    factions = "draft" in table or any("faction" in entry for entry in seats)
    options = {**DEFAULT_OPTIONS, "factions": factions, **table.get("options", {})}
    try:
        return game_options(options, 2)
    except InvalidAction as exc:
        raise ScenarioError(f"options: {exc.message}") from None


def _turn(table: dict[str, Any], players: int) -> Turn:
    seat = seat_index(table.get("turn", 0), players)
    return Turn(seat=seat, round=int(table.get("round", 1)))


def _colonies(table: dict[str, Any], players: int) -> dict[str, list[int]]:
    colonies = {t.value: [0] * players for t in Territory}
    for name, counts in table.items():
        territory = named_id(name, "territory")
        if not isinstance(counts, dict):
            raise ScenarioError(f"colonies.{name}: write {{ red = 2, green = 1 }}")
        for who, n in counts.items():
            colonies[territory][seat_index(who, players)] = int(n)
    return colonies


def _fields(table: dict[str, Any]) -> dict[str, str | None]:
    fields: dict[str, str | None] = {f.value: None for f in Field}
    for name, where in table.items():
        fld = FIELD_ALIASES.get(name, name)
        if fld not in fields:
            raise ScenarioError(f"fields: unknown field '{name}'")
        off = str(where).lower() in ("none", "off")
        fields[fld] = None if off else named_id(where, "territory")
    return fields


def _seat(state: GameState, seat: int, entry: dict[str, Any]) -> Seat:
    hub = int(entry.get("hub", 0))
    if not 0 <= hub <= HUB_CIRCLES:
        raise ScenarioError(f"seats.{COLOURS[seat]}.hub: a circle from 1 to 7 (0 = none)")
    landed = sum(c[seat] for c in state.colonies.values())
    supply = COLONIES[state.players] - landed - (1 if hub else 0)
    supply = int(entry.get("colonies", supply))
    if supply < 0:
        raise ScenarioError(f"seats.{COLOURS[seat]}: more colonies on the board than the "
                            f"{COLONIES[state.players]} a player has")
    cards = [named_id(c, "card") for c in entry.get("cards", [])]
    made = Seat(int(entry.get("fuel", 0)), int(entry.get("ore", 0)), supply, hub, seat, cards)
    made.agendas = [agenda_id(a, f"seats.{COLOURS[seat]}.agendas")
                    for a in entry.get("agendas", [])]
    made.revealed = [agenda_id(a, f"seats.{COLOURS[seat]}.revealed")
                     for a in entry.get("revealed", [])]
    return made


def _ships(state: GameState, seat: int, entry: dict[str, Any],
           relic: list[tuple[int, str, int, int]]) -> list[Ship]:
    """The six ships of a colour. A value written '5r' is the Relic Ship: it goes to `relic`
    as (owner, place, group, value). A docked ship's slot is its group's number among this
    colour's groups at that facility until _check_ports numbers the groups of all colours."""
    name = COLOURS[seat]
    placed: list[tuple[str, int, int]] = []  # (loc, group, value)
    for v in entry.get("unplaced", []):
        _add(placed, relic, seat, UNPLACED, -1, v, f"seats.{name}.unplaced")
    for fac, groups in entry.get("docked", {}).items():
        facility = named_id(fac, "facility")
        where = f"seats.{name}.docked.{fac}"
        for group, ships in enumerate(_groups(facility, groups, where)):
            for v in ships:
                _add(placed, relic, seat, facility, group, v, where)
    named = len(placed)
    bay = int(entry.get("bay", -1))
    stock = int(entry.get("stock", -1))
    if bay < 0:
        bay = max(0, SHIPS_START - named) if stock < 0 else SHIPS_MAX - named - stock
    if stock < 0:
        stock = SHIPS_MAX - named - bay
    if named + bay + stock != SHIPS_MAX or bay < 0 or stock < 0:
        raise ScenarioError(f"seats.{name}: {named} ships named, bay {bay}, stock {stock}; "
                            f"a colour has {SHIPS_MAX} ships in all")
    placed += [(BAY, -1, 0)] * bay + [(STOCK, -1, 0)] * stock
    return [Ship(f"{name}{n}", seat, loc, group, value)
            for n, (loc, group, value) in enumerate(placed, start=1)]


def _add(placed: list[tuple[str, int, int]], relic: list[tuple[int, str, int, int]],
         seat: int, loc: str, group: int, value: Any, where: str) -> None:
    if isinstance(value, str) and value.lower().endswith("r") and value[:-1].isdigit():
        relic.append((seat, loc, group, die(int(value[:-1]), where)))
    else:
        placed.append((loc, group, die(value, where)))


def _groups(facility: str, groups: Any, where: str) -> list[list[Any]]:
    """Ships at a facility by port group: [[3, 3], [5, 5]] or flat [3, 3, 5, 5]."""
    if facility not in LAYOUT:
        raise ScenarioError(f"{where}: ships cannot be docked at {FACILITY_NAMES[facility]}")
    if not isinstance(groups, list):
        raise ScenarioError(f"{where}: write a list of values")
    size = _size(facility)
    if all(isinstance(g, list) for g in groups):
        chunks = [list(g) for g in groups]
    else:
        chunks = [list(groups[i:i + size]) for i in range(0, len(groups), size)]
    if any(len(c) > size for c in chunks):
        raise ScenarioError(f"{where}: a port group of {FACILITY_NAMES[facility]} holds "
                            f"{size} ship(s)")
    return chunks


def _size(facility: str) -> int:
    return 1 if LAYOUT[facility][0] in ("single", "six") else group_size(facility)


def _place_relic(state: GameState, found: list[tuple[int, str, int, int]],
                 table: Any) -> None:
    """The Relic Ship: from a '5r' among a seat's ships, or a [relic] table."""
    if table is not None:
        check_keys(table, {"owner", "at", "value"}, "relic")
        owner = seat_index(table["owner"], state.players)
        at = str(table.get("at", "bay"))
        at = {"bay": BAY, BAY: BAY, UNPLACED: UNPLACED}.get(at) or named_id(at, "facility")
        value = 0 if at == BAY else die(table.get("value"), "relic.value")
        found.append((owner, at, -1, value))
    if len(found) > 1:
        raise ScenarioError("relic: there is only one Relic Ship")
    if not found:
        return
    owner, loc, group, value = found[0]
    if state.controllers[Territory.BURROUGHS_DESERT] != owner:
        raise ScenarioError("relic: its owner must control Burroughs Desert")
    ship = state.ships[-1]
    ship.loc, ship.slot, ship.value = loc, group, value
    state.relic_owner = owner


def _check_ports(state: GameState) -> None:
    """Give docked ships their port groups; refuse more ships than a facility has ports."""
    for facility in LAYOUT:
        docked = [s for s in state.ships if s.loc == facility]
        if facility == Facility.COLONIST_HUB:
            for ship in docked:
                ship.slot = state.seats[ship_owner(state, ship)].hub_track
            if state.players == 5:  # ruling F16: any port; at most 3 ships of each player
                hub_ports_freeform(state, docked)
                continue
            for seat in range(state.players):
                if sum(1 for s in docked if s.slot == seat) > HUB_PORTS_PER_TRACK:
                    raise ScenarioError(f"{COLOURS[seat]}: 3 ports on a Colonist Hub track")
            continue
        _assign_slots(state, facility, docked)


def _assign_slots(state: GameState, facility: str, docked: list[Ship]) -> None:
    """Number the port groups in the order the colours were written."""
    numbers: dict[tuple[int, int], int] = {}
    for ship in docked:
        key = (ship_owner(state, ship), ship.slot)
        ship.slot = numbers.setdefault(key, len(numbers))
    if len(numbers) > group_count(state, facility):
        raise ScenarioError(f"{FACILITY_NAMES[facility]}: more ships than its "
                            f"{group_count(state, facility)} port group(s) hold with "
                            f"{state.players} players")


def _cards(state: GameState, table: dict[str, Any]) -> None:
    """Display, discard pile and draw pile (written top first); the rest goes below."""
    display = [named_id(c, "card") for c in table.get("display", [])]
    top = [named_id(c, "card") for c in table.get("deck", [])]
    state.discard = [named_id(c, "card") for c in table.get("discard", [])]
    left = dict(BASE_DECK)
    if state.options.get("factions"):
        left.update(FACTIONS_DECK)  # ruling B4
    for card in display + top + state.discard + [c for s in state.seats for c in s.cards]:
        left[card] = left.get(card, 0) - 1
        if left[card] < 0:
            raise ScenarioError(f"cards: more {CARD_NAMES[card]} cards written than the deck "
                                f"has ({BASE_DECK.get(card, 0)}; set options.factions for "
                                "the Factions cards)")
    rest = [c for c in CARD_NAMES if c in left for _ in range(max(0, left[c]))]
    dice.shuffle(state.rng, rest)
    if "display" not in table:
        display, rest = rest[:3], rest[3:]
    state.display = display
    state.deck = list(reversed(top + rest))  # the engine keeps the top card last
    for card, n in table.get("card_tokens", {}).items():  # e.g. the FTL Drive's (ruling T4)
        state.card_tokens[named_id(card, "card")] = int(n)
    if state.options.get("factions"):
        agenda_deck(state, table.get("agenda_deck", []))


def _turn_facts(state: GameState, facts: dict[str, Any]) -> None:
    check_keys(facts, TURN_FACTS, "turn_facts")
    turn = state.turn
    turn.rolled = sorted(s.value for s in unplaced(state, turn.seat))
    for key, value in facts.items():
        setattr(turn, key, list(value) if isinstance(value, list) else value)
