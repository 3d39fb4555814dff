"""The latching accelerator: which in-game Agenda halves are met now, remembered (ruling A3).

After every fold (`facts.fold`) the conditions met now are latched: the active seat's in
`facts["met"]` (revealable for the rest of its turn), other seats' markable ones in their
`Seat.marks` (revealable during their next turn). The plain rule asks every in-game half
(`AgendaSpec.in_game`) after every action; this asks the same answers for less, as each spec
allows: a half that reads only facts (`reads`) is asked again only after a fold that may have
written one of them, and the halves read from where ships are docked (`docked`) are answered
by one pass over the ships, after a fold whose events may have changed the ships (`SHIPS`).
tests/engine/test_agenda_latch.py compares it with the plain rule at every action of
hundreds of random games.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..state import GameState
from .catalog import SPECS
from .conditions import docked_halves
from .spec import CARDS, Facts, InGame


def latch(state: GameState, changed: frozenset[str] | None = None) -> None:
    """Remember in-game conditions met now: the active seat's in the turn, other seats'
    (those that can come true on another's turn) in their marks. A condition that reads only
    facts, none of them `changed` (those a fold may have written: each event's branch names
    those it can, and a new turn's fold every fact it recorded), is not asked again: it gives
    the answer it gave after the last action, or before the turn's first fact, not met. The
    docked halves are asked only when `SHIPS` is among `changed`, the markable halves, of any
    seat, only when `CARDS` is (`spec.CARDS`: what they read). `None`: every condition is
    asked."""
    facts, seat = state.turn.facts, state.turn.seat
    met: list[str] | None = facts.get("met")
    if met is None:  # rather than setdefault's fresh list at every call
        met = facts["met"] = []
    docked: tuple[bool, bool, bool] | None = None  # the docked halves, asked together
    for agenda, condition, at in _LATCHED if changed is None else _asked(changed):
        if agenda in met:
            continue
        if at < 0:
            if condition(state, seat, facts):
                met.append(agenda)
            continue
        if docked is None:
            docked = docked_halves(state, seat, facts)
        if docked[at]:
            met.append(agenda)
    if changed is not None and CARDS not in changed:
        return
    for other, s in enumerate(state.seats):
        if other == seat:
            continue
        marked: list[str] = s.marks.get("met", _NONE)
        for agenda, condition in _MARKED:
            if agenda not in marked and condition(state, other, _NO_FACTS):
                marked = s.marks["met"] = [*marked, agenda]


# Read-only stand-ins, so that latching after every action allocates nothing for them: a
# seat with no marks, and the facts of another seat's turn (the markable halves read none).
_NONE: Final[list[str]] = []
_NO_FACTS: Final[Facts] = {}

# (agenda, condition, its place in `docked_halves`' answer or -1), in catalog order
_LATCHED: Final[tuple[tuple[str, InGame, int], ...]] = tuple(
    (spec.id, spec.in_game, -1 if spec.docked is None else spec.docked)
    for spec in SPECS if not spec.live)
_READS: Final[dict[str, tuple[str, ...]]] = {spec.id: spec.reads for spec in SPECS
                                             if spec.reads}
_MARKED: Final[tuple[tuple[str, InGame], ...]] = tuple(
    (spec.id, spec.in_game) for spec in SPECS if spec.markable)
_MARKABLE: Final[frozenset[str]] = frozenset(agenda for agenda, _ in _MARKED)
# Not a fact but what the docked halves read: the ships' places, values and commanders (the
# Solar Converter's empty ports they read too are recorded once, at the turn's start). A fold
# names it changed unless every event is of a kind that moves no ship (`SHIPLESS_KINDS`) or
# a docking at a facility they do not read (`conditions.DOCKS`).
SHIPS: Final = "ships"
# Every fact some condition reads alone, `SHIPS` and `CARDS` (`spec.CARDS`): a fold passes
# on only the changes among these.
READ_FACTS: Final[frozenset[str]] = frozenset(
    [SHIPS, CARDS, *(key for keys in _READS.values() for key in keys)])
# Event kinds that neither move a ship nor change its value or commander (resources, the
# Colonist Hub, colonies, cards drawn or stolen, Agendas revealed, the end of a raid):
# tests/engine/test_agenda_latch.py holds the latched docked halves to the plain ones after
# every action of hundreds of random games.
SHIPLESS_KINDS: Final = frozenset({
    "gained", "paid", "stole", "traded", "returned_resources", "hub_advanced", "hub_started",
    "launched", "landed", "gained_control", "lost_control", "raid_ended", "drew",
    "stole_card", "revealed_agenda"})
# Event kinds that neither give nor take an Alien Tech card (ships, resources, the Colonist
# Hub, colonies, the Artifact's display cycled, Agendas revealed): the same test holds the
# latched marks to the plain ones.
CARDLESS_KINDS: Final = frozenset({
    "docked", "replaced", "bumped", "rolled", "gained", "paid", "stole", "traded",
    "returned_resources", "hub_advanced", "hub_started", "launched", "landed",
    "gained_control", "lost_control", "raid_ended", "built_ship", "bought_relic", "cycled",
    "revealed_agenda", "turn_ended"})


@lru_cache(maxsize=256)
def _asked(changed: frozenset[str]) -> tuple[tuple[str, InGame, int], ...]:
    """The latched conditions to ask after a fold that changed these facts, in order: those
    that read something besides facts (the docked halves only if `SHIPS` changed, the
    markable ones, which read the cards alone, only if `CARDS` did), and those that read one
    of `changed`."""
    ships, cards = SHIPS in changed, CARDS in changed
    return tuple((a, c, at) for a, c, at in _LATCHED
                 if (ships or at < 0) and a not in _READS and (cards or a not in _MARKABLE)
                 or a in _READS and not changed.isdisjoint(_READS[a]))
