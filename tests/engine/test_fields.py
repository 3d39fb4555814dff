"""Field generators (base-game.md §5): one operation to place, move and remove them."""

from __future__ import annotations

from pbem.engine import fields
from pbem.engine.events import Event
from pbem.engine.scoring import vp_breakdown
from pbem.engine.territories import has_bonus, landable

from .alien_tech.helpers import play, position, refused


def test_fields_start_off_the_planet_and_the_first_placement_goes_anywhere() -> None:
    state = position()
    assert set(state.fields.values()) == {None}
    assert fields.place_refusal(state, "isolation_field", "lem_badlands") is None


def test_a_field_moves_only_to_a_different_territory() -> None:
    state = position(fields={"repulsor": "lem"})
    reason = fields.place_refusal(state, "repulsor_field", "lem_badlands")
    assert reason is not None and "different territory" in reason
    events: list[Event] = []
    fields.place(state, "repulsor_field", "pohl_foothills", 0, events)
    assert state.fields["repulsor_field"] == "pohl_foothills"
    assert events[0]["kind"] == "field_moved"


def test_several_fields_may_share_a_territory() -> None:
    state = position(fields={"isolation": "lem", "positron": "lem"},
                     seats={"red": {"unplaced": [1], "cards": ["gravity"]}})
    after, _ = play(state, "discard gravity lem")
    assert set(after.fields.values()) == {"lem_badlands"}


def test_removing_needs_the_field_on_the_planet() -> None:
    state = position()
    assert fields.remove_refusal(state, "positron_field") == \
        "the Positron Field is not on the planet."


def test_isolation_cancels_the_bonus_for_its_controller() -> None:
    state = position(colonies={"pohl": {"red": 1}}, fields={"isolation": "pohl"})
    assert not has_bonus(state, 0, "pohl_foothills")
    assert state.controllers["pohl_foothills"] == 0  # control is not affected


def test_e22_isolation_on_pohl_foothills_takes_the_discount_from_its_controller() -> None:
    state = position(colonies={"pohl": {"red": 1}}, fields={"isolation": "pohl"},
                     seats={"red": {"fuel": 0, "unplaced": [2], "cards": ["booster_pod"]}})
    refused(state, "use booster_pod 2", "Booster Pod", "costs 1 fuel; you have 0")


def test_positron_field_gives_the_controller_one_vp() -> None:
    state = position(colonies={"lem": {"green": 1}},
                     seats={"red": {"unplaced": [1], "cards": ["data_crystal"]}})
    after, _ = play(state, "discard data_crystal lem")
    assert vp_breakdown(after, 1)["positron"] == 1
    assert vp_breakdown(after, 0)["positron"] == 0


def test_e24_repulsor_field_lets_no_colony_land_there() -> None:
    state = position(fields={"repulsor": "asimov"},
                     seats={"red": {"ore": 3, "unplaced": [4, 4, 4]}})
    assert "asimov_crater" not in landable(state)
    after, _ = play(state, "dock 4 4 4 colony_constructor")
    refused(after, "land asimov", "Repulsor Field")


def test_repulsor_field_never_stops_a_field_from_moving() -> None:
    state = position(fields={"repulsor": "asimov"},
                     seats={"red": {"unplaced": [1], "cards": ["gravity"]}})
    after, _ = play(state, "discard gravity lem")
    assert after.fields["repulsor_field"] == "lem_badlands"


def test_colony_moves_are_refused_at_both_ends_of_a_repulsor_field() -> None:
    state = position(fields={"repulsor": "asimov"})
    assert fields.colony_move_refusal(state, "lem_badlands") is None
    assert "Asimov Crater" in (fields.colony_move_refusal(state, "lem_badlands",
                                                          "asimov_crater") or "")
