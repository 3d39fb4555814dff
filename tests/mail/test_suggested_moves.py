"""The moves a turn mail suggests come from the engine's ranking of the menu and say the
engine's preview of their effect."""

from __future__ import annotations

from pbem import engine
from pbem.engine import bots, menu_previews
from pbem.engine.bots import ranking
from pbem.engine.scenarios.position import build_state
from pbem.mail.outbound.suggestions import rank, suggested_moves
from tests.replies.test_reply_examples import positions


def test_a_suggested_docking_says_what_the_engine_pays_after_a_borrowed_bonus() -> None:
    state = build_state({"players": 3, "turn": "red", "colonies": {"lem": {"green": 1}},
                         "seats": {"red": {"fuel": 1, "unplaced": [5],
                                           "cards": ["data_crystal"]}}})
    state, _ = engine.apply(state, engine.parse_action("use data_crystal lem", 0, 3))
    picture = engine.view(state, 0)
    previews = menu_previews(state, picture["legal"], picture["picks"])
    moves = suggested_moves(rank(state, 0, picture["legal"]), ["Ana", "Ben", "Cy"], [], previews)
    assert {"goal": "Fuel", "how": "dock 5 at the Solar Converter", "cost": "+4 fuel",
            "label": "Fuel: dock 5 at the Solar Converter (+4 fuel)",
            "notation": "dock 5 solar_converter"} in moves


def test_a_suggested_ship_says_what_it_builds_and_what_it_costs() -> None:
    state = build_state({"players": 3, "turn": "red",
                         "seats": {"red": {"fuel": 4, "ore": 2, "unplaced": [3, 3]}}})
    picture = engine.view(state, 0)
    previews = menu_previews(state, picture["legal"], picture["picks"])
    moves = suggested_moves(rank(state, 0, picture["legal"]), ["Ana", "Ben", "Cy"], [], previews)
    ship = next(m for m in moves if m["notation"] == "dock 3 3 shipyard")
    assert ship["goal"] == "Build your 4th ship"
    assert ship["how"] == "dock 3 3 at the Shipyard"
    assert ship["cost"] == "1 fuel, 1 ore"


def test_a_suggested_move_never_names_the_card_it_would_draw() -> None:
    state = build_state({"players": 4, "turn": "blue", "deck": ["alien_city"],
                         "seats": {"red": {"faction": "corex"},
                                   "green": {"faction": "dark_space"},
                                   "blue": {"faction": "scavenger", "fuel": 2,
                                            "unplaced": [5]},
                                   "yellow": {"faction": "uranian"}}})
    picture = engine.view(state, 2)
    previews = menu_previews(state, picture["legal"], picture["picks"])
    drawn = previews["dock 5 dark_space_explorers"]
    assert drawn.unseen == ("drew",) and "alien_city" not in repr(drawn)
    moves = suggested_moves(rank(state, 2, picture["legal"]), ["A", "B", "C", "D"], [], previews)
    labels = " ".join(m["label"] for m in moves)
    assert "Alien City" not in labels


def test_the_suggestions_follow_the_engines_ranking_one_per_kind_and_facility() -> None:
    state = build_state({"players": 3, "turn": "red",
                         "seats": {"red": {"fuel": 4, "ore": 2, "unplaced": [3, 3, 6]}}})
    picture = engine.view(state, 0)
    ranked = [engine.format_action(a) for _, a in ranking.ranked(
        bots.redacted(state, 0), 0, engine.legal_actions(state, 0))]
    moves = suggested_moves(rank(state, 0, picture["legal"]), ["Ana", "Ben", "Cy"], [],
                            menu_previews(state, picture["legal"], picture["picks"]))
    notations = [m["notation"] for m in moves]
    assert notations[0] == ranked[0]
    assert notations == sorted(notations, key=ranked.index)  # the engine's order
    facilities = [engine.parse_action(n, 0, 3) for n in notations]
    kinds = [(type(a).__name__, getattr(a, "facility", None)) for a in facilities]
    assert len(kinds) == len(set(kinds)) == 4


# -- issue 26: every suggested move can be carried out now, with its cost and gain --------

NAMES = ["Ana", "Ben", "Cy"]


def _suggested(state: engine.GameState, seat: int = 0) -> list[dict[str, str]]:
    picture = engine.view(state, seat)
    previews = menu_previews(state, picture["legal"], picture["picks"])
    return suggested_moves(rank(state, seat, picture["legal"]), NAMES[:state.players], [],
                           previews, fuel=picture["seats"][seat]["fuel"], view=picture)


def test_a_market_pair_is_not_suggested_without_the_fuel_for_one_trade() -> None:
    poor = build_state({"players": 3, "turn": "red",
                        "seats": {"red": {"fuel": 1, "ore": 0, "unplaced": [2, 2]}}})
    assert "dock 2 2 orbital_market" in [engine.format_action(a)
                                         for a in engine.legal_actions(poor, 0)]
    assert all(m["notation"] != "dock 2 2 orbital_market" for m in _suggested(poor))
    rich = build_state({"players": 3, "turn": "red",
                        "seats": {"red": {"fuel": 5, "ore": 0, "unplaced": [2, 2]}}})
    market = next(m for m in _suggested(rich) if m["notation"] == "dock 2 2 orbital_market")
    assert market["label"] == ("Trade fuel for ore: dock 2 2 at the Orbital Market "
                               "(then 2 fuel for each ore, up to 2)")


def test_a_docking_after_the_artifact_is_not_said_to_be_towards_a_card() -> None:
    state = build_state({"players": 3, "turn": "red",
                         "seats": {"red": {"fuel": 0, "unplaced": [4, 5]}}})
    state, _ = engine.apply(state, engine.parse_action("dock 4 alien_artifact", 0, 3))
    moves = {m["notation"]: m for m in _suggested(state)}
    assert moves["dock 5 lunar_mine"]["goal"] == "Ore"
    assert moves["dock 5 alien_artifact"]["label"] == (
        "Claim an Alien Tech card: dock 5 at the Alien Artifact (9 there, 8 needed: then "
        "claim a card)")


def test_every_suggestion_of_random_positions_is_legal_and_says_its_cost_and_gain() -> None:
    seen_kinds: set[str] = set()
    for players, _, state in positions(60, seed=2606):
        seat = engine.awaited(state)
        assert seat is not None
        legal = {engine.format_action(a) for a in engine.legal_actions(state, seat)}
        picture = engine.view(state, seat)
        previews = menu_previews(state, picture["legal"], picture["picks"])
        fuel = picture["seats"][seat]["fuel"]
        for move in suggested_moves(rank(state, seat, picture["legal"]),
                                    ["A", "B", "C", "D", "E"][:players], [], previews,
                                    fuel=fuel, view=picture):
            assert move["notation"] in legal, move
            action = engine.parse_action(move["notation"], seat, players)
            seen_kinds.add(action.kind)
            if action.kind == "dock":
                assert move["cost"], move  # a docking always says its cost and gain
                if "orbital_market" in move["notation"]:
                    rate = min(previews[move["notation"]].trade_rates)
                    assert fuel >= rate, (move, fuel)
    assert {"dock", "end_turn"} <= seen_kinds
