"""The latching accelerator against the plain rule (ruling A3), on random games.

The plain rule: after every action, every in-game half (`AgendaSpec.in_game`) is asked of
the active seat with the turn's facts, and one met at any action of the turn stays met; a
markable half (met on another player's turn) is asked of every other seat and kept in its
marks until its next turn begins. `agendas/latch.py` answers the same with less asking
(`reads`, `docked`); it decides which Agendas may be revealed, so who wins. Here the two are
compared after every action of random games, 2-5 seats, Factions on and off: the latched
`facts["met"]` and `Seat.marks` must be exactly what the plain rule finds.

The seats are mixed, as in the crash run: greedy most of the time (its games get on: cards,
colonies, takeovers), random otherwise (anything legal, in any order). Each game stops after
`MAX_ACTIONS`. The same games hold the fold's VP skip to its premise: an action whose events
are all of `UNSCORED_KINDS` changes no seat's VP, and the VP in the facts is always the VP
now. `pytest -m 'not slow'` plays 60 games (about 1.5 s); the whole run 500 more
(about 10 s, marked slow).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.engine import Action, apply_in_place
from pbem.engine.agendas import revealable
from pbem.engine.agendas.catalog import AGENDAS, SPECS
from pbem.engine.agendas.facts import UNSCORED_KINDS
from pbem.engine.bots import greedy_bot, random_bot
from pbem.engine.flow import new_game
from pbem.engine.rules import awaited
from pbem.engine.scoring import vps
from pbem.engine.state import GameState

MAX_ACTIONS = 200  # per game: a turn's latching is what we watch, not the game's end
FACTIONS_SHARE = 4  # of every 5 games: the accelerator runs only with the Factions option


def met_now(state: GameState, seat: int) -> set[str]:
    """The plain rule: every in-game half met by `seat` now, but those judged only at the
    reveal (`live`)."""
    facts = state.turn.facts
    return {spec.id for spec in SPECS if not spec.live and spec.in_game(state, seat, facts)}


def marked_now(state: GameState, seat: int) -> set[str]:
    """The markable halves `seat` meets now, on another player's turn (no facts of its own)."""
    return {spec.id for spec in SPECS if spec.markable and spec.in_game(state, seat, {})}


def options_of(game: int) -> tuple[int, dict[str, Any]]:
    """Game `game`'s seats and options: 4 in 5 with Factions (2-5 seats), else the base game."""
    if game % 5 < FACTIONS_SHARE:
        return 2 + game % 4, {"factions": True}
    return 2 + game % 3, {"factions": False}


def mixed_bot(state: GameState, seat: int, rng: list[int]) -> Action:
    """Greedy two times in three, random otherwise."""
    bot = greedy_bot if (state.step + seat) % 3 else random_bot
    return bot(state, seat, rng)


def compare_game(players: int, seed: int, options: dict[str, Any], found: Counter[str]) -> None:
    """Play one game, comparing latched and plain after every action; `found` counts, for
    each Agenda, the actions after which it was met."""
    state = new_game(players, seed, options)
    factions = bool(state.options["factions"])
    rng = [seed ^ 0x1A7C4, 0]
    met: set[str] = set()  # the plain rule's answer for the turn in progress
    marks: list[set[str]] = [set() for _ in range(players)]
    for step in range(MAX_ACTIONS):
        if state.phase == "over":
            break
        seat = awaited(state)
        assert seat is not None
        before = vps(state)
        events = apply_in_place(state, mixed_bot(state, seat, rng))
        where = f"{players} seats, seed {seed}, action {step}"
        if all(ev["kind"] in UNSCORED_KINDS for ev in events):
            assert vps(state) == before, (where, events)
        if factions and state.phase != "over":
            assert state.turn.facts["vp"] == vps(state), where
        if not factions:
            assert "met" not in state.turn.facts and all(not s.marks for s in state.seats)
            continue
        active = state.turn.seat
        if any(ev["kind"] == "turn_started" for ev in events):
            met, marks[active] = marks[active], set()
        met |= met_now(state, active)
        for other in range(players):
            if other != active:
                marks[other] |= marked_now(state, other)
        latched = state.turn.facts.get("met", [])
        assert len(latched) == len(set(latched)), where
        assert set(latched) == met, where
        for other, s in enumerate(state.seats):
            assert set(s.marks.get("met", [])) == (set() if other == active else marks[other]), \
                (where, other)
        found.update(met)


def play(games: range) -> Counter[str]:
    found: Counter[str] = Counter()
    for game in games:
        players, options = options_of(game)
        compare_game(players, 7_000 + game, options, found)
    return found


def test_the_latch_meets_what_the_plain_conditions_meet_in_60_random_games() -> None:
    found = play(range(60))
    assert len(found) >= 12, found  # the comparisons are not all of empty sets


@pytest.mark.slow  # 500 games more: about 10 s on one core
def test_the_latch_meets_what_the_plain_conditions_meet_in_500_more_random_games() -> None:
    found = play(range(60, 560))
    assert len(found) >= 15, found


def test_the_games_cover_every_seat_count_with_and_without_factions() -> None:
    seen = {(options_of(g)[0], options_of(g)[1]["factions"]) for g in range(60)}
    assert seen == {(p, True) for p in (2, 3, 4, 5)} | {(p, False) for p in (2, 3, 4)}


def plain_revealable(state: GameState, seat: int, agenda: str) -> bool:
    """Ruling A3 as written: met this turn (or marked since the seat's last turn), or met now
    (every half asked, not only the `live` ones as `agendas.revealable` does)."""
    if seat != state.turn.seat:
        return False
    facts = state.turn.facts
    return agenda in facts.get("met", []) or AGENDAS[agenda].in_game(state, seat, facts)


def test_revealable_asks_only_live_halves_and_answers_as_the_plain_rule() -> None:
    """`revealable` trusts the latch for every half but the live ones: after every action of
    random Factions games, it must give the plain rule's answer for every Agenda and seat."""
    asked = 0
    for game in range(30):
        players = 2 + game % 4
        state = new_game(players, 9_000 + game, {"factions": True})
        rng = [game ^ 0x5EA1, 0]
        for _ in range(MAX_ACTIONS):
            if state.phase == "over":
                break
            seat = awaited(state)
            assert seat is not None
            apply_in_place(state, mixed_bot(state, seat, rng))
            for who in range(players):
                for agenda in AGENDAS:
                    plain = plain_revealable(state, who, agenda)
                    assert revealable(state, who, agenda) == plain, (game, state.step, agenda)
                    asked += plain
    assert asked > 0  # some Agendas were revealable
