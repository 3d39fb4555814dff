"""Chameleon Cloak (ruling T2): 2 fuel replaces opponents' ships at one facility with yours
of the same values, paying the cost and gaining the benefit as if docked (whole groups; no
Lunar Mine order test; a replaced Raiders' run raids); never at the Terraforming Station, at
the Colonist Hub only with 5 players. Discard: swap all colonies of two territories, not with
the Repulsor Field."""

from __future__ import annotations

from typing import Any

from pbem.engine import apply_in_place, awaited, new_game
from pbem.engine.bots import greedy_bot, random_bot

from .helpers import menu, play, position, refused

F = {"factions": True}


def test_cloak_replaces_artifact_ships_and_counts_them_for_a_claim() -> None:
    state = position(options=F, players=4, turn="yellow", display=["plasma_cannon"], seats={
        "red": {"docked": {"alien_artifact": [3, 5]}},
        "green": {"docked": {"alien_artifact": [6, 2]}},
        "yellow": {"fuel": 2, "unplaced": [2, 3, 5, 6], "cards": ["cloak"]}})
    after, _ = play(state, "use cloak alien_artifact red 5 green 6")
    assert after.turn.artifact_total == 11
    assert "claim plasma_cannon" in menu(after)
    assert sum(1 for s in after.ships if s.loc == "maintenance_bay" and s.owner in (0, 1)) >= 2


def test_each_ship_the_cloak_places_at_the_artifact_owes_its_own_cycle() -> None:
    """Rulings T2a, B16: two ships placed by one use, two cycles right after it."""
    state = position(options=F, players=4, turn="yellow", seats={
        "red": {"docked": {"alien_artifact": [3, 5]}},
        "green": {"docked": {"alien_artifact": [6, 2]}},
        "yellow": {"fuel": 2, "unplaced": [2, 3, 5, 6], "cards": ["cloak"]}})
    after, _ = play(state, "use cloak alien_artifact red 5 green 6", "cycle")
    assert "cycle" in menu(after)
    after, _ = play(after, "cycle")
    refused(after, "cycle", "Alien Artifact", "once right after each ship")


def test_cloak_at_the_lunar_mine_skips_the_order_test_and_gives_ore() -> None:
    state = position(options=F, players=4, seats={
        "green": {"docked": {"lunar_mine": [6, 5, 5, 3, 2]}},
        "red": {"fuel": 2, "unplaced": [3, 2, 5], "cards": ["cloak"]}})
    after, _ = play(state, "use cloak lunar_mine green 2 green 3")
    assert after.seats[0].ore == 2 and after.seats[0].fuel == 0
    assert sorted(s.value for s in after.at("lunar_mine") if s.owner == 0) == [2, 3]


def test_cloak_replaces_a_whole_group_only() -> None:
    state = position(options=F, seats={
        "green": {"docked": {"orbital_market": [[4, 4]]}},
        "red": {"fuel": 2, "unplaced": [4], "cards": ["cloak"]}})
    refused(state, "use cloak orbital_market green 4", "Chameleon Cloak", "whole group")


def test_cloak_never_replaces_a_group_left_partly_empty() -> None:
    """Ruling T2 "as if you had docked": one ship left of a Shipyard pair is no pair."""
    state = position(options=F, seats={
        "green": {"docked": {"shipyard": [[5]]}},
        "red": {"fuel": 6, "ore": 3, "unplaced": [5, 5], "cards": ["cloak"]}})
    refused(state, "use cloak shipyard green 5", "Chameleon Cloak", "cannot be replaced")


def test_the_five_seat_game_that_crashed_on_a_partial_shipyard_group_plays_to_its_end() -> None:
    """Issue 12 point 9: seed 124, 5 seats, a greedy move when (seed + step) % 3, else a
    random one; at step 27 `use chameleon_cloak shipyard purple 5` passed the check and then
    raised IndexError in the Shipyard's docking. Every move now passes `check` first."""
    seed = 124
    state = new_game(5, seed, F)
    rng = [seed, 0]
    step = 0
    while state.phase != "over" and step < 5000:
        seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
        bot = greedy_bot if (seed + step) % 3 else random_bot
        apply_in_place(state, bot(state, seat, rng))
        step += 1
    assert state.phase == "over"


def test_cloak_pays_the_facility_cost_at_the_shipyard() -> None:
    state = position(options=F, seats={
        "green": {"docked": {"shipyard": [[3, 3]]}},
        "red": {"fuel": 2, "unplaced": [3, 3], "cards": ["cloak"]}})
    refused(state, "use cloak shipyard green 3 green 3", "Shipyard", "cannot pay")
    state.seats[0].fuel, state.seats[0].ore = 3, 1
    after, _ = play(state, "use cloak shipyard green 3 green 3")
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 0)
    assert sum(1 for s in after.ships if s.owner == 0 and s.loc == "stock") == 2


def test_cloak_on_the_raiders_run_raids() -> None:
    state = position(options=F, seats={
        "green": {"fuel": 3, "docked": {"raiders_outpost": [2, 3, 4]}},
        "red": {"fuel": 2, "unplaced": [2, 3, 4], "cards": ["cloak"]}})
    after, _ = play(state, "use cloak raiders green 2 green 3 green 4")
    assert after.turn.pending is not None and after.turn.pending["kind"] == "raid"
    assert awaited(after) == 0


def test_cloak_is_refused_at_the_terraforming_station_and_the_hub() -> None:
    state = position(options=F, seats={
        "green": {"docked": {"terraforming": [6], "colonist_hub": [2]}, "hub": 1, "bay": 3},
        "red": {"fuel": 2, "unplaced": [6, 2], "cards": ["cloak"]}})
    refused(state, "use cloak terraforming green 6", "Chameleon Cloak", "Terraforming Station")
    refused(state, "use cloak colonist_hub green 2", "Chameleon Cloak", "only with 5 players")


def test_cloak_needs_your_own_ships_of_the_same_values() -> None:
    state = position(options=F, seats={
        "green": {"docked": {"lunar_mine": [5]}},
        "red": {"fuel": 2, "unplaced": [4], "cards": ["cloak"]}})
    refused(state, "use cloak lunar_mine green 5", "Chameleon Cloak", "showing 5")


def test_cloak_never_replaces_your_own_ships() -> None:
    state = position(options=F, seats={
        "red": {"fuel": 2, "unplaced": [5], "cards": ["cloak"], "docked": {"lunar_mine": [5]}}})
    refused(state, "use cloak lunar_mine red 5", "Chameleon Cloak", "own ships")


def test_cloak_discard_swaps_all_colonies_of_two_territories() -> None:
    state = position(options=F, colonies={"burroughs": {"green": 1}, "lem": {"red": 2}},
                     seats={"red": {"unplaced": [1], "cards": ["cloak"]}})
    after, _ = play(state, "discard cloak burroughs_desert lem_badlands")
    assert after.colonies["burroughs_desert"] == [2, 0]
    assert after.colonies["lem_badlands"] == [0, 1]
    assert after.controllers["burroughs_desert"] == 0
    assert after.controllers["lem_badlands"] == 1


def test_cloak_discard_is_blocked_by_the_repulsor_field() -> None:
    state = position(options=F, colonies={"burroughs": {"green": 1}, "lem": {"red": 2}},
                     fields={"repulsor": "lem"},
                     seats={"red": {"unplaced": [1], "cards": ["cloak"]}})
    refused(state, "discard cloak burroughs lem", "Chameleon Cloak", "Repulsor Field")


def test_the_relic_ship_you_control_may_replace_ruling_t2b() -> None:
    """Ruling T2b: any unplaced ship you command replaces, the Relic Ship included."""
    state = position(options=F, colonies={"burroughs": {"red": 1}}, seats={
        "green": {"docked": {"lunar_mine": [5]}},
        "red": {"fuel": 2, "unplaced": [2, "5r"], "cards": ["cloak"]}})
    refused(state, "use cloak lunar_mine green 5", "Chameleon Cloak", "showing 5")
    assert "use chameleon_cloak lunar_mine green 5 with 5r" in menu(state)
    after, _ = play(state, "use cloak lunar_mine green 5 with 5r")
    assert after.relic().loc == "lunar_mine" and after.seats[0].ore == 1
    refused(state, "use cloak lunar_mine green 5 with 2r", "Chameleon Cloak",
            "no unplaced Relic Ship showing 2")


def test_cloak_notation_round_trips_with_the_relic_ship_and_old_forms_still_parse() -> None:
    from pbem.engine import action_from_json, action_to_json, format_action, parse_action
    from pbem.engine.alien_tech.chameleon_cloak import UseChameleonCloak

    for text in ("use chameleon_cloak alien_artifact red 5 red 6",
                 "use chameleon_cloak alien_artifact red 5 green 6r with 6r",
                 "use chameleon_cloak shipyard red 3 red 3 blue 5 blue 5",
                 "use chameleon_cloak colonist_hub red 3 launch",
                 "use chameleon_cloak colonist_hub red 3 green 5 with 5r launch"):
        action = parse_action(text, 2, 4)
        assert format_action(action) == text
        assert parse_action(format_action(action), 2, 4) == action
        assert action_from_json(action_to_json(action)) == action
    old = {"kind": "use_chameleon_cloak", "seat": 1, "facility": "shipyard",
           "owners": [0, 0], "ships": [3, 3], "relic_at": None}
    assert action_from_json(old) == UseChameleonCloak(1, "shipyard", (0, 0), (3, 3))


def test_one_use_replaces_several_whole_groups_each_rewarded_in_turn_ruling_t2a() -> None:
    state = position(options=F, players=4, seats={
        "green": {"docked": {"orbital_market": [[3, 3]]}},
        "blue": {"docked": {"orbital_market": [[5, 5]]}},
        "red": {"fuel": 2, "unplaced": [3, 3, 5, 5], "cards": ["cloak"]}})
    text = "use chameleon_cloak orbital_market green 3 green 3 blue 5 blue 5"
    assert text in menu(state)
    after, _ = play(state, text)
    assert sorted(after.turn.market_rates) == [3, 5]  # each pair docked, as if on its own
    refused(state, "use cloak market green 3 blue 5", "Chameleon Cloak", "whole groups")


def test_several_groups_are_paid_one_after_another_ruling_t2a() -> None:
    """The second Shipyard pair pays for the next ship built, after the first."""
    seats = {"green": {"docked": {"shipyard": [[3, 3]]}},
             "blue": {"docked": {"shipyard": [[5, 5]]}},
             "red": {"fuel": 7, "ore": 4, "unplaced": [3, 3, 5, 5], "cards": ["cloak"]}}
    both = "use cloak shipyard green 3 green 3 blue 5 blue 5"
    refused(position(options=F, players=4, seats=seats), both, "Shipyard", "6th ship")
    seats["red"]["ore"] = 5
    after, _ = play(position(options=F, players=4, seats=seats), both)
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 0)
    assert sum(1 for s in after.ships if s.owner == 0 and s.loc == "stock") == 0


def test_two_constructor_triples_land_two_colonies_in_turn_ruling_t2a() -> None:
    state = position(options=F, players=3, seats={
        "green": {"docked": {"colony_constructor": [[2, 2, 2]]}},
        "blue": {"docked": {"colony_constructor": [[4, 4, 4]]}},
        "red": {"fuel": 2, "ore": 6, "unplaced": [2, 2, 2, 4, 4, 4], "cards": ["cloak"]}})
    after, _ = play(state, "use cloak constructor green 2 green 2 green 2 blue 4 blue 4 blue 4",
                    "land lem")
    assert after.turn.pending is not None and after.turn.pending["kind"] == "land"
    after, _ = play(after, "land lem")
    assert after.turn.pending is None and after.colonies["lem_badlands"][0] == 2


def test_five_player_hub_replacement_swaps_ports_and_counts_three_after_ruling_t2c() -> None:
    state = position(options=F, players=5, turn="purple", seats={
        "red": {"docked": {"colonist_hub": [5, 1]}, "hub": 2},
        "green": {"docked": {"colonist_hub": [2, 3, 4]}, "hub": 3},
        "blue": {"docked": {"colonist_hub": [6, 6, 6]}, "hub": 4},
        "yellow": {"docked": {"colonist_hub": [1, 2]}, "hub": 5},
        "purple": {"fuel": 2, "hub": 1, "docked": {"colonist_hub": [3, 3]},
                   "unplaced": [5, 2], "cards": ["cloak"]}})
    refused(state, "use cloak hub red 5 green 2", "Colonist Hub", "at most 3 ships")
    slot = next(s.slot for s in state.ships if s.owner == 0 and s.value == 5)
    after, _ = play(state, "use cloak hub red 5")  # a full Hub, a shared track: no matter
    mine = next(s for s in after.ships if s.owner == 4 and s.value == 5)
    assert mine.loc == "colonist_hub" and mine.slot == slot  # the replaced ship's port
    assert after.seats[4].hub_circle == 2 and after.seats[0].hub_circle == 2
    assert after.turn.hub_ships == 1


def _five_at_the_hub(purple_hub: int, sevens: int) -> dict[str, Any]:
    """Purple on circle `purple_hub` with the Cloak; Red's 2 and Green's 3 docked at the
    five-player Hub; the first `sevens` seats' colonies on 7th circles, one per track."""
    seats: dict[str, dict[str, Any]] = {
        "red": {"docked": {"colonist_hub": [2]}}, "green": {"docked": {"colonist_hub": [3]}},
        "blue": {}, "yellow": {},
        "purple": {"fuel": 3, "ore": 1, "hub": purple_hub, "unplaced": [2, 3],
                   "cards": ["cloak"]}}
    for track, colour in enumerate(("red", "green", "blue", "yellow")[:sevens]):
        seats[colour].update(hub=7, hub_track=track)
    return {"options": F, "players": 5, "turn": "purple", "seats": seats}


def test_a_hub_replacement_may_launch_like_the_docking_it_stands_for_ruling_t2c() -> None:
    """Rulings T2 ("gain its benefit as if you had docked"), T2c and F16: with every 7th
    circle taken, one ship replaced launches a colony from circle 6, paying 1 fuel + 1 ore
    after the Cloak's 2 fuel."""
    state = position(**_five_at_the_hub(6, 4))
    assert "use chameleon_cloak colonist_hub red 2 launch" in menu(state)
    assert "use chameleon_cloak colonist_hub red 2" not in menu(state)
    refused(state, "use cloak hub red 2", "Colonist Hub", "circle 7 is taken on every track")
    refused(state, "use cloak hub red 2 green 3 launch", "Colonist Hub", "exactly one ship")
    after, events = play(state, "use cloak hub red 2 launch")
    assert after.turn.pending == {"kind": "land", "seat": 4, "source": "launch",
                                  "why": "colonist_hub"}
    assert (after.seats[4].hub_circle, after.seats[4].fuel, after.seats[4].ore) == (0, 0, 0)
    assert after.seats[0].hub_circle == 7  # the replaced player's colony stays (T2c)
    assert [ev["kind"] for ev in events].count("launched") == 1


def test_a_launching_hub_replacement_keeps_the_advances_past_circle_7_ruling_b8() -> None:
    state = position(**_five_at_the_hub(6, 1))
    after, _ = play(state, "use cloak hub red 2 green 3 launch")
    me = after.seats[4]
    assert (me.hub_circle, me.colonies) == (1, 4)  # the second advance starts a colony
    assert after.turn.pending is not None and after.turn.pending["kind"] == "land"
    lost, _ = play(state, "use cloak hub red 2 green 3")
    assert (lost.seats[4].hub_circle, lost.seats[4].colonies) == (7, 5)  # B8: lost
    assert lost.turn.pending is None


def test_a_replacement_launches_only_at_the_hub_and_only_when_the_launch_is_paid() -> None:
    short = position(**_five_at_the_hub(5, 1))
    refused(short, "use cloak hub red 2 launch", "Colonist Hub", "must reach circle 7")
    poor = position(**_five_at_the_hub(6, 1))
    poor.seats[4].ore = 0
    refused(poor, "use cloak hub red 2 green 3 launch", "Colonist Hub", "cannot pay")
    elsewhere = position(options=F, players=4, seats={
        "green": {"docked": {"lunar_mine": [5]}},
        "red": {"fuel": 3, "ore": 1, "unplaced": [5], "cards": ["cloak"]}})
    refused(elsewhere, "use cloak lunar_mine green 5 launch", "Chameleon Cloak",
            "only a replacement at the Colonist Hub launches")


def test_the_page_gets_a_launching_pick_beside_the_plain_one_and_the_audit_agrees() -> None:
    from pbem.engine.menu.picks import picks
    from pbem.engine.rules import legal_actions
    from tests.engine.invariants import audit_menu, audit_picks

    state = position(**_five_at_the_hub(6, 1))
    hub = [p for p in picks(state, 4, legal_actions(state, 4)) if p.facility == "colonist_hub"]
    assert sorted((p.launch, p.notation()[2]) for p in hub) == [(False, ""), (True, "launch")]
    _, missing, extra = audit_menu(state)
    assert (missing, extra) == (0, 0)
    audit_picks(state)
