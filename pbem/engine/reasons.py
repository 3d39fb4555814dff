"""Why a facility offers the awaited seat no docking now, in the rules' own sentences.

The turn page greys a facility it cannot offer and says why in one sentence. That sentence
is `refusal`'s for a representative docking: the seat's own ships in a group the facility
takes (so the reason is the facility's requirement or cost, e.g. the Terraforming Station's
three-ship minimum), or, when none of its ships make such a group, the facility's shape
sentence. Nothing here judges legality itself; `refusal` stays the one home for it.
"""

from __future__ import annotations

from typing import Final

from .actions import Dock
from .facilities import FACILITIES, candidates, shape_refusal, ship_tokens
from .facilities.table import BASE
from .factions.common import owner_of
from .rules import awaited, refusal
from .state import GameState

BASE_IDS: Final = frozenset(spec.id for spec in BASE)


def unavailable(state: GameState, seat: int) -> dict[str, str]:
    """{facility id: why `seat` cannot dock there now} for the facilities in play that take
    none of its ships; empty unless `seat` is placing ships (its turn, nothing pending)."""
    if state.phase != "play" or awaited(state) != seat or state.turn.pending is not None:
        return {}
    tokens = ship_tokens(state, seat)
    if not tokens:
        return {}
    by_facility: dict[str, list[Dock]] = {}
    for dock in candidates(state, seat):
        by_facility.setdefault(dock.facility, []).append(dock)
    out: dict[str, str] = {}
    for fid in FACILITIES:
        tries = by_facility.get(fid, [])
        refused = [(dock, refusal(state, dock)) for dock in tries]
        if any(found is None for _, found in refused):
            continue
        shaped = [found[1] for dock, found in refused
                  if found is not None and shape_refusal(fid, dock.values) is None]
        if shaped:
            out[fid] = shaped[0]
            continue
        values = tuple(v for v, _ in tokens[:FACILITIES[fid].group_size])
        out[fid] = shape_refusal(fid, values) or (refused[0][1][1] if refused and
                                                  refused[0][1] else "")
    return {fid: why for fid, why in out.items()
            if why and (fid in BASE_IDS or owner_of(state, fid) is not None)}
