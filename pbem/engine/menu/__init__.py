"""The menu's accelerator: the legal dockings of a seat, fast, beside the rules.

`legal_docks` gives exactly the dockings `facilities.candidates` lists and
`facilities.dock_refusal` accepts, in the same order — the invariant tests compare the two
at every step of many games — but it judges them in groups instead of one by one:

- the candidates come from a table of shapes per hand of ships (`shapes`), so each is made of
  the seat's own unplaced ships in a shape its facility takes; of `dock_refusal`'s checks
  only two can still refuse it: a full facility and the facility's own `refuse`;
- the first is shared by every candidate of a group (facility, ship count, launch, Relic
  Ship), and so is the second at a value-free facility: such a run is taken or left whole;
  other facilities' `refuse` judges each candidate; the Scavenger Fleet's unequal Shipyard
  pairs (ruling F11), made outside the shape table, take the whole `dock_refusal`;
- the Lunar Mine's `refuse` reads one number of the state, `lunar_mine.lowest_value`: it
  is asked once per menu, and each single compared with it;
- the ports are scanned once per menu, not once per question.

Only `rules.legal_actions` (the menu) uses this package; `check` never consults it.
"""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..facilities import (
    FACILITIES,
    colonist_hub,
    dock_refusal,
    lunar_mine,
    ship_tokens,
    shipyard,
    unequal_pairs,
)
from ..facilities.ports import taken_groups
from ..ids import HUB_CIRCLES_LAUNCH_EARLY
from ..state import GameState
from .shapes import Group, Runs, facility_blocks, unchosen

# Three ports on a track plus Asimov Crater's one extra advance (ruling B2).
MAX_HUB_ADVANCES: Final = 4


def legal_docks(state: GameState, seat: int) -> list[Dock]:
    """The dockings `seat` may make now, in menu order (see above)."""
    tokens = ship_tokens(state, seat)
    if not tokens:
        return []
    skipped = unchosen(tuple(sorted([s.faction for s in state.seats if s.faction])))
    used = taken_groups(state)
    docks: list[Dock] = []
    for facility, block in facility_blocks(seat, tokens):
        if facility in skipped:
            continue
        if facility == _COLONIST_HUB:
            _hub_docks(state, seat, block, docks)
            continue
        spec = FACILITIES[facility]
        taken = used.get(facility)
        if taken is not None and spec.shape not in _MANY_TO_A_GROUP:
            groups = spec.group_count(state.players)
            if len(taken) >= groups and all(g in taken for g in range(groups)):
                continue  # every group is taken: nothing docks here
        if facility == _LUNAR_MINE:
            lowest = lunar_mine.lowest_value(state, seat)
            for _, run in block:
                docks.extend([d for d in run if d.values[0] >= lowest])
            continue
        refuse = spec.refuse
        if spec.value_free:  # one answer for a group: its runs are taken or left whole
            answers: dict[Group, bool] = {}
            for group, run in block:
                allowed = answers.get(group)
                if allowed is None:
                    allowed = answers[group] = not refuse(state, seat, run[0])
                if allowed:
                    docks.extend(run)
        else:
            for _, run in block:
                docks.extend([d for d in run if not refuse(state, seat, d)])
    if shipyard.scavenger_open(state):  # ruling F11: unequal pairs at the Shipyard, last
        docks.extend([d for d in unequal_pairs(seat, tokens) if dock_refusal(state, d) is None])
    return docks


_COLONIST_HUB: Final[str] = colonist_hub.ID
_LUNAR_MINE: Final[str] = lunar_mine.ID
# A track's ships are the seat's own, and the Raiders' Outpost bumps what is there: a
# docking there never waits for a free group.
_MANY_TO_A_GROUP: Final = ("track", "run")


def _hub_docks(state: GameState, seat: int, block: Runs, docks: list[Dock]) -> None:
    """The Colonist Hub's runs: its `refuse` reads only the number of ships, the launch and
    the seat's free ports (`colonist_hub.refuse_ships`), so it is asked once per count and
    launch, with the free ports counted once. A launch needs the colony on circle 6 or 7 by
    the end of the docking: without that reach the launching runs are left out (they would
    all be refused anyway)."""
    reach = state.seats[seat].hub_circle + MAX_HUB_ADVANCES >= HUB_CIRCLES_LAUNCH_EARLY
    free = -1
    answers: dict[tuple[int, bool], bool] = {}
    for group, run in block:
        launch = group[2]
        if launch and not reach:
            continue
        key = (group[1], launch)
        allowed = answers.get(key)
        if allowed is None:
            if free < 0:
                free = colonist_hub.free_ports(state, seat)
            allowed = answers[key] = colonist_hub.refuse_ships(
                state, seat, key[0], launch, free) is None
        if allowed:
            docks.extend(run)


__all__ = ["MAX_HUB_ADVANCES", "legal_docks"]
