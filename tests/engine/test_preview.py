"""The engine's preview of an action: for every facility it says what `apply` then does, and
it never tells a card drawn or a die rolled before the action reveals it."""

from __future__ import annotations

import pytest

from pbem.engine import (
    GameState,
    IllegalAction,
    Preview,
    apply,
    format_action,
    legal_actions,
    menu_previews,
    new_game,
    parse_action,
    preview,
    view,
)
from pbem.engine.scoring import vp
from tests.engine.alien_tech.helpers import play, position
from tests.engine.factions.helpers import position as factions_position


def agrees(state: GameState, text: str, seat: int | None = None) -> Preview:
    """The preview of `text`, after checking each number against the state `apply` gives."""
    who = state.turn.seat if seat is None else seat
    action = parse_action(text, who, state.players)
    before = state.to_json()
    seen = preview(state, action)
    assert state.to_json() == before  # the preview works on its own copy
    after, events = apply(state, action)
    me, then = state.seats[who], after.seats[who]
    if not seen.hidden:
        assert (seen.fuel, seen.ore) == (then.fuel - me.fuel, then.ore - me.ore)
        assert seen.vp == vp(after, who) - vp(state, who)
        assert list(seen.events) == events
        gained = [c for c in then.cards if c not in me.cards]
        assert list(seen.cards_gained) == gained
    landed = [ev["territory"] for ev in events if ev["kind"] == "landed" and ev["seat"] == who]
    assert list(seen.colonies_landed) == landed
    built = sum(1 for s in after.ships if s.owner == who and s.loc != "stock") \
        - sum(1 for s in state.ships if s.owner == who and s.loc != "stock")
    assert len(seen.ships_built) == built
    pending = after.turn.pending
    assert seen.decision == (pending["kind"] if pending and pending["seat"] == who else None)
    return seen


def test_solar_converter_pays_half_the_value_rounded_up() -> None:
    state = position(seats={"red": {"unplaced": [5, 2]}})
    assert agrees(state, "dock 5 solar_converter").fuel == 3
    assert agrees(state, "dock 2 solar_converter").fuel == 1


def test_solar_converter_with_lem_badlands_pays_one_more() -> None:
    state = position(colonies={"lem": {"red": 1}}, seats={"red": {"unplaced": [5]}})
    assert agrees(state, "dock 5 solar_converter").fuel == 4


def test_solar_converter_after_the_data_crystal_borrows_lem_badlands() -> None:
    state = position(colonies={"lem": {"green": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [5], "cards": ["data_crystal"]}})
    state, _ = play(state, "use data_crystal lem")
    assert agrees(state, "dock 5 solar_converter").fuel == 4


def test_lunar_mine_gives_one_ore() -> None:
    state = position(seats={"red": {"unplaced": [4]}})
    seen = agrees(state, "dock 4 lunar_mine")
    assert (seen.fuel, seen.ore, seen.paid_fuel, seen.paid_ore) == (0, 1, 0, 0)


def test_orbital_market_opens_its_trade_rate() -> None:
    state = position(seats={"red": {"fuel": 3, "unplaced": [3, 3]}})
    seen = agrees(state, "dock 3 3 orbital_market")
    assert seen.trade_rates == (3,) and (seen.fuel, seen.ore) == (0, 0)
    state, _ = play(state, "dock 3 3 orbital_market")
    traded = agrees(state, "trade 3")
    assert (traded.fuel, traded.ore, traded.paid_fuel) == (-3, 1, 3)


def test_orbital_market_with_heinlein_plains_trades_one_for_one() -> None:
    state = position(colonies={"heinlein": {"red": 1}},
                     seats={"red": {"fuel": 3, "unplaced": [4, 4]}})
    assert agrees(state, "dock 4 4 orbital_market").trade_rates == (1,)


def test_shipyard_builds_the_next_ship_at_its_cost() -> None:
    state = position(seats={"red": {"fuel": 5, "ore": 5, "unplaced": [2, 2]}})
    seen = agrees(state, "dock 2 2 shipyard")
    assert seen.ships_built == (4,) and (seen.paid_fuel, seen.paid_ore) == (1, 1)


def test_shipyard_with_herbert_valley_costs_one_less_of_each() -> None:
    state = position(colonies={"herbert": {"red": 1}},
                     seats={"red": {"fuel": 5, "ore": 5, "unplaced": [2, 2, 1]}})
    seen = agrees(state, "dock 2 2 shipyard")
    assert (seen.paid_fuel, seen.paid_ore) == (0, 0) and seen.ships_built == (4,)


def test_alien_artifact_counts_towards_a_claim_and_opens_a_cycle() -> None:
    state = position(seats={"red": {"unplaced": [5, 4]}}, turn_facts={"artifact_total": 3})
    seen = agrees(state, "dock 5 alien_artifact")
    assert seen.artifact_total == 8 and seen.may_cycle


def test_cycling_the_display_previews_no_card_dealt() -> None:
    state = position(seats={"red": {"unplaced": [5]}}, deck=["booster_pod", "stasis_beam",
                                                               "alien_city"])
    state, _ = play(state, "dock 5 alien_artifact")
    seen = agrees(state, "cycle")
    assert seen.unseen == ("cycled",) and seen.vp is None
    assert not any(card in repr(seen) for card in ("booster_pod", "stasis_beam", "alien_city"))
    assert seen.events[-1]["discarded"] == state.display


def test_claiming_names_the_card_claimed_but_not_the_one_dealt() -> None:
    state = position(seats={"red": {"unplaced": [5]}}, display=["alien_city", "booster_pod",
                                                                 "stasis_beam"],
                     deck=["polarity_device"], turn_facts={"artifact_total": 8})
    seen = agrees(state, "claim alien_city")
    assert seen.cards_gained == ("alien_city",) and "drew" not in repr(seen.events)
    assert "polarity_device" not in repr(seen)


def test_colonist_hub_moves_the_colony_one_circle_a_ship() -> None:
    state = position(seats={"red": {"unplaced": [1, 2], "hub": 3}})
    assert agrees(state, "dock 1 2 colonist_hub").hub_steps == 2


def test_colonist_hub_docking_that_launches_pays_and_asks_where_to_land() -> None:
    state = position(seats={"red": {"fuel": 1, "ore": 1, "unplaced": [1], "hub": 6}})
    action = next(format_action(a) for a in legal_actions(state, 0)
                  if format_action(a).startswith("dock 1 colonist_hub") and "launch" in
                  format_action(a))
    seen = agrees(state, action)
    assert seen.launched and seen.decision == "land" and seen.hub_steps == 1
    assert (seen.paid_fuel, seen.paid_ore) == (1, 1)


def test_colony_constructor_costs_three_ore_and_asks_where_to_land() -> None:
    state = position(seats={"red": {"ore": 3, "unplaced": [4, 4, 4]}})
    seen = agrees(state, "dock 4 4 4 colony_constructor")
    assert seen.paid_ore == 3 and seen.decision == "land"
    state, _ = play(state, "dock 4 4 4 colony_constructor")
    assert agrees(state, "land lem").colonies_landed == ("lem_badlands",)


def test_colony_constructor_with_bradbury_plateau_costs_two_ore() -> None:
    state = position(colonies={"bradbury": {"red": 1}},
                     seats={"red": {"ore": 3, "unplaced": [4, 4, 4]}})
    assert agrees(state, "dock 4 4 4 colony_constructor").paid_ore == 2


def test_terraforming_station_costs_one_fuel_and_one_ore() -> None:
    state = position(seats={"red": {"fuel": 1, "ore": 1, "unplaced": [6, 1, 1, 1]}})
    seen = agrees(state, "dock 6 terraforming_station")
    assert (seen.paid_fuel, seen.paid_ore, seen.decision) == (1, 1, "land")


def test_raiders_outpost_opens_the_raid() -> None:
    state = position(seats={"red": {"unplaced": [1, 2, 3]}, "green": {"fuel": 2}})
    assert agrees(state, "dock 1 2 3 raiders_outpost").decision == "raid"
    state, _ = play(state, "dock 1 2 3 raiders_outpost")
    seen = agrees(state, "steal green fuel")
    assert (seen.fuel, seen.ore) == (1, 0)


def test_ending_the_turn_previews_the_returns_but_not_the_next_roll() -> None:
    state = position(seats={"red": {"fuel": 6, "ore": 4}})
    seen = agrees(state, "end discard 2 fuel 0 ore")
    assert (seen.fuel, seen.ore) == (-2, 0) and "rolled" in seen.unseen
    assert all("values" not in ev for ev in seen.events)


def test_corex_board_pays_ore_per_territory_controlled() -> None:
    state = factions_position(colonies={"lem": {"red": 1}, "pohl": {"red": 1}},
                              seats={"red": {"fuel": 3, "unplaced": [4]}})
    seen = agrees(state, "dock 4 corex")
    assert (seen.paid_fuel, seen.ore) == (2, 2)


def test_dark_space_board_draws_a_card_it_does_not_name() -> None:
    state = factions_position(turn="blue", deck=["alien_city"],
                              seats={"blue": {"fuel": 2, "unplaced": [5]}})
    seen = agrees(state, "dock 5 dark_space")
    assert seen.unseen == ("drew",) and seen.payees == (1,) and seen.fuel == -2  # fee + cost
    assert "alien_city" not in repr(seen) and seen.cards_gained == () and seen.vp is None


def test_a_refused_action_has_no_preview() -> None:
    state = position(seats={"red": {"unplaced": [5]}})
    with pytest.raises(IllegalAction):
        preview(state, parse_action("dock 5 5 shipyard", 0, 2))


def test_every_legal_action_of_a_game_start_previews_what_apply_does() -> None:
    state = new_game(3, 11, {"factions": False})
    for action in legal_actions(state, state.turn.seat):
        agrees(state, format_action(action))


def test_menu_previews_leave_out_the_choices_a_pick_stands_for() -> None:
    # Four red ships at the Shipyard and Lunar Mine: the Cannon offers each subset, and the
    # turn page and mail show them as one pick with checkboxes, previewed by no choice of it.
    state = position(players=3, turn="blue",
                     seats={"red": {"docked": {"shipyard": [[3, 3]], "lunar_mine": [4, 5]}},
                            "blue": {"fuel": 4, "ore": 1, "unplaced": [2, 2, 6],
                                     "cards": ["cannon"]}})
    seen = view(state, 2)
    shots = [a for a in seen["legal"] if a["kind"] == "use_plasma_cannon"]
    assert len(shots) > 4 and seen["picks"]
    previews = menu_previews(state, seen["legal"], seen["picks"])
    assert not any(n.startswith("use plasma_cannon") for n in previews)
    others = [a for a in seen["legal"] if a["kind"] != "use_plasma_cannon"]
    assert len(previews) == len(others)
    assert previews["dock 6 lunar_mine"] == preview(state, parse_action("dock 6 lunar_mine", 2, 3))
