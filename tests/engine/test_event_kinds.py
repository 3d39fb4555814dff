"""Every event `apply` reports has the fields its kind declares (pbem/engine/event_kinds.py),
in mixed games of greedy and random players at 2-5 seats, with and without Factions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine import apply_in_place, new_game
from pbem.engine.bots import greedy_bot, random_bot
from pbem.engine.event_kinds import EVENT_TYPES, mismatches

ENGINE = Path(__file__).resolve().parents[2] / "pbem" / "engine"


def test_every_kind_the_engine_can_report_is_declared() -> None:
    made = set()
    for source in ENGINE.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        made |= set(re.findall(r'event\(\s*"([a-z_]+)"', text))
        made |= set(re.findall(r'events\.append\(\{"kind": "([a-z_]+)"', text))  # built inline
    made |= {"field_moved"}  # fields.py names it in a conditional expression
    assert made - EVENT_TYPES.keys() == set()
    assert EVENT_TYPES.keys() - made == set(), "a declared kind nothing reports"


def play_mixed(players: int, seed: int, factions: bool) -> set[str]:
    """A whole game of greedy and random seats (a seat plays greedy when (seed + step) % 3),
    every event held to its kind; the kinds seen."""
    seen: set[str] = set()
    state = new_game(players, seed, {"factions": factions})
    rng = [seed, 0]
    for step in range(4000):
        if state.phase == "over":
            break
        seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
        bot = greedy_bot if (seed + step) % 3 else random_bot
        for ev in apply_in_place(state, bot(state, seat, rng)):
            assert mismatches(ev) == [], (players, seed, factions, step, ev)
            seen.add(ev["kind"])
    return seen


@pytest.mark.parametrize(("players", "factions"),
                         [(2, False), (3, False), (4, False), (2, True), (3, True), (4, True),
                          (5, True)])
def test_the_events_of_mixed_games_have_their_kinds_fields(players: int, factions: bool) -> None:
    seen: set[str] = set()
    for seed in range(6):
        seen |= play_mixed(players, seed, factions)
    assert {"rolled", "docked", "turn_ended", "game_over"} <= seen


# Derandomized: the same games on every run (a failure names its seed), many more seeds than
# the table above.
@settings(derandomize=True, max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**62), factions=st.booleans())
def test_any_game_reports_only_well_formed_events(players: int, seed: int,
                                                  factions: bool) -> None:
    play_mixed(players, seed, factions or players == 5)


def test_a_wrong_event_is_told_what_is_wrong() -> None:
    assert mismatches({"kind": "nonsense"}) == ["unknown event kind 'nonsense'"]
    assert mismatches({"kind": "traded", "seat": 0, "fuel": "2"}) == [
        "traded: no field 'ore'", "traded.fuel: '2' is not <class 'int'>"]
    assert mismatches({"kind": "launched", "seat": 1, "extra": 3}) == [
        "launched: unknown field 'extra'"]
