"""Random-play invariants: at every step of random and greedy games for 2, 3 and 4 seats the
position is sound, the menu agrees with `check`, every action round-trips through text and
JSON, `apply` leaves its input alone and agrees with the fast path, and `replay` rebuilds
the game; `check` accepts exactly the moves the menu covers (issue 12's audit, every subset
made by brute force), and mixed greedy/random games raise nothing. The benchmark
(`benchmarks/selfplay.py --invariants`) runs the same checks on 1,000 games per seat count and
bot; `--mixed` is the 10,000-game crash run."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pbem.engine import (
    ACTION_TYPES,
    Dock,
    GameState,
    RulesError,
    action_from_json,
    action_to_json,
    apply_in_place,
    dice,
    legal_actions,
    new_game,
)
from pbem.engine.actions import Action, kind_of
from pbem.engine.bots import greedy_bot, play_game, random_bot, redacted
from pbem.engine.ids import CARD_NAMES, FACILITY_NAMES, TERRITORY_NAMES
from pbem.engine.rules import awaited

from .invariants import (
    apply_slow,
    audit_menu,
    audit_picks,
    check_replay,
    checked_game,
    expect_refusal_only,
    mixed_bot,
    mixed_game,
    pick,
)

SEATS = (2, 3, 4, 5)
BOTS = {"random": random_bot, "greedy": greedy_bot}
BASE = {"factions": False}
# ruling F4: the base game for 2-4 seats; Factions for 2-5 with both F6 readings
CONFIGS = [(p, BASE) for p in (2, 3, 4)] + [
    (p, {"factions": True, "new_gaia_rescue": rescue})
    for p in SEATS for rescue in ("high", "low")]
CONFIG_IDS = [f"{p}-{'base' if not o['factions'] else o['new_gaia_rescue']}"
              for p, o in CONFIGS]


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_every_step_of_bot_games_keeps_the_invariants(players: int, options: dict[str, Any],
                                                      bot: str) -> None:
    for seed in range(1 if options["factions"] else 6):
        state, actions, snapshots = checked_game(players, 1000 * players + seed, BOTS[bot],
                                                 options=options)
        rng = [seed, 99]
        picks = pick(rng, sorted(snapshots), 3)
        check_replay(players, 1000 * players + seed, state, actions, snapshots, picks,
                     options)


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_apply_and_apply_in_place_reach_the_same_end(players: int,
                                                      options: dict[str, Any]) -> None:
    state, actions = play_game(players, 77 + players, random_bot, options)
    assert state.phase == "over"
    assert apply_slow(players, 77 + players, actions, options) == state


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_bot_games_always_end(players: int, options: dict[str, Any]) -> None:
    for seed in range(3 if options["factions"] else 40):
        for bot in (random_bot, greedy_bot):
            state, actions = play_game(players, seed, bot, options, max_steps=4000)
            assert state.phase == "over", (players, seed, bot.__name__, len(actions))


@pytest.mark.slow
def test_greedy_bot_beats_random_play() -> None:
    wins = 0
    for seed in range(40):
        state, _ = play_game(2, seed, [greedy_bot, random_bot] if seed % 2 else
                             [random_bot, greedy_bot])
        assert state.result is not None
        greedy_seat = 0 if seed % 2 else 1
        wins += greedy_seat in state.result["winners"]
    assert wins >= 34


def _positions(players: int, seeds: range) -> list[GameState]:
    out = []
    for seed in seeds:
        state = new_game(players, seed)
        rng = [seed, 5]
        while state.phase != "over":
            out.append(state)
            seat = awaited(state)
            assert seat is not None
            state = state.clone()
            apply_in_place(state, random_bot(state, seat, rng))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("players", SEATS)
def test_greedy_bot_decides_from_its_own_view_only(players: int) -> None:
    for state in _positions(players, range(4)):
        seat = awaited(state)
        assert seat is not None
        hidden = redacted(state, seat)
        assert hidden.deck == ["hidden"] * len(state.deck) and hidden.rng == [0, 0]
        assert greedy_bot(state, seat, [3, 1]) == greedy_bot(hidden, seat, [3, 1])


def _random_value(rng: list[int], name: str, annotation: str, players: int) -> Any:
    """A value for one action field: plausible, absurd or of the wrong kind."""
    if dice.below(rng, 12) == 0:
        return [None, "x", -1, 3.5, (), True][dice.below(rng, 6)]
    pools: dict[str, list[Any]] = {
        "facility": [*FACILITY_NAMES, "moon_base", ""],
        "territory": [*TERRITORY_NAMES, "mars"],
        "card": [*CARD_NAMES, "joker"],
        "resource": ["fuel", "ore", "gold"],
    }
    if name in pools:
        pool = pools[name]
        return pool[dice.below(rng, len(pool))]
    if annotation.startswith("tuple"):
        return tuple(dice.below(rng, 9) - 1 for _ in range(dice.below(rng, 5)))
    if annotation == "bool":
        return dice.below(rng, 2) == 1
    if annotation.startswith("int"):
        if "None" in annotation and dice.below(rng, 3) == 0:
            return None
        return dice.below(rng, players + 9) - 2
    if annotation.startswith("str"):
        return ["", "fuel", "red", *CARD_NAMES, *TERRITORY_NAMES][dice.below(rng, 5)]
    return None


def _random_action(rng: list[int], state: GameState, seat: int) -> Action | None:
    """Any kind of action with random fields, read the way players' input is read (JSON):
    a legal one with one field changed, or all fields random. None when reading refuses it
    (with a readable InvalidAction)."""
    menu = legal_actions(state, seat)
    if menu and dice.below(rng, 2) == 0:
        data = action_to_json(menu[dice.below(rng, len(menu))])
        cls = ACTION_TYPES[data["kind"]]
        fields = dataclasses.fields(cls)
        f = fields[dice.below(rng, len(fields))]
        data[f.name] = _random_value(rng, f.name, str(f.type), state.players)
    else:
        kinds = sorted(ACTION_TYPES)
        cls = ACTION_TYPES[kinds[dice.below(rng, len(kinds))]]
        data = {f.name: _random_value(rng, f.name, str(f.type), state.players)
                for f in dataclasses.fields(cls)}
        data["kind"] = kind_of(cls)
        if dice.below(rng, 3):
            data["seat"] = seat
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}
    try:
        return action_from_json(data)
    except RulesError as exc:
        assert exc.message
        return None


def _normal(action: Action) -> Action:
    if isinstance(action, Dock) and isinstance(action.values, tuple):
        return dataclasses.replace(action, values=tuple(sorted(action.values)))
    return action


@pytest.mark.slow
@pytest.mark.parametrize("players", SEATS)
def test_check_refuses_illegal_actions_with_a_reason_and_agrees_with_the_menu(
        players: int) -> None:
    rng = [players, 0]
    accepted = 0
    for state in _positions(players, range(2))[::2]:
        seat = awaited(state)
        assert seat is not None
        menu = {_normal(a) for a in legal_actions(state, seat)}
        for _ in range(12):
            action = _random_action(rng, state, seat)
            if action is None:
                continue
            before = state.to_json()
            if expect_refusal_only(state, action):
                accepted += 1
                assert _normal(action) in menu, f"check accepts {action!r}, the menu lacks it"
            assert state.to_json() == before
    assert accepted > 0


def _audit_game(players: int, seed: int, options: dict[str, Any], every: int) -> tuple[int, int]:
    """Audit the menu (and its picks) every `every` steps of one mixed game."""
    state = new_game(players, seed, options)
    rng = [seed ^ 0x5EED, 0]
    step = tried = 0
    while state.phase != "over":
        if step % every == 0:
            tried += audit_menu(state)[0]
            audit_picks(state)
        seat = awaited(state)
        assert seat is not None
        apply_in_place(state, mixed_bot(seed, step)(state, seat, rng))
        step += 1
    return step, tried


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_check_accepts_exactly_what_the_menu_covers(players: int,
                                                    options: dict[str, Any]) -> None:
    """Issue 12's audit: every subset of targets, re-roll, Teleporter move, Smuggle and
    docking shape that `check` accepts is on the menu, and nothing on it is refused; each
    subset choice is also one choice of a pick."""
    tried = 0
    for seed in range(2):
        tried += _audit_game(players, 300 + seed, options, every=4)[1]
    assert tried > 0


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_mixed_games_raise_nothing(players: int, options: dict[str, Any]) -> None:
    """Issue 12: greedy and random seats mixed; no exception out of `apply` (the crash run of
    `benchmarks/selfplay.py --mixed` plays 10,000 a seat count)."""
    for seed in range(20 if options["factions"] else 40):  # 320 games in all
        steps, exc, action = mixed_game(players, seed, options)
        assert exc is None, f"seed {seed} step {steps}: {action!r} raised {exc!r}"
        assert steps > 0


def test_the_crash_of_issue_12_is_gone() -> None:
    """Seed 124, 5 seats, Factions: `use chameleon_cloak shipyard purple 5` raised IndexError
    at step 27."""
    steps, exc, _ = mixed_game(5, 124, {"factions": True})
    assert exc is None and steps > 27
