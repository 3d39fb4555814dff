"""Bot levels: easy, greedy, strong; the strong bot's search decides from its own view only
and reproduces its choices (issue #16)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.engine import apply_in_place, dice, legal_actions
from pbem.engine.agendas.catalog import AGENDA_IDS
from pbem.engine.bots import HIDDEN_CARD, greedy_bot, play_game, redacted, strong
from pbem.engine.bots.determinize import world
from pbem.engine.bots.easy import MARGIN, easy_bot
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, bot_for, is_level
from pbem.engine.bots.ranking import ranked
from pbem.engine.bots.strong import StrongBot
from pbem.engine.bots.value import WIN, standing
from pbem.engine.errors import InvalidAction
from pbem.engine.flow import new_game
from pbem.engine.ids import BASE_DECK, FACTIONS_DECK
from pbem.engine.rules import awaited
from pbem.engine.state import GameState

from .builds import pure_python_only

BASE: dict[str, Any] = {"factions": False}
SMALL = StrongBot(rollouts=12)


def _choices(players: int, seeds: range, options: dict[str, Any] | None = None,
             every: int = 5) -> list[GameState]:
    """Positions of greedy games (every `every`th step) where the seat to act has a real
    choice in play."""
    found = []
    for seed in seeds:
        state = new_game(players, seed, options)
        rng = [seed, 11]
        while state.phase != "over":
            seat = awaited(state)
            assert seat is not None
            if (state.step % every == 0 and state.phase == "play"
                    and len(legal_actions(state, seat)) > 1):
                found.append(state.clone())
            apply_in_place(state, greedy_bot(state, seat, rng))
    return found


def _hidden_changed(state: GameState, seat: int, seed: int) -> GameState:
    """The same public position with every secret changed: another deck order, other
    Agendas in the other seats' hands and the Agenda piles, another generator."""
    other = state.clone()
    rng = [seed, 0]
    dice.shuffle(rng, other.deck)
    secret = [a for i, s in enumerate(other.seats) if i != seat for a in s.agendas]
    secret += other.agenda_deck + other.agenda_discard
    dice.shuffle(rng, secret)
    for i, s in enumerate(other.seats):
        if i != seat:
            s.agendas, secret = secret[:len(s.agendas)], secret[len(s.agendas):]
    other.agenda_deck, secret = secret[:len(other.agenda_deck)], secret[len(other.agenda_deck):]
    other.agenda_discard = secret
    other.rng = [seed * 7919 + 1, seed]
    return other


@pytest.mark.parametrize(("players", "options"), [(4, None), (2, None), (3, BASE)])
def test_strong_bot_ignores_what_it_cannot_see(players: int,
                                               options: dict[str, Any] | None) -> None:
    positions = _choices(players, range(2), options, every=9)
    assert len(positions) >= 8
    changed = 0
    for n, state in enumerate(positions):
        seat = awaited(state)
        assert seat is not None
        other = _hidden_changed(state, seat, n + 1)
        changed += other.deck != state.deck or other.rng != state.rng
        rng_a, rng_b, rng_c = [5, n], [5, n], [5, n]
        chosen = SMALL(state, seat, rng_a)
        assert SMALL(other, seat, rng_b) == chosen
        assert SMALL(redacted(state, seat), seat, rng_c) == chosen
        assert rng_a == rng_b == rng_c
    assert changed == len(positions)


def test_sampled_worlds_depend_only_on_the_seats_view() -> None:
    for n, state in enumerate(_choices(4, range(1), every=13)):
        seat = awaited(state)
        assert seat is not None
        other = _hidden_changed(state, seat, n + 3)
        assert world(state, seat, [9, n]).to_json() == world(other, seat, [9, n]).to_json()


@pytest.mark.parametrize("options", [None, BASE])
def test_a_sampled_world_is_a_complete_consistent_state(options: dict[str, Any] | None) -> None:
    for n, state in enumerate(_choices(4, range(1), options, every=17)):
        seat = awaited(state)
        assert seat is not None
        sample = world(state, seat, [2, n])
        assert len(sample.deck) == len(state.deck) and HIDDEN_CARD not in sample.deck
        cards = [*sample.deck, *sample.display, *sample.discard]
        for s in sample.seats:
            cards += s.cards
        total = dict(BASE_DECK, **(FACTIONS_DECK if options is None else {}))
        assert Counter(cards) == Counter(total)
        assert sample.seats[seat].agendas == state.seats[seat].agendas
        agendas = [*sample.agenda_deck, *sample.agenda_discard]
        for i, s in enumerate(sample.seats):
            assert len(s.agendas) == len(state.seats[i].agendas)
            agendas += s.agendas + s.revealed
        if options is None:
            assert sorted(agendas) == sorted(AGENDA_IDS)
        assert sample.rng != [0, 0] and sample.scripted == []


def test_strong_bot_reproduces_its_choice_and_leaves_the_state_alone() -> None:
    for n, state in enumerate(_choices(3, range(1), every=7)):
        seat = awaited(state)
        assert seat is not None
        before = state.to_json()
        first, again = [4, n], [4, n]
        assert SMALL(state, seat, first) == SMALL(state, seat, again)
        assert first == again and first != [4, n]
        assert state.to_json() == before


def test_strong_bot_chooses_from_the_menu() -> None:
    for state in _choices(2, range(1), every=3):
        seat = awaited(state)
        assert seat is not None
        assert SMALL(state, seat, [1, state.step]) in legal_actions(state, seat)


def test_easy_bot_plays_only_moves_near_the_best_and_not_always_the_best() -> None:
    second_rate = 0
    for n, state in enumerate(_choices(3, range(1), every=2)):
        seat = awaited(state)
        assert seat is not None
        order = ranked(state, seat, legal_actions(state, seat))
        chosen = easy_bot(state, seat, [6, n])
        score = next(score for score, action in order if action == chosen)
        assert score >= order[0][0] - MARGIN
        second_rate += score < order[0][0]
    assert second_rate > 0


def test_a_won_game_is_worth_more_than_any_position_and_a_lost_one_less() -> None:
    state, _ = play_game(2, 3, greedy_bot, BASE)
    assert state.result is not None
    winner = state.result["winners"][0]
    assert standing(state, winner) == WIN and standing(state, 1 - winner) == -WIN
    middle = new_game(2, 3, BASE)
    assert -WIN < standing(middle, 0) < WIN


@pytest.mark.parametrize("options", [None, BASE])
def test_every_level_finishes_games_mixed_at_one_table(options: dict[str, Any] | None) -> None:
    bots = [bot_for("easy"), bot_for("greedy"), bot_for("strong", budget=6)]
    state, actions = play_game(3, 21, bots, options)
    assert state.phase == "over" and state.result is not None
    again, same = play_game(3, 21, [bot_for("easy"), greedy_bot, StrongBot(rollouts=6)],
                            options)
    assert same == actions and again == state


def test_levels_are_named_and_a_wrong_one_is_refused() -> None:
    assert LEVELS == ("easy", "greedy", "strong") and DEFAULT_LEVEL in LEVELS
    assert bot_for("greedy") is greedy_bot and bot_for("easy") is easy_bot
    assert bot_for("strong", budget=30) == StrongBot(rollouts=30)
    assert is_level("strong") and not is_level("hard") and not is_level(None)
    with pytest.raises(InvalidAction, match="easy, greedy, strong"):
        bot_for("hard")
    for budget in (0, -3):
        with pytest.raises(InvalidAction, match="budget"):
            bot_for("strong", budget=budget)


def test_a_longer_horizon_also_decides_from_the_seats_view_only() -> None:
    deeper = StrongBot(rollouts=6, candidates=3, horizon=2)
    for n, state in enumerate(_choices(3, range(1), every=19)):
        seat = awaited(state)
        assert seat is not None
        chosen = deeper(state, seat, [8, n])
        assert chosen in legal_actions(state, seat)
        assert deeper(_hidden_changed(state, seat, n + 5), seat, [8, n]) == chosen


@pure_python_only
@pytest.mark.parametrize("players", [2, 4])
def test_strong_bot_spends_its_budget_in_two_halves_over_a_whole_round(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """By default every rollout plays the bot's turn and then every other seat's next one;
    the 48 rollouts go half to all six candidates (4 worlds each), half to the better three
    (8 worlds each); the choice is one of those three."""
    calls: list[tuple[int, int]] = []
    real = strong.rollout

    def counted(state: GameState, seat: int, first: Any, rng: list[int], horizon: int) -> float:
        calls.append((id(first), horizon))
        return real(state, seat, first, rng, horizon)

    monkeypatch.setattr(strong, "rollout", counted)
    state = next(s for s in _choices(players, range(3), every=7)
                 if len(legal_actions(s, awaited(s) or 0)) >= strong.CANDIDATES)
    seat = awaited(state)
    assert seat is not None
    bot = StrongBot(rollouts=48)
    chosen = bot(state, seat, [5, 0])
    assert len(calls) == 48
    assert {horizon for _, horizon in calls} == {players - 1}
    per_candidate = Counter(first for first, _ in calls)
    assert sorted(per_candidate.values()) == [4, 4, 4, 12, 12, 12]
    finalists = {first for first, n in per_candidate.items() if n == 12}
    assert id(chosen) in finalists
