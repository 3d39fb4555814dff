"""Agendas (Factions): hand, deck, reveals, end-game scoring and privacy (rulings A1–A5)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from pbem.engine import apply, legal_actions, view
from pbem.engine.agendas import (
    AGENDA_IDS,
    agenda_limit,
    ask_discard,
    draw_agenda,
    finish,
    setup,
)
from pbem.engine.agendas.actions import DiscardAgenda, DrawAgendas, KeepAgendas, RevealAgenda
from pbem.engine.agendas.catalog import AGENDAS, SPECS
from pbem.engine.agendas.spec import AgendaSpec
from pbem.engine.bots import greedy_bot, redacted
from pbem.engine.errors import IllegalAction
from pbem.engine.flow import new_game
from pbem.engine.ids import Facility
from pbem.engine.notation import format_action, parse_action
from pbem.engine.scenarios import build_state
from pbem.engine.scoring import result, vp_breakdown
from pbem.engine.state import GameState
from tests.engine.rules_ids import ids_toml


def factions_state(players: int = 3, seed: int = 7) -> GameState:
    state = new_game(players, seed, {"factions": False})  # a base position, then the Agendas
    state.options["factions"] = True
    setup(state)
    return state


def position(**table: Any) -> GameState:
    table.setdefault("options", {"factions": True})
    return build_state(table)


def test_the_catalog_declares_the_24_agendas_of_ids_toml_in_order() -> None:
    assert list(AGENDA_IDS) == list(ids_toml()["agendas"])
    assert [spec.id for spec in SPECS] == list(AGENDAS) == list(AGENDA_IDS)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_each_agenda_declares_both_halves_and_one_way_to_latch_it(spec: AgendaSpec) -> None:
    assert spec.in_game_text and spec.end_game_text
    assert callable(spec.in_game) and callable(spec.end_game)
    ways = [bool(spec.reads), spec.docked is not None, spec.live]
    assert sum(ways) <= 1, "a half is read from facts alone, from the docked ships, or live"
    assert not (spec.markable and (spec.reads or spec.live))  # another's turn has no facts


def test_the_docked_halves_take_each_place_of_the_one_pass_once() -> None:
    places = sorted(spec.docked for spec in SPECS if spec.docked is not None)
    assert places == [0, 1, 2]  # conditions.docked_halves answers three


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_half_read_from_facts_alone_is_not_met_before_any_of_them_is_recorded(
        players: int) -> None:
    """A new turn's fold asks a fact-only half only if it recorded one of its facts
    (`facts.fold`, `latch`): with none recorded it must not be met."""
    state = new_game(players, 7)  # the default game: Factions
    for spec in SPECS:
        if spec.reads:
            assert not any(spec.in_game(state, seat, {}) for seat in range(players)), spec.id


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_lunar_mine_has_a_port_at_every_player_count(players: int) -> None:
    """`docked_halves` answers "not filled" when none of the seat's ships is at the mine."""
    from pbem.engine.board import group_count  # noqa: PLC0415

    assert group_count(new_game(players, 7), Facility.LUNAR_MINE) > 0


def test_setup_deals_two_face_down_to_each_seat_and_keeps_the_rest_in_the_deck() -> None:
    state = factions_state(4)
    dealt = [a for s in state.seats for a in s.agendas]
    assert all(len(s.agendas) == 2 for s in state.seats)
    assert sorted(dealt + state.agenda_deck) == sorted(AGENDA_IDS)
    assert factions_state(4).agenda_deck == state.agenda_deck  # seeded
    assert factions_state(4, seed=8).agenda_deck != state.agenda_deck


def test_limit_is_three_and_four_with_the_multiverse_window() -> None:
    state = factions_state()
    assert agenda_limit(state, 0) == 3
    state.seats[0].cards.append("multiverse_window")
    assert agenda_limit(state, 0) == 4


def test_losing_the_window_asks_for_a_face_down_discard_revealed_ones_never_go() -> None:
    state = factions_state()
    me = state.seats[1]
    me.revealed = ["six_ore", "low_roll"]
    me.agendas = ["fill_mine", "fill_solar"]
    assert ask_discard(state, 1)  # ruling T6: 4 Agendas, limit 3 without the Window
    assert state.turn.pending == {"kind": "discard_agendas", "seat": 1, "count": 1}
    legal = legal_actions(state, 1)
    assert KeepAgendas(1) not in legal and DiscardAgenda(1, 2) in legal
    new, events = apply(state, DiscardAgenda(1, 2))
    assert new.seats[1].agendas == ["fill_mine"]
    assert new.seats[1].revealed == ["six_ore", "low_roll"]
    assert new.turn.pending is None  # the active player's turn resumes (ruling C5)
    assert new.agenda_discard[-1] == "fill_solar"
    assert "fill_solar" not in json.dumps(events)


def test_an_exhausted_deck_reshuffles_its_discards_seeded() -> None:
    state = factions_state()
    state.agenda_deck = []
    state.agenda_discard = ["six_ore", "fill_mine", "low_roll"]
    events: list[dict[str, Any]] = []
    drawn = draw_agenda(state, events)
    assert drawn in ("six_ore", "fill_mine", "low_roll")
    assert state.agenda_discard == [] and len(state.agenda_deck) == 2
    assert events[0]["kind"] == "agendas_reshuffled" and events[0]["barrier"]


def test_draw_over_the_limit_then_keep_any_number() -> None:
    state = position(players=2, seats={"red": {"unplaced": [2, 2], "agendas": ["six_ore"]}},
                     agenda_deck=["low_roll", "fill_mine"])
    state, _ = apply(state, parse_action("dock 2 2 market", 0))
    state, events = apply(state, DrawAgendas(0))
    assert sorted(state.seats[0].agendas) == ["fill_mine", "low_roll", "six_ore"]
    assert state.turn.pending == {"kind": "discard_agendas", "seat": 0, "count": 0,
                                  "optional": True}
    assert any(e.get("barrier") for e in events)
    state, _ = apply(state, DiscardAgenda(0, 1))  # a player may keep fewer (ruling A3)
    state, _ = apply(state, KeepAgendas(0))
    assert state.seats[0].agendas == ["low_roll", "fill_mine"]
    with pytest.raises(IllegalAction):
        apply(state, DrawAgendas(0))


def test_a_pair_that_left_the_market_draws_no_agendas_ruling_a1a() -> None:
    """Ruling A1a: like a trade, a draw needs the pair still docked when you draw."""
    for card, leave in (("orbital_teleporter", "use teleporter market 2 solar"),
                        ("astrogation_servo", "discard servo market")):
        state = position(players=2, seats={"red": {"fuel": 2, "unplaced": [2, 2],
                                                   "cards": [card]}})
        state, _ = apply(state, parse_action("dock 2 2 market", 0))
        assert DrawAgendas(0) in legal_actions(state, 0)
        state, _ = apply(state, parse_action(leave, 0))
        assert DrawAgendas(0) not in legal_actions(state, 0)
        with pytest.raises(IllegalAction, match="left the Market"):
            apply(state, DrawAgendas(0))


def test_reveal_only_on_your_turn_and_only_when_met() -> None:
    state = position(players=2, seats={"red": {"unplaced": [1, 2, 3, 4, 5],
                                               "agendas": ["five_in_a_row", "six_ore"]}})
    assert RevealAgenda(0, "five_in_a_row") in legal_actions(state, 0)
    assert RevealAgenda(0, "six_ore") not in legal_actions(state, 0)
    state, events = apply(state, RevealAgenda(0, "five_in_a_row"))
    assert vp_breakdown(state, 0)["agendas"] == 1
    assert events[-1]["agenda"] == "five_in_a_row"


def test_unique_techs_met_on_another_turn_is_revealable_on_your_next_turn() -> None:
    state = position(players=2, turn="green",
                     seats={"red": {"cards": ["booster_pod", "data_crystal", "stasis_beam",
                                              "polarity_device"],
                                    "agendas": ["four_unique_techs"]},
                            "green": {"cards": ["polarity_device"], "unplaced": [1, 2, 3]}})
    red = state.seats[0]
    assert "four_unique_techs" not in red.marks.get("met", [])
    state, _ = apply(state, parse_action("dock 1 2 3 raiders", 1))
    state, _ = apply(state, parse_action("steal red polarity_device", 1))
    assert "four_unique_techs" not in state.seats[0].marks.get("met", [])  # Red lost it...
    state.seats[0].cards.append("temporal_warper")  # ...and some other way gains one back
    state, _ = apply(state, parse_action("end", 1))
    assert "four_unique_techs" in state.turn.facts["met"]


@pytest.mark.parametrize("agenda", AGENDA_IDS)
def test_end_game_half_is_revealed_automatically_only_when_it_holds(agenda: str) -> None:
    holding, failing = END_GAME_POSITIONS[agenda]
    for table, expected in ((holding, True), (failing, False)):
        seats = table.setdefault("seats", {})
        seats.setdefault("red", {})["agendas"] = [agenda]
        state = position(players=3, turn="green", **table)
        state.phase = "over"
        finish(state, [])
        assert (agenda in state.seats[0].revealed) is expected, (agenda, expected)


CONTROL = {"colonies": {}}


def _control(t: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return {"colonies": {t: {"red": 2, "green": 1}}}, {"colonies": {t: {"red": 1, "green": 1}}}


def _hold(a: str, b: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return {"seats": {"red": {"cards": [a, b]}}}, {"seats": {"red": {"cards": [a]}}}


def _absent(t: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return {"colonies": {t: {"green": 1}}}, {"colonies": {t: {"red": 1}}}


END_GAME_POSITIONS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "fleet_of_seven": _hold("resource_cache", "oscillation_capacitor"),
    "five_in_a_row": _control("pohl_foothills"),
    "three_colonies_one_turn": _control("herbert_valley"),
    "four_of_a_kind": _control("van_vogt_mountains"),
    "two_takeovers": _hold("plasma_cannon", "electrofabricator"),
    "six_ore": ({"colonies": {"lem_badlands": {"red": 1}}},
                {"colonies": {"lem_badlands": {"red": 2}}}),
    "four_unique_techs": _control("asimov_crater"),
    "isolated_landing": _control("bradbury_plateau"),
    "bump_yourself": ({"colonies": {"lem_badlands": {"red": 3, "green": 2, "blue": 1}}},
                      {"colonies": {"lem_badlands": {"red": 3, "green": 2}}}),
    "twelve_fuel": ({"colonies": {"lem_badlands": {"red": 1}},
                     "fields": {"isolation_field": "lem_badlands",
                                "positron_field": "lem_badlands",
                                "repulsor_field": "lem_badlands"}},
                    {"colonies": {"lem_badlands": {"red": 1}},
                     "fields": {"isolation_field": "lem_badlands",
                                "positron_field": "lem_badlands"}}),
    "two_techs_one_turn": _hold("stasis_beam", "solar_harvester"),
    "last_to_first": _hold("booster_pod", "experimental_ftl_drive"),
    "shared_gain": _control("burroughs_desert"),
    "seize_and_use": _control("heinlein_plains"),
    "five_hub_steps": _control("lem_badlands"),
    "rob_everyone": _hold("polarity_device", "multiverse_window"),
    "two_ships_one_turn": _absent("van_vogt_mountains"),
    "artifact_eight": _absent("pohl_foothills"),
    "fill_solar": _absent("heinlein_plains"),
    "repulsor_placed": _absent("lem_badlands"),
    "five_facilities": _absent("burroughs_desert"),
    "fill_mine": _absent("herbert_valley"),
    "launch_and_restart": _absent("asimov_crater"),
    "low_roll": _absent("bradbury_plateau"),
}


def test_game_end_reveals_end_game_halves_and_still_revealable_in_game_ones() -> None:
    state = position(players=2, seats={
        "red": {"unplaced": [2, 2, 2], "ore": 3, "colonies": 1, "agendas": ["six_ore"]},
        "green": {"agendas": ["fleet_of_seven", "low_roll"], "cards": ["resource_cache"]}},
        colonies={"lem_badlands": {"red": 5}, "bradbury_plateau": {"green": 1}},
        turn_facts={"facts": {"ore": 6}})
    state, _ = apply(state, parse_action("dock 2 2 2 constructor", 0))
    state, events = apply(state, parse_action("land herbert", 0))
    assert state.phase == "over"
    assert state.seats[0].revealed == ["six_ore"]  # in-game half met this turn (ruling A4)
    assert state.seats[1].revealed == []  # Green has colonies on Bradbury, no Capacitor
    assert state.result is not None and state.result["agendas"] == [["six_ore"], []]
    assert state.result["scores"][0]["agendas"] == 1
    assert result(state)["scores"][0]["total"] == vp_breakdown(state, 0)["total"]


def test_base_game_records_no_agenda_facts_and_offers_no_agenda_actions() -> None:
    state = new_game(2, 3, {"factions": False})
    assert state.turn.facts == {}
    assert not any(isinstance(a, DrawAgendas | RevealAgenda)
                   for a in legal_actions(state, 0))


@pytest.mark.parametrize("text", ["draw agendas", "keep agendas", "discard agenda 2",
                                  "reveal six_ore", "discard booster_pod isolation_field"])
def test_notation_round_trips(text: str) -> None:
    assert format_action(parse_action(text, 0, 3)) == text


# -- privacy (ruling A5) -------------------------------------------------------------------

def test_face_down_agendas_never_appear_in_another_seats_view() -> None:
    state = factions_state(4)
    for owner in range(4):
        for viewer in (None, *[i for i in range(4) if i != owner]):
            text = json.dumps(view(state, viewer))
            for agenda in state.seats[owner].agendas:
                assert agenda not in text, (owner, viewer, agenda)
        assert view(state, owner)["you"]["agendas"] == state.seats[owner].agendas
    for agenda in state.agenda_deck:
        for viewer in (None, 0, 1, 2, 3):
            assert agenda not in json.dumps(view(state, viewer))


def test_a_revealed_agenda_is_public() -> None:
    state = factions_state(2)
    state.seats[0].revealed.append(state.seats[0].agendas.pop())
    assert state.seats[0].revealed[0] in json.dumps(view(state, 1))


def test_redacted_state_hides_other_seats_agendas_and_the_deck() -> None:
    state = factions_state(3)
    copy = redacted(state, 1)
    assert copy.seats[1].agendas == state.seats[1].agendas
    for other in (0, 2):
        assert not set(copy.seats[other].agendas) & set(AGENDA_IDS)
    assert not set(copy.agenda_deck) & set(AGENDA_IDS)


def test_the_greedy_bot_plays_a_factions_position_without_peeking() -> None:
    state = position(players=2, seats={"red": {"unplaced": [1, 2, 3, 4, 5],
                                               "agendas": ["five_in_a_row"]}})
    action = greedy_bot(redacted(state, 0), 0, [1, 0])
    assert action == RevealAgenda(0, "five_in_a_row")


def _folded_steps(seed: int) -> Iterator[tuple[GameState, dict[str, Any], list[dict[str, Any]]]]:
    """Each step of a mixed greedy and random 4-seat Factions game whose events the fold
    reads: the state after it, the turn's facts before it (a copy) and its events."""
    from pbem.engine import apply_in_place  # noqa: PLC0415
    from pbem.engine.agendas import facts as facts_module  # noqa: PLC0415
    from pbem.engine.bots import random_bot  # noqa: PLC0415
    from pbem.engine.rules import awaited  # noqa: PLC0415

    state, rng = new_game(4, seed), [seed, 0]
    while state.phase != "over" and state.step < 3000:
        seat = awaited(state)
        assert seat is not None
        bot = greedy_bot if state.step % 3 else random_bot
        before = copy.deepcopy(state.turn.facts)
        events = apply_in_place(state, bot(state, seat, rng))
        if state.phase != "over" and facts_module.active(state):
            yield state, before, events


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_each_event_names_every_fact_it_changes(seed: int) -> None:
    """`latch` asks a fact-only condition again only after a fold that may have written one
    of its facts, as each event's branch names them (`facts._fold_one`): folding every event
    of real games one at a time, each changes no fact it does not name."""
    from pbem.engine.agendas import facts as facts_module  # noqa: PLC0415

    read = sorted({key for spec in SPECS for key in spec.reads})
    folded = 0
    for state, facts, events in _folded_steps(seed):
        if any(ev["kind"] == "turn_started" for ev in events):
            continue
        for ev in events:
            old = [copy.deepcopy(facts.get(key)) for key in read]
            named = facts_module._fold_one(state, state.turn.seat, facts, ev)
            changed = {key for key, was in zip(read, old, strict=True) if facts.get(key) != was}
            assert changed <= set(named), (ev, changed, named)
            folded += 1
    assert folded > 200


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_an_event_of_a_kind_not_folded_records_nothing(seed: int) -> None:
    """`fold` skips an event of a kind not in `FOLDED_KINDS` without asking `_fold_one`:
    folding every event of real games one at a time, one of any other kind changes no fact
    and names none."""
    from pbem.engine.agendas import facts as facts_module  # noqa: PLC0415

    skipped = 0
    for state, facts, events in _folded_steps(seed):
        for ev in events:
            if ev["kind"] == "turn_started":
                facts = copy.deepcopy(state.turn.facts)  # the new turn's, already folded
            was = copy.deepcopy(facts)
            named = facts_module._fold_one(state, state.turn.seat, facts, ev)
            if ev["kind"] not in facts_module.FOLDED_KINDS:
                assert not named and facts == was, ev
                skipped += 1
    assert skipped > 200
