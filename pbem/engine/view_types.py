"""The shape of `view(state, seat)`: what one seat may see, key by key.

A view is plain JSON-ready data (pages, mail and the API read it); these TypedDicts say which
keys it has and what each holds, so every reader is checked against the same picture.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .state import Json


class SeatView(TypedDict):
    seat: int
    colour: str
    letter: str
    fuel: int
    ore: int
    colonies: int  # in the supply: neither landed nor on the Hub
    hub_circle: int
    hub_track: int
    cards: list[str]  # Alien Tech cards are face-up: public
    faction: str | None
    revealed: list[str]  # Agendas shown face-up
    agendas_hidden: int  # face-down Agendas: only their owner sees which
    vp: dict[str, int]  # scoring.vp_breakdown: colonies, territories, cards, positron, ...
    ships_in_stock: int


class ShipView(TypedDict):
    id: str
    owner: int | None  # the Relic Ship's controller, or None
    relic: bool
    loc: str
    slot: int  # group index at a facility; -1 elsewhere
    value: int | None  # None while it shows no value (in stock, not yet rolled)


class TurnView(TypedDict):
    rolled: list[int]
    artifact_total: int
    may_cycle: bool
    market_rates: list[int]
    hub_ships: int
    cards_used: list[str]
    discards: int
    borrowed: list[str]  # territory bonuses borrowed this turn


class YouView(TypedDict):
    """What only the viewing seat sees (ruling C4)."""

    seat: int
    agendas: list[str]
    draft: NotRequired[list[str]]  # the Faction boards to choose from, while choosing


class GameView(TypedDict):
    players: int
    options: Json
    phase: str
    step: int
    round: int
    active: int
    awaiting: int | None
    pending: Json | None
    seats: list[SeatView]
    ships: list[ShipView]
    colonies: dict[str, list[int]]
    controllers: dict[str, int | None]
    fields: dict[str, str | None]
    display: list[str]
    discard: list[str]
    deck_size: int
    relic_owner: int | None
    turn: TurnView
    result: Json | None
    viewer: int | None
    agenda_deck_size: int
    card_tokens: dict[str, int]
    draft_size: int
    you: NotRequired[YouView]  # a seat's own view only
    legal: NotRequired[list[Json]]  # the seat's menu, as action JSON
    picks: NotRequired[list[Json]]  # menu.picks: families of the menu as "choose any of these"
