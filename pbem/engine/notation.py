"""Action text: short, typeable in an email reply, and round-tripping with `format_action`.

    dock 3 3 shipyard        dock 6r terraforming     dock 2 3 hub launch
    trade 3    cycle    claim plasma_cannon    launch    land lem_badlands
    steal red fuel    steal blue plasma_cannon    end raid    buy relic
    end    end discard 1 fuel 2 ore

Ships are written by die value; an `r` marks the Relic Ship. Facilities, territories and
cards take their canonical id (ids.toml) or a short alias (see docs/notation.md). Opponents
are named by colour. `format_action` always writes canonical ids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .actions import (
    Action,
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    EndRaid,
    EndTurn,
    Land,
    Launch,
    Steal,
    StealCard,
    Trade,
)
from .errors import InvalidAction
from .ids import CARD_NAMES, COLOUR_LETTERS, COLOURS, FACILITY_NAMES, TERRITORY_NAMES

FACILITY_ALIASES: Final[dict[str, str]] = {
    "solar": "solar_converter", "sc": "solar_converter", "converter": "solar_converter",
    "mine": "lunar_mine", "lm": "lunar_mine", "lunar": "lunar_mine",
    "market": "orbital_market", "om": "orbital_market",
    "shipyard": "shipyard", "sy": "shipyard", "yard": "shipyard",
    "bay": "maintenance_bay", "mb": "maintenance_bay",
    "artifact": "alien_artifact", "aa": "alien_artifact",
    "hub": "colonist_hub", "ch": "colonist_hub",
    "constructor": "colony_constructor", "cc": "colony_constructor",
    "terraforming": "terraforming_station", "ts": "terraforming_station",
    "terraform": "terraforming_station",
    "raiders": "raiders_outpost", "ro": "raiders_outpost", "outpost": "raiders_outpost",
}  # the catalog step adds the Faction boards' aliases (in their FactionSpecs)
TERRITORY_ALIASES: Final[dict[str, str]] = {
    "asimov": "asimov_crater", "bradbury": "bradbury_plateau",
    "burroughs": "burroughs_desert", "heinlein": "heinlein_plains",
    "herbert": "herbert_valley", "lem": "lem_badlands", "pohl": "pohl_foothills",
    "vanvogt": "van_vogt_mountains", "van_vogt": "van_vogt_mountains",
    "vogt": "van_vogt_mountains",
}
# The tables below are filled by the one catalog step (`pbem.engine.catalog.install`, run
# when pbem.engine is imported) from the declarations above this module: the cards' aliases
# (their CardSpecs), and the verbs and text forms of the actions the cards, the Faction
# boards and the Agendas declare ('use ...', 'choose ...', 'reveal ...'). Those modules read
# words with this one, so it cannot import them.
CARD_ALIASES: Final[dict[str, str]] = {}
# (the words after the verb, seat, players) -> the action, or InvalidAction with the reason
VerbParser = Callable[[list[str], int, "int | None"], Action]
Formatter = Callable[[Action], str]  # the action's canonical text
VERBS: Final[dict[str, VerbParser]] = {}
FORMATS: Final[dict[type[Action], Formatter]] = {}


def _lookup(word: str, ids: dict[str, str], aliases: dict[str, str], what: str) -> str:
    key = word.lower().replace("-", "_").replace("'", "")
    if key in ids:
        return key
    if key in aliases:
        return aliases[key]
    raise InvalidAction(f"Unknown {what} '{word}'.")


def facility_id(word: str) -> str:
    return _lookup(word, FACILITY_NAMES, FACILITY_ALIASES, "facility")


def territory_id(word: str) -> str:
    return _lookup(word, TERRITORY_NAMES, TERRITORY_ALIASES, "territory")


def card_id(word: str) -> str:
    return _lookup(word, CARD_NAMES, CARD_ALIASES, "card")


def seat_of(word: str, players: int | None = None) -> int:
    key = word.lower()
    letters = [c.lower() for c in COLOUR_LETTERS]
    if key in COLOURS:
        seat = COLOURS.index(key)
    elif key in letters:  # ruling B21: every colour also has a letter
        seat = letters.index(key)
    elif key.isdigit():
        seat = int(key)
    else:
        raise InvalidAction(f"Unknown player '{word}': name them by colour.")
    if players is not None and seat >= players:
        raise InvalidAction(f"There is no {word} player in this game.")
    return seat


def _ship(word: str) -> tuple[int, bool]:
    relic = word.lower().endswith("r")
    digits = word[:-1] if relic else word
    if not digits.isdigit() or not 1 <= int(digits) <= 6:
        raise InvalidAction(f"'{word}' is not a ship value (1 to 6, 'r' for the Relic Ship).")
    return int(digits), relic


def parse_action(text: str, seat: int, players: int | None = None) -> Action:
    """Read one action of `seat` from its text form; raises InvalidAction with the reason."""
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidAction("Write an action, for example 'dock 3 3 shipyard'.")
    verb, rest = words[0].lower(), words[1:]
    if verb in VERBS:
        return VERBS[verb](rest, seat, players)
    if verb == "dock":
        return _parse_dock(rest, seat)
    if verb == "trade" and len(rest) == 1 and rest[0].isdigit():
        return Trade(seat, int(rest[0]))
    if verb == "cycle" and not rest:
        return Cycle(seat)
    if verb == "claim" and len(rest) == 1:
        return Claim(seat, card_id(rest[0]))
    if verb == "launch" and not rest:
        return Launch(seat)
    if verb == "land" and len(rest) == 1:
        return Land(seat, territory_id(rest[0]))
    if verb == "steal" and len(rest) == 2:
        victim = seat_of(rest[0], players)
        if rest[1].lower() in ("fuel", "ore"):
            return Steal(seat, victim, rest[1].lower())
        return StealCard(seat, victim, card_id(rest[1]))
    if verb == "end" and [w.lower() for w in rest] == ["raid"] or verb == "endraid" and not rest:
        return EndRaid(seat)
    if verb == "buy" and [w.lower() for w in rest] == ["relic"]:
        return BuyRelic(seat)
    if verb == "end":
        return _parse_end(rest, seat)
    raise InvalidAction(f"Cannot read '{text}'. See the notation help for examples.")


def _parse_dock(rest: list[str], seat: int) -> Dock:
    launch = bool(rest) and rest[-1].lower() == "launch"
    if launch:
        rest = rest[:-1]
    if len(rest) < 2:
        raise InvalidAction("Write ships then a facility, for example 'dock 3 3 shipyard'.")
    facility = facility_id(rest[-1])
    ships = [_ship(w) for w in rest[:-1]]
    relics = [v for v, r in ships if r]
    if len(relics) > 1:
        raise InvalidAction("There is only one Relic Ship.")
    values = tuple(sorted(v for v, _ in ships))
    return Dock(seat, facility, values, relics[0] if relics else None, launch)


def _parse_end(rest: list[str], seat: int) -> EndTurn:
    if not rest:
        return EndTurn(seat)
    if rest[0].lower() != "discard" or len(rest) not in (3, 5):
        raise InvalidAction("Write 'end' or 'end discard 1 fuel 2 ore'.")
    amounts = {"fuel": 0, "ore": 0}
    pairs = rest[1:]
    for i in range(0, len(pairs), 2):
        if not pairs[i].isdigit() or pairs[i + 1].lower() not in amounts:
            raise InvalidAction("Write 'end discard 1 fuel 2 ore'.")
        amounts[pairs[i + 1].lower()] = int(pairs[i])
    return EndTurn(seat, amounts["fuel"], amounts["ore"])


def format_action(action: Action) -> str:
    """The canonical text of an action (without its seat)."""
    if isinstance(action, Dock):
        ships = [str(v) for v in action.values]
        if action.relic is not None:
            ships[ships.index(str(action.relic))] += "r"
        text = f"dock {' '.join(ships)} {action.facility}"
        return text + " launch" if action.launch else text
    if isinstance(action, Trade):
        return f"trade {action.rate}"
    if isinstance(action, Cycle):
        return "cycle"
    if isinstance(action, Claim):
        return f"claim {action.card}"
    if isinstance(action, Launch):
        return "launch"
    if isinstance(action, Land):
        return f"land {action.territory}"
    if isinstance(action, Steal):
        return f"steal {COLOURS[action.victim]} {action.resource}"
    if isinstance(action, StealCard):
        return f"steal {COLOURS[action.victim]} {action.card}"
    if isinstance(action, EndRaid):
        return "end raid"
    if isinstance(action, BuyRelic):
        return "buy relic"
    if isinstance(action, EndTurn):
        if action.return_fuel or action.return_ore:
            return f"end discard {action.return_fuel} fuel {action.return_ore} ore"
        return "end"
    formatter = FORMATS.get(type(action))
    if formatter is not None:
        return formatter(action)
    raise InvalidAction(f"No text form for '{action.kind}'.")
