"""Where the ships are, scanned once while a state is known not to change.

The menu (`legal_actions`) asks dozens of docking questions of one unchanging state; each used
to scan every ship again. Inside `steady(state)` the scans below are answered from one index
built on entry; outside it (and for any other state) they scan as before, so a refusal gives
the same answer either way. Only read-only code may run inside `steady`.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

from .state import UNPLACED, GameState, Ship

_Index = tuple[GameState, dict[str, list[Ship]], dict[int, list[int]], dict[Any, Any]]
_CURRENT: ContextVar[_Index | None] = ContextVar("pbem_engine_ship_index", default=None)


def ships_at(state: GameState, loc: str) -> list[Ship]:
    """The ships at a location (a facility, the stock, ...), in ship order."""
    index = _CURRENT.get()
    if index is not None and index[0] is state:
        return index[1].get(loc, [])
    return [s for s in state.ships if s.loc == loc]


def unplaced_indices(state: GameState, seat: int) -> list[int]:
    """Indices of the unplaced ships of `seat`'s colour (not the Relic Ship), in ship order."""
    index = _CURRENT.get()
    if index is not None and index[0] is state:
        return index[2].get(seat, [])
    return [i for i, s in enumerate(state.ships) if s.loc == UNPLACED and s.owner == seat]


def memo(state: GameState) -> dict[Any, Any] | None:
    """A scratch table for answers about `state` while it is steady (else None)."""
    index = _CURRENT.get()
    if index is not None and index[0] is state:
        return index[3]
    return None


class steady:  # noqa: N801 - used as `with steady(state):`, like a function
    """Serve the lookups above for `state` from one index until the block ends (nested
    blocks for the same state keep the outer index)."""

    __slots__ = ("state", "token")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.token: Token[_Index | None] | None = None

    def __enter__(self) -> None:
        state = self.state
        outer = _CURRENT.get()
        if outer is not None and outer[0] is state:
            return
        by_loc: dict[str, list[Ship]] = {}
        unplaced: dict[int, list[int]] = {}
        for i, ship in enumerate(state.ships):
            by_loc.setdefault(ship.loc, []).append(ship)
            if ship.loc == UNPLACED and ship.owner is not None:
                unplaced.setdefault(ship.owner, []).append(i)
        self.token = _CURRENT.set((state, by_loc, unplaced, {}))

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _CURRENT.reset(self.token)
            self.token = None
