"""Paying and gaining resources. Costs go to the supply unless a payee is named (ruling F5)."""

from __future__ import annotations

from .events import Event
from .state import GameState


def can_pay(state: GameState, seat: int, fuel: int, ore: int) -> bool:
    s = state.seats[seat]
    return s.fuel >= fuel and s.ore >= ore


def pay(state: GameState, seat: int, fuel: int, ore: int, events: list[Event],
        payee: int | None = None, why: str = "") -> None:
    """Take fuel and ore from `seat`; they go to `payee`, or to the supply (ruling C2)."""
    if fuel == 0 and ore == 0:
        return
    s = state.seats[seat]
    s.fuel -= fuel
    s.ore -= ore
    if payee is not None:
        state.seats[payee].fuel += fuel
        state.seats[payee].ore += ore
    # a dict literal, keys in `event`'s order: every launch, fee and purchase makes one
    events.append({"kind": "paid", "seat": seat, "fuel": fuel, "ore": ore, "to": payee,
                   "why": why})


def gain(state: GameState, seat: int, fuel: int, ore: int, events: list[Event],
         why: str = "", bonus: tuple[str, int] | None = None) -> None:
    """``bonus``: the territory whose bonus is part of the gain, and how much of it (so the
    log can say why "took 4 fuel" is 4)."""
    s = state.seats[seat]
    s.fuel += fuel
    s.ore += ore
    # dict literals, keys in `event`'s order: most dockings gain something
    if bonus:
        events.append({"kind": "gained", "seat": seat, "fuel": fuel, "ore": ore, "why": why,
                       "bonus": bonus[0], "bonus_amount": bonus[1]})
    else:
        events.append({"kind": "gained", "seat": seat, "fuel": fuel, "ore": ore, "why": why})
