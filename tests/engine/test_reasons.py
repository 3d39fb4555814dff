"""`unavailable`: every facility the awaited seat cannot dock at gets the rules' own sentence,
and no facility that offers a docking is ever called closed."""

from __future__ import annotations

from pbem import engine
from pbem.engine import new_game
from pbem.engine.facilities import candidates, dock_refusal
from pbem.engine.reasons import unavailable
from pbem.engine.rules import awaited


def test_terraforming_with_three_ships_names_the_fleet_minimum() -> None:
    state = new_game(3, 20240601, {"factions": False})  # Ana rolled 6 6 6, owns 3 ships
    reasons = unavailable(state, 0)
    assert reasons["terraforming_station"] == (
        "Terraforming Station: the ship is used up, and you may not go below 3 ships of "
        "your colour.")
    assert "3 ore" in reasons["colony_constructor"]
    assert "Raiders' Outpost takes three ships of consecutive values" in reasons[
        "raiders_outpost"]


def test_closed_and_offered_facilities_never_overlap_and_each_reason_is_a_refusal() -> None:
    for seed in range(1, 40):
        for options in ({"factions": False}, {"factions": True}):
            state = new_game(4, seed, options)
            seat = awaited(state)
            assert seat is not None
            reasons = unavailable(state, seat)
            offered = {a.facility for a in engine.legal_actions(state, seat)
                       if a.kind == "dock"}
            assert not offered & set(reasons)
            for fid, why in reasons.items():
                assert why.endswith("."), (fid, why)
            closed = [d for d in candidates(state, seat) if d.facility in reasons]
            assert all(dock_refusal(state, d) for d in closed)


def test_nothing_is_closed_for_a_seat_that_is_not_placing_ships() -> None:
    state = new_game(3, 20240601, {"factions": False})
    assert unavailable(state, 1) == {}
    drafting = new_game(4, 3, {"factions": True})
    assert drafting.phase == "draft"
    assert unavailable(drafting, awaited(drafting) or 0) == {}
