"""The engine's previews in words (pbem/words/effects.py): the numbers are the preview's."""

from __future__ import annotations

from pbem import engine
from pbem.engine import GameState, menu_previews, parse_action, preview
from pbem.web.presenters.turn import menu
from pbem.words.effects import dock_effect, effect
from tests.engine.alien_tech.helpers import position
from tests.engine.factions.helpers import position as factions_position


def words(state: GameState, text: str) -> str:
    return effect(preview(state, parse_action(text, state.turn.seat, state.players)))


def test_facility_effects_read_as_the_engine_pays() -> None:
    state = position(colonies={"herbert": {"red": 1}, "bradbury": {"red": 1}},
                     seats={"red": {"fuel": 5, "ore": 5, "unplaced": [2, 2, 5]}})
    assert words(state, "dock 5 solar_converter") == "+3 fuel"
    assert words(state, "dock 5 lunar_mine") == "+1 ore"
    assert words(state, "dock 2 2 shipyard") == "free: build your 4th ship"
    assert words(state, "dock 2 2 orbital_market") == (
        "then trade 2 fuel for 1 ore, as often as you like")
    triple = position(colonies={"bradbury": {"red": 1}},
                      seats={"red": {"ore": 5, "unplaced": [4, 4, 4]}})
    assert words(triple, "dock 4 4 4 colony_constructor") == "pay 2 ore: land a colony"


def test_a_faction_board_docking_names_the_fee_but_never_the_card_drawn() -> None:
    state = factions_position(turn="blue", deck=["alien_city"],
                              seats={"blue": {"fuel": 2, "unplaced": [5]}})
    seen = preview(state, parse_action("dock 5 dark_space", 2, 4))
    said = dock_effect(seen)
    assert said.startswith("pay its owner 1 fuel: ") and "Alien City" not in said


def test_faction_powers_cost_what_the_engine_charges() -> None:
    state = factions_position(boards=["proxima", "uranian", "corex", "dark_space"],
                              colonies={"lem": {"green": 1}},
                              seats={"red": {"fuel": 4, "ore": 4, "unplaced": [3]}})
    view = engine.view(state, 0)
    effects = menu_previews(state, view["legal"], view["picks"])
    groups = menu(view, ["Ana", "Ben", "Cy", "Di"], effects=effects)
    details = {c.notation.split()[0]: c.detail for g in groups for c in g.choices}
    placing = [d for n, d in details.items() if "place" in n or "scholars" in n]
    assert placing and all(d == "2 fuel, once per turn" for d in placing), details
