"""Issue 14, "Why, not only what": a gain or payment in the log says its cause when the
sentence does not already, and a territory's bonus inside a gain is explained."""

from __future__ import annotations

import random
import re

from pbem import engine
from pbem.engine import bots
from pbem.engine.bots.easy import easy_bot
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


# -- issue 26: every log line that moves resources names its cause -------------------------

def test_tokens_returned_at_the_end_of_a_turn_say_the_limit() -> None:
    events = [{"kind": "returned_resources", "seat": 2, "fuel": 4, "ore": 0},
              {"kind": "turn_ended", "seat": 2, "to_bay": 0}]
    assert describe.describe(events, NAMES) == [
        "Gus returned 4 fuel to the supply at the end of the turn (8 fuel and ore at most)."]


def test_fuel_returned_to_the_solar_harvester_names_the_card() -> None:
    state = build_state({"players": 3, "turn": "red", "options": {"factions": True},
                         "seats": {"red": {"unplaced": [1], "cards": ["solar_harvester"]},
                                   "green": {"fuel": 4}}})
    state, events = engine.apply(state, engine.parse_action("discard solar_harvester", 0, 3))
    assert "Ben returned 4 fuel to the supply (Solar Harvester's discard power)." in \
        describe.describe(events, NAMES)


def test_a_contested_bonus_says_what_it_gives_and_through_what() -> None:
    events = [{"kind": "borrowed_bonus", "seat": 2, "territory": "asimov_crater",
               "why": "uranian_syndicate"}]
    assert describe.describe(events, NAMES) == [
        "Gus used the bonus of Asimov Crater through the Uranian Syndicate board this turn: "
        "+1 Colonist Hub advance once per turn after 2+ ships docked there."]
    crystal = [{"kind": "used_card", "seat": 0, "card": "data_crystal", "fuel": 1},
               {"kind": "borrowed_bonus", "seat": 0, "territory": "lem_badlands",
                "card": "data_crystal"}]
    assert describe.describe(crystal, NAMES) == [
        "Ana used Data Crystal for 1 fuel and used the bonus of Lem Badlands this turn: +1 fuel "
        "per ship at the Solar Converter."]


def test_a_raid_step_on_its_own_line_says_it_is_the_raid() -> None:
    steps = [[{"kind": "stole", "seat": 0, "victim": 1, "resource": "fuel"}],
             [{"kind": "stole_card", "seat": 0, "victim": 2, "card": "plasma_cannon"}]]
    assert [describe.describe(step, NAMES, viewer=1) for step in steps] == [
        ["Ana took 1 fuel from you in the raid."],
        ["Ana took Plasma Cannon from Gus in the raid."]]


MOVES = re.compile(r"\b(took|paid|returned) (\d+ (fuel|ore)|nothing)")
# a sentence whose lead already is the cause (a docking, a trade, a card, a raid, a pay-out)
LEADS_THE_CAUSE = re.compile(r"^\S+ (docked|traded|used|discarded|got)")
CAUSE = re.compile(r" — | for | from the | in the raid| to the supply \(| at the end of the "
                   r"turn| this turn")


def test_every_sentence_of_random_games_that_moves_resources_names_its_cause() -> None:
    rng = random.Random(26)
    uncaused: set[str] = set()
    for _ in range(6):
        players = rng.choice((2, 3, 4, 5))
        state = engine.new_game(players, rng.randrange(2**31),
                                {"factions": players == 5 or rng.random() < 0.7})
        salt = [rng.randrange(2**31), 0]
        while state.phase != "over":
            seat = engine.awaited(state)
            assert seat is not None
            bot = bots.random_bot if rng.random() < 0.5 else easy_bot
            state, events = engine.apply(state, bot(bots.redacted(state, seat), seat, salt))
            for line in describe.describe(events, ["Ana", "Ben", "Cy", "Di", "Ed"][:players]):
                if MOVES.search(line) and not (LEADS_THE_CAUSE.search(line)
                                               or CAUSE.search(line)):
                    uncaused.add(line)
    assert not uncaused, sorted(uncaused)
