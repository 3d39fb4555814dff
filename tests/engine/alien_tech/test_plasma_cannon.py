"""Plasma Cannon: 1 fuel per ship to remove other players' ships from one facility; discard
sends one other player's ship to the stock (ruling B6)."""

from __future__ import annotations

from .helpers import menu, play, position, refused


def test_e31_plasma_cannon_clears_the_shipyard_of_two_red_ships_for_two_fuel() -> None:
    state = position(players=3, turn="blue",
                     seats={"red": {"docked": {"shipyard": [[3, 3], [5, 5]]}},
                            "blue": {"fuel": 3, "ore": 1, "unplaced": [2, 2, 4],
                                     "cards": ["cannon"]}})
    refused(state, "dock 2 2 shipyard", "every port is taken")
    after, _ = play(state, "use cannon shipyard red 3 red 3", "dock 2 2 shipyard")
    assert sorted(s.value for s in after.at("shipyard")) == [2, 2, 5, 5]
    assert sum(1 for s in after.ships if s.owner == 0 and s.loc == "maintenance_bay") == 2
    assert after.seats[2].fuel == 0 and after.seats[2].ore == 0


def test_e20_plasma_cannon_on_three_mine_ships_costs_two_with_pohl_foothills() -> None:
    state = position(colonies={"pohl": {"red": 1}},
                     seats={"green": {"docked": {"lunar_mine": [4, 5, 6]}},
                            "red": {"fuel": 2, "unplaced": [1], "cards": ["cannon"]}})
    after, _ = play(state, "use cannon lunar_mine green 4 green 5 green 6")
    assert after.at("lunar_mine") == []
    assert after.seats[0].fuel == 0


def test_e32_plasma_cannon_sends_a_terraforming_ship_to_the_stock() -> None:
    state = position(turn="green", seats={"red": {"docked": {"terraforming": [6]}, "bay": 3},
                                          "green": {"fuel": 1, "unplaced": [2],
                                                    "cards": ["cannon"]}})
    after, _ = play(state, "use cannon terraforming_station red 6")
    assert after.at("terraforming_station") == []
    assert sum(1 for s in after.ships if s.owner == 0 and s.loc == "stock") == 3


def test_plasma_cannon_never_targets_your_own_ships() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1], "cards": ["cannon"],
                                    "docked": {"lunar_mine": [4]}}})
    refused(state, "use cannon lunar_mine red 4", "Plasma Cannon", "never target your own")


def test_plasma_cannon_refused_for_a_ship_that_is_not_there() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [4]}},
                            "red": {"fuel": 2, "unplaced": [1], "cards": ["cannon"]}})
    refused(state, "use cannon lunar_mine green 5", "Plasma Cannon",
            "green has no ship showing 5 at the Lunar Mine")


def test_plasma_cannon_costs_one_fuel_per_ship() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [4, 5]}},
                            "red": {"fuel": 1, "unplaced": [1], "cards": ["cannon"]}})
    refused(state, "use cannon lunar_mine green 4 green 5", "Plasma Cannon", "costs 2 fuel")


def test_plasma_cannon_sends_a_relic_ship_to_the_bay_and_its_owner_keeps_it() -> None:
    state = position(colonies={"burroughs": {"green": 1}},
                     seats={"green": {"docked": {"lunar_mine": ["5r"]}},
                            "red": {"fuel": 1, "unplaced": [1], "cards": ["cannon"]}})
    after, _ = play(state, "use cannon lunar_mine green 5r")
    assert after.relic().loc == "maintenance_bay" and after.relic_owner == 1


def test_plasma_cannon_menu_offers_single_ships_and_the_whole_facility() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [4, 5]}},
                            "red": {"fuel": 2, "unplaced": [1], "cards": ["cannon"]}})
    uses = {t for t in menu(state) if t.startswith("use")}
    assert uses == {"use plasma_cannon lunar_mine green 4", "use plasma_cannon lunar_mine green 5",
                    "use plasma_cannon lunar_mine green 4 green 5"}


def test_e33_plasma_cannon_discard_sends_yellows_six_to_the_stock() -> None:
    state = position(players=4, seats={"yellow": {"docked": {"lunar_mine": [6]}, "bay": 5},
                                       "red": {"unplaced": [1], "cards": ["cannon"]}})
    after, _ = play(state, "discard cannon yellow 6 lunar_mine")
    assert after.at("lunar_mine") == []
    assert sum(1 for s in after.ships if s.owner == 3 and s.loc == "stock") == 1


def test_plasma_cannon_discard_refused_when_target_would_drop_below_three_ships() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [6]}, "bay": 2},
                            "red": {"unplaced": [1], "cards": ["cannon"]}})
    refused(state, "discard cannon green 6 lunar_mine", "Plasma Cannon",
            "at least 3 ships", "would keep 2", "B6")


def test_plasma_cannon_discard_does_not_count_a_terraforming_ship_ruling_b6() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [6], "terraforming": [6]},
                                      "bay": 2},
                            "red": {"unplaced": [1], "cards": ["cannon"]}})
    refused(state, "discard cannon green 6 lunar_mine", "Plasma Cannon", "would keep 2")


def test_plasma_cannon_discard_sends_the_relic_ship_home_ruling_b6() -> None:
    state = position(colonies={"burroughs": {"green": 1}},
                     seats={"green": {"docked": {"lunar_mine": ["6r"]}},
                            "red": {"unplaced": [1], "cards": ["cannon"]}})
    after, _ = play(state, "discard cannon green 6r lunar_mine")
    assert after.relic().loc == "burroughs_desert" and after.relic_owner is None


def test_plasma_cannon_shot_tables_list_the_sub_multisets_in_their_order() -> None:
    """The menu's shots, one table per size, are `sub_multisets` of the targets, in order."""
    from itertools import product

    from pbem.engine.alien_tech.common import sub_multisets
    from pbem.engine.alien_tech.plasma_cannon import UsePlasmaCannon, _shots

    pool = [(1, 3, False), (1, 3, False), (2, 5, False), (2, 5, True), (3, 1, False),
            (1, 6, False)]
    for mask in product((0, 1), repeat=len(pool)):
        every = tuple(sorted(t for t, keep in zip(pool, mask, strict=True) if keep))
        for most in range(len(every) + 1):
            tables = [shot for size in range(1, most + 1)
                      for shot in _shots(2, "shipyard", every, size)]
            expected = [UsePlasmaCannon(2, "shipyard", tuple(o for o, _, _ in chosen),
                                        tuple(v for _, v, _ in chosen),
                                        next((k for k, (_, _, r) in enumerate(chosen) if r),
                                             None))
                        for chosen in sub_multisets(every, most)]
            assert tables == expected, (every, most)


def test_counted_shots_are_the_shot_tables_made_one_at_a_time() -> None:
    """`Shots` (the count the greedy bot draws from) has the length of the shots listed and
    makes, at each index, the shot listed there: by every number of ships the fuel allows."""
    from itertools import product

    from pbem.engine.alien_tech.plasma_cannon import Shots, _shots_upto

    pool = [(1, 3, False), (1, 3, False), (1, 3, False), (2, 5, False), (2, 5, True),
            (3, 1, False), (1, 6, False), (3, 1, False)]
    for mask in product((0, 1), repeat=len(pool)):
        every = tuple(sorted(t for t, keep in zip(pool, mask, strict=True) if keep))
        for most in range(1, len(every) + 1):
            listed = list(_shots_upto(2, "lunar_mine", every, most))
            counted = Shots(2, [("lunar_mine", every, most)])
            assert len(counted) == len(listed), (every, most)
            assert [counted[i] for i in range(len(counted))] == listed, (every, most)
    two = Shots(1, [("shipyard", ((0, 3, False), (0, 3, False)), 2),
                    ("lunar_mine", ((2, 4, False), (3, 4, True)), 1)])
    assert len(two) == 4 and list(two) == [*_shots_upto(1, "shipyard", two.aims[0][1], 2),
                                           *_shots_upto(1, "lunar_mine", two.aims[1][1], 1)]
    assert two[-1] == two[3]


def test_counted_shots_of_a_position_are_its_listed_candidates() -> None:
    """In a position, the counted shots are `use_candidates`, with the fuel's limit."""
    from pbem.engine.alien_tech.plasma_cannon import counted_candidates, use_candidates

    state = position(players=4, turn="blue",
                     seats={"red": {"docked": {"shipyard": [[3, 3], [5, 5]],
                                               "lunar_mine": [4]}},
                            "green": {"docked": {"solar_converter": [2, 2, 6]}},
                            "blue": {"fuel": 2, "unplaced": [2, 2, 4], "cards": ["cannon"]}})
    listed = use_candidates(state, 2)
    assert listed and list(counted_candidates(state, 2)) == listed
    state.seats[2].fuel = 0
    assert len(counted_candidates(state, 2)) == 0 == len(use_candidates(state, 2))


def test_a_counted_power_is_taken_as_counted_by_the_menu() -> None:
    """The menu takes a counted family as it is (`legal_card_families`): only a power whose
    candidates are within the fuel and pass its own refusal may count them."""
    from pbem.engine.alien_tech.catalog import SPECS

    counted = [card.id for card in SPECS if card.use is not None and card.use.counted]
    assert counted == ["plasma_cannon"]
    for card in SPECS:
        if card.use is not None and card.use.counted is not None:
            assert card.use.candidates_within_fuel and card.use.candidates_pass_refusal
