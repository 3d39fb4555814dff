"""Colonist Hub: your track's three ports (ruling B14); each ship docked moves your colony one
circle, the first one putting a colony from your supply on circle 1. A colony on circle 7
launches for 1 fuel + 1 ore; advances past circle 7 are kept only when the launch is part of
the same docking (ruling B8). Asimov Crater adds one advance once per turn (ruling B2)."""

from __future__ import annotations

from ..actions import Dock, Launch
from ..events import Event, event
from ..ids import HUB_CIRCLES, HUB_LAUNCH_COST, HUB_PORTS_PER_TRACK, Facility, Territory
from ..lookup import ships_at
from ..payments import can_pay, pay
from ..state import GameState
from ..territories import has_bonus

ID = Facility.COLONIST_HUB


def slot(state: GameState, seat: int) -> int:
    return state.seats[seat].hub_track


def free_ports(state: GameState, seat: int) -> int:
    track = state.seats[seat].hub_track
    used = sum(1 for s in ships_at(state, ID) if s.slot == track)
    return HUB_PORTS_PER_TRACK - used


def advances(state: GameState, seat: int, ships: int) -> int:
    turn = state.turn
    bonus = (not turn.asimov_used and turn.hub_ships + ships >= 2
             and has_bonus(state, seat, Territory.ASIMOV_CRATER))
    return ships + (1 if bonus else 0)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    k = len(action.values)
    free = free_ports(state, seat)
    if k > free:
        return f"Colonist Hub: your track has {free} free port(s), not {k}."
    me = state.seats[seat]
    if me.hub_circle == 0 and me.colonies == 0:
        return "Colonist Hub: you have no colony left in your supply to start there."
    reach = me.hub_circle + advances(state, seat, k)  # from 0, the first ship puts it on 1
    if action.launch:
        if reach < HUB_CIRCLES:
            return (f"Colonist Hub: to launch in this docking your colony must reach circle 7; "
                    f"it would reach circle {reach}.")
        if not can_pay(state, seat, *HUB_LAUNCH_COST):
            return "Colonist Hub: a launch costs 1 fuel and 1 ore; you cannot pay."
    elif me.hub_circle == HUB_CIRCLES:
        return ("Colonist Hub: your colony waits on circle 7; no ship may dock on your track "
                "unless you launch it in the same docking (ruling B8).")
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    me = state.seats[seat]
    k = len(ships)
    steps = advances(state, seat, k)
    if steps > k:
        state.turn.asimov_used = True
    state.turn.hub_ships += k
    start = me.hub_circle
    if start == 0:
        me.colonies -= 1
        me.hub_circle = 1
        steps -= 1
        events.append(event("hub_started", seat))
    target = me.hub_circle + steps
    if action.launch:
        overflow = target - HUB_CIRCLES
        me.hub_circle = HUB_CIRCLES
        events.append(event("hub_advanced", seat, start=start, to=HUB_CIRCLES))
        launch(state, seat, events)
        if overflow > 0 and me.colonies > 0:
            me.colonies -= 1
            me.hub_circle = overflow
            events.append(event("hub_started", seat, to=overflow))
    else:
        me.hub_circle = min(HUB_CIRCLES, target)
        events.append(event("hub_advanced", seat, start=start, to=me.hub_circle,
                            lost=max(0, target - HUB_CIRCLES)))


def launch_refusal(state: GameState, action: Launch) -> str | None:
    if state.seats[action.seat].hub_circle != HUB_CIRCLES:
        return "Colonist Hub: only a colony on circle 7 can launch."
    if not can_pay(state, action.seat, *HUB_LAUNCH_COST):
        return "Colonist Hub: a launch costs 1 fuel and 1 ore; you cannot pay."
    return None


def launch(state: GameState, seat: int, events: list[Event]) -> None:
    pay(state, seat, *HUB_LAUNCH_COST, events, why="launch")
    state.seats[seat].hub_circle = 0
    state.turn.pending = {"kind": "land", "seat": seat, "source": "launch", "why": ID}
    events.append(event("launched", seat))
