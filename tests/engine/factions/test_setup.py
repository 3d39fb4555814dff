"""Setup with the Factions option: options, players, the deck, the draft and its secrecy."""

from __future__ import annotations

import json

import pytest

from pbem.engine import InvalidAction, new_game, parse_action, view
from pbem.engine.bots import greedy_bot, play_game
from pbem.engine.rules import awaited
from pbem.engine.scoring import result

from .helpers import act, position


def test_factions_is_on_by_default_and_the_base_game_stays_available() -> None:  # F4
    assert new_game(3, 1).options == {"factions": True, "new_gaia_rescue": "high"}
    base = new_game(3, 1, {"factions": False})
    assert base.phase == "play" and len(base.deck) == 22 - 3 - 3


@pytest.mark.parametrize(("players", "options", "words"), [
    (5, {"factions": False}, "base game takes 2 to 4"),
    (6, None, "Factions expansion takes 2 to 5"),
    (3, {"new_gaia_rescue": "middle"}, "new_gaia_rescue"),
    (3, {"factions": 1}, "factions"),
    (3, {"colour": "red"}, "Unknown game option 'colour'"),
])
def test_bad_options_and_player_counts_are_refused_with_the_reason(
        players: int, options: dict[str, object] | None, words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        new_game(players, 1, options)


def test_five_players_get_six_colonies_and_the_fifth_two_fuel_and_one_ore() -> None:  # F1
    state = new_game(5, 2)
    assert [s.colonies for s in state.seats] == [6] * 5
    assert (state.seats[4].fuel, state.seats[4].ore) == (2, 1)
    cards = len(state.deck) + len(state.display) + sum(len(s.cards) for s in state.seats)
    assert cards == 30  # ruling B4


def test_the_draft_offers_n_plus_one_boards_last_seat_first() -> None:  # ruling F3
    state = new_game(4, 9)
    assert len(state.draft) == 5 and state.phase == "draft" and awaited(state) == 3
    for seat in (3, 2, 1, 0):
        assert awaited(state) == seat
        state = act(state, f"choose {state.draft[0]}")
    assert state.phase == "play" and state.draft == [] and state.turn.round == 1
    assert len({s.faction for s in state.seats}) == 4 and state.turn.rolled


def test_only_the_chooser_sees_the_boards_offered() -> None:  # ruling C4
    state = new_game(3, 4)
    offered = set(state.draft)
    chooser = view(state, 2)
    assert set(chooser["you"]["draft"]) == offered
    for seat in (None, 0, 1):
        picture = view(state, seat)
        assert "draft" not in picture.get("you", {})
        text = json.dumps({k: v for k, v in picture.items() if k != "options"})
        assert not any(f'"{board}"' in text for board in offered)


def test_a_choice_out_of_turn_is_refused() -> None:
    state = new_game(3, 4)
    with pytest.raises(Exception, match="not your turn"):
        from pbem.engine import check

        check(state, parse_action(f"choose {state.draft[0]}", 0, 3))


def test_the_view_shows_each_seats_faction() -> None:
    state = position()
    assert [s["faction"] for s in view(state, None)["seats"]] == [
        "corex_conglomerated", "dark_space_explorers", "scavenger_fleet", "uranian_syndicate"]


def test_ties_go_to_revealed_agendas_first_then_cards() -> None:  # ruling F12
    state = position(players=2)
    state.seats[0].revealed = ["six_ore", "low_roll"]
    state.seats[1].revealed = ["fill_mine"]
    state.seats[1].cards = ["stasis_beam", "booster_pod"]
    state.colonies["lem_badlands"][1] = 1
    state.controllers["lem_badlands"] = None  # VP 2 each: one colony, no control
    first = result(state)
    assert (first["winners"], first["tiebreak"]) == ([0], "agendas")
    state.seats[1].revealed.append("two_takeovers")
    state.colonies["lem_badlands"][1] = 0
    second = result(state)
    assert (second["winners"], second["tiebreak"]) == ([1], "cards")


def test_five_seat_greedy_games_finish() -> None:
    for seed in range(3):
        state, _ = play_game(5, seed, greedy_bot)
        assert state.phase == "over"
