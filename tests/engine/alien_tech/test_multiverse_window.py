"""Multiverse Window (ruling T6): Agenda limit 4 while held; on losing it a holder over 3
with face-down Agendas discards down to 3 — the game waits for them (C5), then the turn
resumes; discard: reveal a face-down Agenda, scoring it without its condition."""

from __future__ import annotations

from pbem.engine import awaited
from pbem.engine.agendas import agenda_limit

from .helpers import menu, play, position, refused

F = {"factions": True}


def test_window_holder_may_keep_four_agendas() -> None:
    state = position(options=F, seats={"red": {"cards": ["window"], "unplaced": [1]}})
    assert agenda_limit(state, 0) == 4 and agenda_limit(state, 1) == 3


def test_stolen_window_makes_its_holder_discard_down_to_three_then_the_turn_resumes() -> None:
    state = position(options=F, turn="blue", players=3, seats={
        "red": {"cards": ["multiverse_window"], "revealed": ["six_ore", "twelve_fuel"],
                "agendas": ["fleet_of_seven", "five_in_a_row"]},
        "blue": {"unplaced": [2, 3, 4, 6]}})
    after, _ = play(state, "dock 2 3 4 raiders", "steal red multiverse_window")
    assert awaited(after) == 0 and after.turn.seat == 2
    assert after.turn.pending is not None and after.turn.pending["count"] == 1
    after, _ = play(after, "discard agenda 2", seat=0)
    assert after.seats[0].agendas == ["fleet_of_seven"]
    assert after.agenda_discard == ["five_in_a_row"]
    assert awaited(after) == 2 and after.turn.pending is None
    assert "dock 6 solar_converter" in menu(after)


def test_losing_the_window_asks_nothing_when_three_or_fewer_remain() -> None:
    state = position(options=F, turn="blue", players=3, seats={
        "red": {"cards": ["multiverse_window"], "agendas": ["fleet_of_seven", "six_ore"]},
        "blue": {"unplaced": [2, 3, 4]}})
    after, _ = play(state, "dock 2 3 4 raiders", "steal red multiverse_window")
    assert after.turn.pending is None and awaited(after) == 2


def test_window_discard_reveals_and_scores_an_agenda_without_its_condition() -> None:
    state = position(options=F, seats={"red": {"cards": ["multiverse_window"], "unplaced": [1],
                                                "agendas": ["fleet_of_seven", "six_ore"]}})
    after, _ = play(state, "discard multiverse_window six_ore")
    assert after.seats[0].revealed == ["six_ore"]
    assert after.seats[0].agendas == ["fleet_of_seven"]
    assert after.turn.pending is None


def test_window_discard_with_four_revealed_keeps_them_all() -> None:
    state = position(options=F, seats={"red": {
        "cards": ["multiverse_window"], "unplaced": [1],
        "revealed": ["six_ore", "twelve_fuel", "five_in_a_row"], "agendas": ["fleet_of_seven"]}})
    after, _ = play(state, "discard multiverse_window fleet_of_seven")
    assert len(after.seats[0].revealed) == 4 and after.turn.pending is None


def test_window_discard_leaving_four_with_one_face_down_asks_to_discard_it() -> None:
    state = position(options=F, seats={"red": {
        "cards": ["multiverse_window"], "unplaced": [1],
        "revealed": ["six_ore", "twelve_fuel"], "agendas": ["fleet_of_seven", "five_in_a_row"]}})
    after, _ = play(state, "discard multiverse_window five_in_a_row")
    assert after.turn.pending is not None and after.turn.pending["count"] == 1
    after, _ = play(after, "discard agenda 1")
    assert after.seats[0].agendas == [] and len(after.seats[0].revealed) == 3


def test_window_discard_refused_without_that_face_down_agenda() -> None:
    state = position(options=F, seats={"red": {"cards": ["multiverse_window"], "unplaced": [1],
                                                "agendas": ["fleet_of_seven"],
                                                "revealed": ["six_ore"]}})
    refused(state, "discard multiverse_window six_ore", "Multiverse Window",
            "no face-down Agenda 'six_ore'")
