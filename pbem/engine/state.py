"""The game state: plain data that round-trips through JSON.

`GameState.to_json()` gives dicts, lists, strings and ints only; `GameState.from_json()` reads
it back. Rule code works on a private copy made by `clone()`, which is much cheaper than a
deep copy and is what lets bots and replay run fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .ids import FACILITY_NAMES, RELIC, TERRITORY_NAMES

STOCK: Final = "stock"
UNPLACED: Final = "unplaced"
BAY: Final = "maintenance_bay"
RELIC_HOME: Final = "burroughs_desert"  # the Relic Ship rests on its territory's printed square

Json = dict[str, Any]


def deep(value: Any) -> Any:
    """Copy JSON-shaped data (dicts, lists, scalars) so no list is shared between states."""
    if isinstance(value, dict):
        return {k: deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [deep(v) for v in value]
    return value


@dataclass(slots=True)
class Ship:
    """One die. `owner` is a seat; the Relic Ship's is None (see GameState.relic_owner)."""

    id: str
    owner: int | None
    loc: str  # STOCK, UNPLACED, RELIC_HOME or a facility id (the Maintenance Bay included)
    slot: int = -1  # group index at a facility; -1 elsewhere
    value: int = 0  # face showing; 0 while it has none (stock, bay, relic home)

    def copy(self) -> Ship:
        return Ship(self.id, self.owner, self.loc, self.slot, self.value)

    @property
    def is_relic(self) -> bool:
        return self.id == RELIC

    @property
    def docked(self) -> bool:
        return self.loc in FACILITY_NAMES and self.loc != BAY


@dataclass(slots=True)
class Seat:
    fuel: int = 0
    ore: int = 0
    colonies: int = 0  # colonies in the player's supply: neither landed nor on the Hub
    hub_circle: int = 0  # 0 = no colony on the Colonist Hub
    hub_track: int = 0
    cards: list[str] = field(default_factory=list)
    faction: str | None = None  # Factions: the board this seat chose (ruling F3)
    agendas: list[str] = field(default_factory=list)  # face-down Agendas (secret, A5)
    revealed: list[str] = field(default_factory=list)  # revealed Agendas (public)
    marks: Json = field(default_factory=dict)  # facts kept across turns (Agenda conditions)

    def copy(self) -> Seat:
        return Seat(self.fuel, self.ore, self.colonies, self.hub_circle, self.hub_track,
                    list(self.cards), self.faction, list(self.agendas), list(self.revealed),
                    deep(self.marks) if self.marks else {})


@dataclass(slots=True)
class Turn:
    """Facts about the turn in progress that the rules need (reset at every gather)."""

    seat: int = 0
    round: int = 1
    artifact_total: int = 0  # value docked at the Artifact since the last claim (ruling B1)
    may_cycle: int = 0  # cycles owed for ships that just arrived at the Artifact (B16)
    market_rates: list[int] = field(default_factory=list)  # values of pairs docked (B7)
    hub_ships: int = 0  # ships docked at the Colonist Hub this turn (Asimov, B2)
    asimov_used: bool = False
    mine_ships: int = 0  # ships docked at the Lunar Mine this turn (Van Vogt)
    pending: Json | None = None  # a decision that must be made before anything else
    cards_used: list[str] = field(default_factory=list)
    discards: int = 0
    rolled: list[int] = field(default_factory=list)  # the fleet roll, for mail and agendas
    borrowed: list[str] = field(default_factory=list)  # territory bonuses borrowed this turn
    gained: list[str] = field(default_factory=list)  # cards gained (and kept) this turn
    facts: Json = field(default_factory=dict)  # what happened this turn (Agenda conditions)

    @staticmethod
    def fresh(seat: int, round: int) -> Turn:
        """`Turn(seat=seat, round=round)`: built at every turn start, so each field is given
        in order, as its default would make it (no keywords to match, no factory to call)."""
        return Turn(seat, round, 0, 0, [], 0, False, 0, None, [], 0, [], [], [], {})

    def copy(self) -> Turn:
        return Turn(self.seat, self.round, self.artifact_total, self.may_cycle,
                    list(self.market_rates), self.hub_ships, self.asimov_used,
                    self.mine_ships, deep(self.pending) if self.pending else None,
                    list(self.cards_used), self.discards, list(self.rolled),
                    list(self.borrowed), list(self.gained),
                    deep(self.facts) if self.facts else {})


@dataclass(slots=True)
class GameState:
    players: int
    options: Json
    seats: list[Seat]
    ships: list[Ship]  # every colour's six ships in seat order, then the Relic Ship
    colonies: dict[str, list[int]]  # territory -> colonies per seat
    controllers: dict[str, int | None]
    fields: dict[str, str | None]  # field -> territory, or None while off the planet
    deck: list[str]  # the Alien Tech draw pile, top card last (secret)
    display: list[str]
    discard: list[str]
    relic_owner: int | None
    turn: Turn
    rng: list[int]  # [seed, counter] (secret; ruling C3)
    phase: str = "play"  # "play" or "over"
    result: Json | None = None
    step: int = 0  # actions applied since the start: the state's version
    scripted: list[int] = field(default_factory=list)  # die faces to roll next (secret)
    agenda_deck: list[str] = field(default_factory=list)  # top card last (secret, A5)
    agenda_discard: list[str] = field(default_factory=list)  # discarded face-down (secret)
    draft: list[str] = field(default_factory=list)  # Faction boards not yet chosen (F3)
    card_tokens: dict[str, int] = field(default_factory=dict)  # e.g. FTL Drive tokens (T4)

    def clone(self) -> GameState:
        return GameState(
            self.players, self.options, [s.copy() for s in self.seats],
            [s.copy() for s in self.ships],
            {t: list(c) for t, c in self.colonies.items()}, dict(self.controllers),
            dict(self.fields), list(self.deck), list(self.display), list(self.discard),
            self.relic_owner, self.turn.copy(), list(self.rng), self.phase,
            self.result, self.step, list(self.scripted), list(self.agenda_deck),
            list(self.agenda_discard), list(self.draft), dict(self.card_tokens),
        )

    def trial(self) -> GameState:
        """A what-if copy for a refusal: the seats, the ships and the turn's market rates are
        copied, everything else is shared, so only those may change on it."""
        t = self.turn
        turn = Turn(t.seat, t.round, t.artifact_total, t.may_cycle, list(t.market_rates),
                    t.hub_ships, t.asimov_used, t.mine_ships, t.pending, t.cards_used,
                    t.discards, t.rolled, t.borrowed, t.gained, t.facts)
        return GameState(
            self.players, self.options, [s.copy() for s in self.seats],
            [s.copy() for s in self.ships], self.colonies, self.controllers, self.fields,
            self.deck, self.display, self.discard, self.relic_owner, turn, self.rng,
            self.phase, self.result, self.step, self.scripted, self.agenda_deck,
            self.agenda_discard, self.draft, self.card_tokens,
        )

    # -- lookups used all over the rules -------------------------------------------------
    def relic(self) -> Ship:
        return self.ships[-1]

    # Whose ship is which (the Relic Ship, a borrowed ship): lookup.commander / fleet (B20).

    def at(self, facility: str) -> list[Ship]:
        return [s for s in self.ships if s.loc == facility]

    def field_on(self, territory: str, fld: str) -> bool:
        return self.fields.get(fld) == territory

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> Json:
        return {
            "players": self.players,
            "options": dict(self.options),
            "seats": [
                {"fuel": s.fuel, "ore": s.ore, "colonies": s.colonies,
                 "hub_circle": s.hub_circle, "hub_track": s.hub_track, "cards": list(s.cards),
                 "faction": s.faction, "agendas": list(s.agendas), "revealed": list(s.revealed),
                 "marks": deep(s.marks)}
                for s in self.seats
            ],
            "ships": [[s.id, s.owner, s.loc, s.slot, s.value] for s in self.ships],
            "colonies": {t: list(c) for t, c in self.colonies.items()},
            "controllers": dict(self.controllers),
            "fields": dict(self.fields),
            "deck": list(self.deck),
            "display": list(self.display),
            "discard": list(self.discard),
            "relic_owner": self.relic_owner,
            "turn": {
                "seat": self.turn.seat, "round": self.turn.round,
                "artifact_total": self.turn.artifact_total, "may_cycle": self.turn.may_cycle,
                "market_rates": list(self.turn.market_rates), "hub_ships": self.turn.hub_ships,
                "asimov_used": self.turn.asimov_used, "mine_ships": self.turn.mine_ships,
                "pending": deep(self.turn.pending) if self.turn.pending else None,
                "cards_used": list(self.turn.cards_used), "discards": self.turn.discards,
                "rolled": list(self.turn.rolled), "borrowed": list(self.turn.borrowed),
                "gained": list(self.turn.gained), "facts": deep(self.turn.facts),
            },
            "rng": list(self.rng),
            "phase": self.phase,
            "result": self.result,
            "step": self.step,
            "scripted": list(self.scripted),
            "agenda_deck": list(self.agenda_deck),
            "agenda_discard": list(self.agenda_discard),
            "draft": list(self.draft),
            "card_tokens": dict(self.card_tokens),
        }

    @classmethod
    def from_json(cls, data: Json) -> GameState:
        t = data["turn"]
        return cls(
            players=data["players"],
            options=dict(data["options"]),
            seats=[Seat(s["fuel"], s["ore"], s["colonies"], s["hub_circle"], s["hub_track"],
                        list(s["cards"]), s.get("faction"), list(s.get("agendas", [])),
                        list(s.get("revealed", [])), deep(s.get("marks", {})))
                   for s in data["seats"]],
            ships=[Ship(*row) for row in data["ships"]],
            colonies={k: list(v) for k, v in data["colonies"].items()},
            controllers=dict(data["controllers"]),
            fields=dict(data["fields"]),
            deck=list(data["deck"]),
            display=list(data["display"]),
            discard=list(data["discard"]),
            relic_owner=data["relic_owner"],
            turn=Turn(t["seat"], t["round"], t["artifact_total"], t["may_cycle"],
                      list(t["market_rates"]), t["hub_ships"], t["asimov_used"],
                      t["mine_ships"], deep(t["pending"]) if t["pending"] else None,
                      list(t["cards_used"]), t["discards"], list(t["rolled"]),
                      list(t["borrowed"]), list(t.get("gained", [])),
                      deep(t.get("facts", {}))),
            rng=list(data["rng"]),
            phase=data["phase"],
            result=data["result"],
            step=data["step"],
            scripted=list(data.get("scripted", [])),
            agenda_deck=list(data.get("agenda_deck", [])),
            agenda_discard=list(data.get("agenda_discard", [])),
            draft=list(data.get("draft", [])),
            card_tokens=dict(data.get("card_tokens", {})),
        )


def territories() -> list[str]:
    return list(TERRITORY_NAMES)
