"""Issue 14, "Why, not only what": a gain or payment in the log says its cause when the
sentence does not already, and a territory's bonus inside a gain is explained."""

from __future__ import annotations

from pbem import engine
from pbem.engine.scenarios.position import build_state
from pbem.words import describe

NAMES = ["Ana", "Ben", "Gus"]


def test_a_faction_income_at_the_start_of_a_turn_says_it_is_income() -> None:
    events = [{"kind": "turn_started", "seat": 2, "round": 3},
              {"kind": "gained", "seat": 2, "fuel": 3, "ore": 0, "why": "corex_conglomerated"},
              {"kind": "rolled", "seat": 2, "values": [1, 2, 3]}]
    assert describe.describe(events, NAMES)[0] == "Gus took 3 fuel — Corex Conglomerated income."


def test_a_gain_the_docking_explains_needs_no_cause_but_a_card_payment_names_its_card() -> None:
    events = [{"kind": "docked", "seat": 0, "values": [5], "facility": "solar_converter"},
              {"kind": "gained", "seat": 0, "fuel": 3, "ore": 0, "why": "solar_converter"},
              {"kind": "paid", "seat": 0, "fuel": 1, "ore": 0, "why": "booster_pod"}]
    assert describe.describe(events, NAMES) == [
        "Ana docked 5 at the Solar Converter, took 3 fuel and paid 1 fuel for Booster Pod."]


def test_the_lem_badlands_bonus_is_in_the_engine_event_and_the_sentence() -> None:
    state = build_state({"players": 3, "turn": "red", "colonies": {"lem": {"red": 1}},
                         "seats": {"red": {"fuel": 1, "unplaced": [5]}}})
    assert state.controllers.get("lem_badlands") == 0
    state, events = engine.apply(state, engine.parse_action("dock 5 solar_converter", 0, 3))
    gained = next(ev for ev in events if ev["kind"] == "gained")
    assert gained["fuel"] == 4
    assert gained["bonus"] == "lem_badlands" and gained["bonus_amount"] == 1
    said = describe.describe(events, NAMES, viewer=1)
    assert ("Ana docked 5 at the Solar Converter and took 4 fuel (3 + 1 from the Lem Badlands "
            "bonus).") in said


def test_without_the_bonus_the_gain_carries_none() -> None:
    state = build_state({"players": 3, "turn": "red",
                         "seats": {"red": {"fuel": 1, "unplaced": [5]}}})
    state, events = engine.apply(state, engine.parse_action("dock 5 solar_converter", 0, 3))
    gained = next(ev for ev in events if ev["kind"] == "gained")
    assert gained["fuel"] == 3 and "bonus" not in gained


def test_the_agenda_discard_names_the_hand_limit() -> None:
    events = [{"kind": "must_discard_agendas", "seat": 1, "count": 1,
               "why": "multiverse_window"}]
    assert describe.describe(events, NAMES) == [
        "Ben has to discard 1 face-down Agenda: the Multiverse Window is gone, so the limit is "
        "3 Agendas (revealed ones count) again."]
    assert describe.agenda_limit_of(["multiverse_window"]) == 4
    assert describe.agenda_limit_of([]) == 3
