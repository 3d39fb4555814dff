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
    ship_tokens,
    shipyard,
    unequal_pairs,
)
from ..facilities.ports import Occupancy, first_free, occupancy
from ..ids import HUB_CIRCLES_LAUNCH_EARLY
from ..state import GameState
from .shapes import EACH, FULL, WHOLE, Group, cut, runs, unchosen

# Three ports on a track plus Asimov Crater's one extra advance (ruling B2).
MAX_HUB_ADVANCES: Final = 4


def legal_docks(state: GameState, seat: int) -> list[Dock]:
    """The dockings `seat` may make now, in menu order (see above)."""
    tokens = ship_tokens(state, seat)
    if not tokens:
        return []
    skipped = unchosen(tuple(sorted([s.faction for s in state.seats if s.faction])))
    # A launch needs the colony on circle 6 or 7 by the end of the docking: without that
    # reach the launch variants are left out (they would all be refused anyway).
    reach = state.seats[seat].hub_circle + MAX_HUB_ADVANCES >= HUB_CIRCLES_LAUNCH_EARLY
    menu_runs = runs(seat, tokens)
    if shipyard.scavenger_open(state):  # ruling F11: unequal pairs at the Shipyard
        menu_runs += cut(unequal_pairs(seat, tokens), FULL)
    used = occupancy(state)
    refused: dict[Group, bool] = {}
    full: dict[str, bool] = {}  # facility -> every group of it taken (asked once a menu)
    hub: dict[tuple[int, bool], bool] = {}  # (ships, launch) -> the Colonist Hub refuses
    ports: list[int] = []  # the seat's free ports at the Colonist Hub, once counted
    docks: list[Dock] = []
    for group, run, judge in menu_runs:
        if group[0] in skipped or group[2] and not reach:
            continue
        surely = refused.get(group)
        if surely is None:
            surely = refused[group] = _surely_refused(state, run[0], used, full, hub, ports)
        if surely:
            continue
        if judge == WHOLE:
            docks.extend(run)
        elif judge == EACH:
            refuse = FACILITIES[group[0]].refuse
            docks.extend([d for d in run if not refuse(state, seat, d)])
        else:
            docks.extend([d for d in run if dock_refusal(state, d) is None])
    return docks


def _surely_refused(state: GameState, dock: Dock, used: Occupancy,
                    full: dict[str, bool], hub: dict[tuple[int, bool], bool],
                    ports: list[int]) -> bool:
    """Whether the whole group of `dock` is refused: its facility is full, or it is value-free
    and refuses this group. `full` remembers, for this menu, which facilities are full: the
    answer is the facility's, shared by all its groups. The Colonist Hub's `refuse` reads only
    the number of ships, the launch and the seat's free ports (`colonist_hub.refuse_ships`):
    `hub` keeps its answers for this menu, `ports` the free ports, counted once."""
    facility = dock.facility
    if facility == colonist_hub.ID:
        key = (len(dock.values), dock.launch)
        answer = hub.get(key)
        if answer is None:
            if not ports:
                ports.append(colonist_hub.free_ports(state, dock.seat))
            answer = hub[key] = colonist_hub.refuse_ships(
                state, dock.seat, key[0], key[1], ports[0]) is not None
        return answer
    spec = FACILITIES[facility]
    if spec.shape not in ("track", "run"):
        taken = full.get(facility)
        if taken is None:
            taken = full[facility] = first_free(state, facility,
                                                used.get(facility, {})) is None
        if taken:
            return True
    return spec.value_free and bool(spec.refuse(state, dock.seat, dock))


__all__ = ["EACH", "FULL", "MAX_HUB_ADVANCES", "WHOLE", "legal_docks"]
