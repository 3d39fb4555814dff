"""Colonist Hub: your track's three ports (ruling B14); each ship docked moves your colony one
circle, the first one putting a colony from your supply on circle 1. A colony on circle 7
launches for 1 fuel + 1 ore; advances past circle 7 are kept only when the launch is part of
the same docking (ruling B8). Asimov Crater adds one advance once per turn (ruling B2).

Factions: the Homesteader's Union owner launches from circle 6 as well (ruling F9), and its
facility gives one advance through `move_refusal` / `move`. With five players the Hub is
freeform (ruling F16): any 12 ports, at most 3 ships of yours, and a colony stops only on a
circle free on some track, sliding onto that track. A Chameleon Cloak replacement there
swaps ports and is judged as the docking it stands for, launch included
(`replacement_refusal` / `replaced`, ruling T2c)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock, Launch
from ..events import Event
from ..ids import (
    FACILITY_NAMES,
    HUB_CIRCLES,
    HUB_CIRCLES_LAUNCH_EARLY,
    HUB_LAUNCH_COST,
    HUB_PORTS_PER_TRACK,
    HUB_TRACKS,
    Facility,
    Faction,
    Territory,
)
from ..lookup import commander, ships_at
from ..payments import can_pay, pay
from ..state import GameState
from ..territories import has_bonus
from .spec import FacilitySpec

# A plain str: a ship's place compares with it about twice as fast as with the StrEnum member.
ID: Final[str] = str(Facility.COLONIST_HUB)
_HOMESTEADERS: Final = str(Faction.HOMESTEADERS_UNION)  # plain, as `ID`
_ASIMOV: Final = str(Territory.ASIMOV_CRATER)  # plain: `has_bonus` looks it up in str dicts


def freeform(state: GameState) -> bool:
    return state.players == 5  # ruling F16


def launch_circle(state: GameState, seat: int) -> int:
    """The first circle a colony of `seat` may launch from (ruling F9)."""
    if state.seats[seat].faction == _HOMESTEADERS:
        return HUB_CIRCLES_LAUNCH_EARLY
    return HUB_CIRCLES


def slot(state: GameState, seat: int) -> int:
    return 0 if state.players == 5 else state.seats[seat].hub_track  # `freeform`, inline


def free_ports(state: GameState, seat: int) -> int:
    if state.players == 5:  # `freeform`, inline: the menu asks this at every docking step
        docked = ships_at(state, ID)
        mine = sum(1 for s in docked if commander(state, s) == seat)  # ruling B20
        return min(HUB_TRACKS * HUB_PORTS_PER_TRACK - len(docked), HUB_PORTS_PER_TRACK - mine)
    track = state.seats[seat].hub_track
    used = 0
    for s in state.ships:  # a plain loop: asked at every docking here
        if s.slot == track and s.loc == ID:
            used += 1
    return HUB_PORTS_PER_TRACK - used


def free_track(state: GameState, seat: int, circle: int) -> int | None:
    """Ruling F16: the first track whose `circle` no other colony stands on, or None."""
    taken = {(s.hub_track, s.hub_circle) for i, s in enumerate(state.seats)
             if i != seat and s.hub_circle}
    return next((t for t in range(HUB_TRACKS) if (t, circle) not in taken), None)


def advances(state: GameState, seat: int, ships: int) -> int:
    turn = state.turn
    bonus = (not turn.asimov_used and turn.hub_ships + ships >= 2
             and has_bonus(state, seat, _ASIMOV))
    return ships + (1 if bonus else 0)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return refuse_ships(state, seat, len(action.values), action.launch, free_ports(state, seat))


def refuse_ships(state: GameState, seat: int, k: int, launch: bool, free: int) -> str | None:
    """`refuse` of a docking of `k` ships, launching or not, when `free` is the seat's
    `free_ports`: all it reads of the docking (so the menu asks it once per count and launch
    with five players, and answers the same once per menu on a track of one's own,
    `menu._track_answers`)."""
    if k > free:
        if freeform(state):
            return (f"Colonist Hub: with five players you may have at most 3 ships there among "
                    f"its 12 ports; {free} more of yours can dock, not {k} (ruling F16).")
        return f"Colonist Hub: your track has {free} free port(s), not {k}."
    return move_refusal(state, seat, advances(state, seat, k), launch)


def move_refusal(state: GameState, seat: int, steps: int, launch: bool,
                 on_track: bool = True) -> str | None:
    """Why `steps` advances of `seat`'s colony (launching at the end, or not) are illegal.
    `on_track`: the advances come from ships docked at the Hub (else Homesteader's Union,
    whose advance past circle 7 without a launch is simply lost, ruling B8)."""
    me = state.seats[seat]
    if me.hub_circle == 0 and me.colonies == 0:
        return "Colonist Hub: you have no colony left in your supply to start there."
    reach = me.hub_circle + steps  # from 0, the first advance puts it on circle 1
    if launch:
        first = launch_circle(state, seat)
        if reach < first:
            return (f"Colonist Hub: to launch in this docking your colony must reach circle "
                    f"{first}; it would reach circle {reach}.")
        if not can_pay(state, seat, *HUB_LAUNCH_COST):
            return "Colonist Hub: a launch costs 1 fuel and 1 ore; you cannot pay."
        return _freeform_launch_refusal(state, seat, steps) if freeform(state) else None
    if me.hub_circle == HUB_CIRCLES and on_track:
        return ("Colonist Hub: your colony waits on circle 7; no ship may dock on your track "
                "unless you launch it in the same docking (ruling B8).")
    stop = min(HUB_CIRCLES, reach)
    # `freeform`, inline: the menu asks this of every number of ships it offers
    if state.players == 5 and stop != me.hub_circle and free_track(state, seat, stop) is None:
        return (f"Colonist Hub: circle {stop} is taken on every track, so your colony cannot "
                "stop there; dock a different number of ships (ruling F16).")
    return None


def _freeform_launch_refusal(state: GameState, seat: int, steps: int) -> str | None:
    found = launch_point(state, seat, steps)
    return found if isinstance(found, str) else None


def launch_point(state: GameState, seat: int, steps: int) -> int | str:
    """The circle a launching docking of `steps` advances launches from: the first launch
    circle the colony reaches and may launch from (ruling L-F1), or why there is none. With
    five players each launch circle is tried in turn (F16); a Homesteader's owner launches
    from circle 6 or 7, the earlier one added to everyone's (ruling F9a)."""
    start = state.seats[seat].hub_circle
    first = max(launch_circle(state, seat), start)
    if not freeform(state):
        return first
    reasons = [_launch_from_refusal(state, seat, steps, at)
               for at in range(first, min(HUB_CIRCLES, start + steps) + 1)]
    for at, reason in enumerate(reasons, start=first):
        if reason is None:
            return at
    return next((r for r in reasons if r), "Colonist Hub: your colony cannot launch now.")


def _launch_from_refusal(state: GameState, seat: int, steps: int, at: int) -> str | None:
    """Why the colony may not launch from circle `at` in this docking (ruling F16)."""
    me = state.seats[seat]
    start = me.hub_circle
    if start != at and free_track(state, seat, at) is None and start != at - 1:
        return (f"Colonist Hub: circle {at} is taken on every track; only a colony on circle "
                f"{at - 1} may launch past it, with one ship (ruling F16).")
    if start != at and free_track(state, seat, at) is None and steps != 1:
        return (f"Colonist Hub: circle {at} is taken on every track; a colony on circle "
                f"{at - 1} launches by docking exactly one ship (ruling F16).")
    overflow = start + steps - at
    left = me.colonies - (1 if start == 0 else 0)
    if overflow > 0 and left > 0 and free_track(state, seat, overflow) is None:
        return (f"Colonist Hub: your next colony would stop on circle {overflow}, taken on "
                "every track; dock a different number of ships (ruling F16).")
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    if state.players == 5:  # `freeform`, inline; ruling F16: each ship takes any free port
        for i in ships:
            state.ships[i].slot = -1
        for i in ships:
            used = [s.slot for s in ships_at(state, ID)]
            state.ships[i].slot = next(t for t in range(HUB_TRACKS)
                                       if used.count(t) < HUB_PORTS_PER_TRACK)
    _advance(state, seat, len(ships), action.launch, events)


def replacement_refusal(state: GameState, seat: int, ships: int, launch: bool) -> str | None:
    """Ruling T2c: a Chameleon Cloak replacing `ships` opponents' ships here (5 players), as
    the docking of that many ships it stands for, launching or not (T2: "the usual facility
    benefit for docking"; B8, F16). The ports are swapped, so the free ports do not matter;
    at most 3 ships of yours after the swap (F16)."""
    mine = sum(1 for s in ships_at(state, ID) if commander(state, s) == seat)  # ruling B20
    if mine + ships > HUB_PORTS_PER_TRACK:
        return (f"Colonist Hub: you may have at most 3 ships there; you have {mine}, so you "
                f"may replace {HUB_PORTS_PER_TRACK - mine} more, not {ships} (rulings F16, "
                "T2c).")
    return move_refusal(state, seat, advances(state, seat, ships), launch)


def replaced(state: GameState, seat: int, ships: list[int], launch: bool,
             events: list[Event]) -> None:
    """Ruling T2c: your ships took the replaced ships' ports; your colony advances as if
    they had docked, launching within the replacement if `launch` (the advances past the
    launch circle start the next colony, B8), and the replaced player's colony stays where
    it is."""
    _advance(state, seat, len(ships), launch, events)


def _advance(state: GameState, seat: int, ships: int, launch: bool,
             events: list[Event]) -> None:
    steps = advances(state, seat, ships)
    if steps > ships:
        state.turn.asimov_used = True
    state.turn.hub_ships += ships
    move(state, seat, steps, launch, events)


def move(state: GameState, seat: int, steps: int, launch: bool, events: list[Event]) -> None:
    """Advance `seat`'s colony `steps` circles, launching at the end if `launch` (B8, F9).
    Its events are dict literals, keys in `events.event`'s order (tests/engine/
    test_inline_events.py holds them to it): most turns dock at the Hub."""
    me = state.seats[seat]
    start = me.hub_circle
    at = 0  # the circle launched from, when `launch`
    if launch:
        found = launch_point(state, seat, steps)
        assert isinstance(found, int), found  # the docking's check found the point
        at = found
    if start == 0:
        me.colonies -= 1
        me.hub_circle = 1
        steps -= 1
        events.append({"kind": "hub_started", "seat": seat})
    target = me.hub_circle + steps
    if launch:
        overflow = target - at
        me.hub_circle = at
        events.append({"kind": "hub_advanced", "seat": seat, "start": start, "to": at})
        launch_colony(state, seat, events)
        if overflow > 0 and me.colonies > 0:
            me.colonies -= 1
            me.hub_circle = overflow
            _slide(state, seat)
            events.append({"kind": "hub_started", "seat": seat, "to": overflow})
    else:
        # conditional expressions rather than calls of min and max: most turns come here
        stop = target if target < HUB_CIRCLES else HUB_CIRCLES
        me.hub_circle = stop
        if stop != start and state.players == 5:  # only five players slide (`_slide`)
            _slide(state, seat)
        events.append({"kind": "hub_advanced", "seat": seat, "start": start, "to": stop,
                       "lost": target - HUB_CIRCLES if target > HUB_CIRCLES else 0})


def _slide(state: GameState, seat: int) -> None:
    """Ruling F16: the colony slides onto a track where its circle is free."""
    if state.players == 5:  # `freeform`, inline: every colony that moves asks
        track = free_track(state, seat, state.seats[seat].hub_circle)
        assert track is not None
        state.seats[seat].hub_track = track


def launch_refusal(state: GameState, action: Launch) -> str | None:
    circle = state.seats[action.seat].hub_circle
    first = launch_circle(state, action.seat)
    if circle < first:
        if first < HUB_CIRCLES:
            return ("Colonist Hub: only a colony on circle 6 or 7 can launch (Homesteader's "
                    "Union, ruling F9).")
        return "Colonist Hub: only a colony on circle 7 can launch."
    if not can_pay(state, action.seat, *HUB_LAUNCH_COST):
        return "Colonist Hub: a launch costs 1 fuel and 1 ore; you cannot pay."
    return None


def launch_colony(state: GameState, seat: int, events: list[Event]) -> None:
    pay(state, seat, *HUB_LAUNCH_COST, events, why="launch")
    state.seats[seat].hub_circle = 0
    state.turn.pending = {"kind": "land", "seat": seat, "source": "launch", "why": ID}
    events.append({"kind": "launched", "seat": seat})


def launch(state: GameState, seat: int, events: list[Event]) -> None:
    launch_colony(state, seat, events)


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="track", group_size=HUB_PORTS_PER_TRACK, groups=(HUB_TRACKS,) * 3,
    refuse=refuse, dock=dock, launches=True, value_free=True, slot=slot,
)
