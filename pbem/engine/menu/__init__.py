"""The menu's accelerator: the legal dockings of a seat, fast, beside the rules.

`legal_docks` gives exactly the dockings `facilities.candidates` lists and
`facilities.dock_refusal` accepts, in the same order — the invariant tests compare the two
at every step of many games — but it judges them in groups instead of one by one:

- the candidates come from a table of shapes per hand of ships (`shapes`), so each is made of
  the seat's own unplaced ships in a shape its facility takes; of `dock_refusal`'s checks
  only two can still refuse it: a full facility and the facility's own `refuse`;
- the first is shared by every candidate of a facility, and so is the second by a group
  (ship count, Relic Ship, launch) at a value-free facility: such a group is taken or left
  whole (a row's dockings at once when none of its groups is refused, the common case);
  other facilities' `refuse` judges each candidate; the Scavenger Fleet's unequal Shipyard
  pairs (ruling F11), made outside the shape table, take the whole `dock_refusal`;
- the Lunar Mine's `refuse` reads one number of the state, `lunar_mine.lowest_value`, and
  the Raiders' Outpost's one sum, `raiders_outpost.sum_to_beat`: each is asked once per menu
  (not at all while nothing is docked there), and each docking compared with it;
- the Colonist Hub's `refuse` reads the number of ships, the launch and the free ports: on a
  track of one's own it is answered once per menu for every count (`_track_answers`, which
  mirrors `colonist_hub.refuse_ships`); with five players the Hub itself is asked;
- the ports are scanned once per menu (`taken_groups`), not once per question.

Only `rules.legal_actions` (the menu) uses this package; `check` never consults it.
"""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..facilities import (
    colonist_hub,
    dock_refusal,
    hand_tokens,
    lunar_mine,
    raiders_outpost,
    ship_hand,
    shipyard,
    unequal_pairs,
)
from ..facilities.ports import taken_groups
from ..ids import (
    HUB_CIRCLES,
    HUB_CIRCLES_LAUNCH_EARLY,
    HUB_LAUNCH_COST,
    HUB_PORTS_PER_TRACK,
    Territory,
)
from ..payments import can_pay
from ..state import GameState
from ..territories import has_bonus
from .shapes import Rows, facility_blocks, unchosen

# Three ports on a track plus Asimov Crater's one extra advance (ruling B2).
MAX_HUB_ADVANCES: Final = 4


def legal_docks(state: GameState, seat: int) -> list[Dock]:
    """The dockings `seat` may make now, in menu order (see above)."""
    values, relic = ship_hand(state, seat)
    if not values:
        return []
    chosen = tuple(sorted([s.faction for s in state.seats if s.faction]))
    skipped = unchosen(chosen)
    used = taken_groups(state)
    size = min(state.players, 4) - 2  # `FacilitySpec.group_count`'s index, once
    docks: list[Dock] = []
    for entry in facility_blocks(seat, values, relic, bool(chosen)):
        facility, spec, block = entry.facility, entry.spec, entry.rows
        if chosen and facility in skipped:  # with no board chosen the table has none
            continue
        if facility == _COLONIST_HUB:
            _hub_docks(state, seat, block, used.get(facility, []), docks)
            continue
        taken = used.get(facility)
        if taken is not None and spec.shape not in _MANY_TO_A_GROUP:
            groups = spec.groups[size]
            if len(taken) >= groups:
                for group in range(groups):
                    if group not in taken:
                        break
                else:
                    continue  # every group is taken: nothing docks here
        if facility == _LUNAR_MINE:
            # with no ship docked there every value may dock: no need to look for the highest
            lowest = 1 if taken is None else lunar_mine.lowest_value(state, seat)
            for _, every, _, _, _ in block:
                docks.extend([d for d in every if d.values[0] >= lowest])
            continue
        if facility == _RAIDERS_OUTPOST:
            # with no ship docked there every run may dock: no need to add up the docked ones
            beat = 0 if taken is None else raiders_outpost.sum_to_beat(state, seat)
            for _, every, _, _, _ in block:
                docks.extend(every if beat == 0 else [d for d in every if sum(d.values) > beat])
            continue
        refuse = spec.refuse
        if spec.value_free:  # one answer for a group: it is taken or left whole
            for _, every, _, _, firsts in block:
                if len(firsts) == 1:
                    if not refuse(state, seat, firsts[0]):
                        docks.extend(every)
                    continue
                refused = {_group(d) for d in firsts if refuse(state, seat, d)}
                if not refused:
                    docks.extend(every)
                elif len(refused) < len(firsts):
                    docks.extend([d for d in every if _group(d) not in refused])
        else:
            for _, every, _, _, _ in block:
                docks.extend([d for d in every if not refuse(state, seat, d)])
    if shipyard.scavenger_open(state):  # ruling F11: unequal pairs at the Shipyard, last
        pairs = unequal_pairs(seat, hand_tokens(values, relic))
        docks.extend([d for d in pairs if dock_refusal(state, d) is None])
    return docks


# The facilities' ids (plain strs, as the table's are) under names this module compares.
_COLONIST_HUB: Final[str] = colonist_hub.ID
_LUNAR_MINE: Final[str] = lunar_mine.ID
_RAIDERS_OUTPOST: Final[str] = raiders_outpost.ID
_ASIMOV_CRATER: Final = str(Territory.ASIMOV_CRATER)
# A track's ships are the seat's own, and the Raiders' Outpost bumps what is there: a
# docking there never waits for a free group.
_MANY_TO_A_GROUP: Final = ("track", "run")


def _group(dock: Dock) -> tuple[bool, bool]:
    """The group of a docking within its row: without the Relic Ship, and launching."""
    return dock.relic is None, dock.launch


def _hub_docks(state: GameState, seat: int, block: Rows, taken: list[int],
               docks: list[Dock]) -> None:
    """The Colonist Hub's rows: its `refuse` reads only the number of ships, the launch and
    the seat's free ports (`colonist_hub.refuse_ships`), so it is answered once per count and
    launch, with the free ports counted once (on a track of one's own, from `taken`: the
    track of each ship there, as `taken_groups` lists them). A launch needs the colony on
    circle 6 or 7 by the end of the docking: without that reach every launch is left out
    (each would be refused anyway)."""
    reach = state.seats[seat].hub_circle + MAX_HUB_ADVANCES >= HUB_CIRCLES_LAUNCH_EARLY
    if colonist_hub.freeform(state):  # ruling F16's circles and tracks: ask the Hub itself
        free = colonist_hub.free_ports(state, seat)
        answers = [(colonist_hub.refuse_ships(state, seat, ships, False, free) is None,
                    reach and colonist_hub.refuse_ships(state, seat, ships, True, free) is None)
                   for ships in range(1, free + 1)]
    else:
        free = HUB_PORTS_PER_TRACK - taken.count(state.seats[seat].hub_track)
        answers = _track_answers(state, seat, free, reach)
    for ships, every, stays, launches, _ in block:
        if ships > free:
            break  # `refuse_ships` refuses more ships than free ports, and the rows go up
        stay, launch = answers[ships - 1]
        if stay:
            docks.extend(every if launch else stays)
        elif launch:
            docks.extend(launches)


def _track_answers(state: GameState, seat: int, free: int, reach: bool
                   ) -> list[tuple[bool, bool]]:
    """`colonist_hub.refuse_ships` on a track of one's own (fewer than five players), for
    1 to `free` ships: (staying allowed, launching allowed) for each count. What it reads of
    the position is the same for every count, so it is read once: the colony, the Asimov
    Crater bonus, the launch circle and whether the launch can be paid."""
    me = state.seats[seat]
    if me.hub_circle == 0 and me.colonies == 0:
        return [(False, False)] * free  # no colony to start there
    stay = me.hub_circle != HUB_CIRCLES  # one waiting on circle 7 docks only to launch (B8)
    if not reach or not can_pay(state, seat, *HUB_LAUNCH_COST):
        return [(stay, False)] * free
    turn = state.turn
    asimov = not turn.asimov_used and has_bonus(state, seat, _ASIMOV_CRATER)
    first = colonist_hub.launch_circle(state, seat)
    answers = []
    for ships in range(1, free + 1):
        steps = ships + (1 if asimov and turn.hub_ships + ships >= 2 else 0)
        answers.append((stay, me.hub_circle + steps >= first))
    return answers


__all__ = ["MAX_HUB_ADVANCES", "legal_docks"]
