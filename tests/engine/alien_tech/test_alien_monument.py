"""Alien Monument: no power; 1 VP while owned, and it adds to Alien City (§6.2.1, §7.1)."""

from __future__ import annotations

from pbem.engine.scoring import vp_breakdown

from .helpers import menu, position


def test_alien_monument_and_alien_city_are_worth_one_vp_each() -> None:
    state = position(seats={"red": {"unplaced": [1], "cards": ["alien_monument", "alien_city"]}})
    assert vp_breakdown(state, 0)["cards"] == 2


def test_alien_monument_offers_nothing_on_the_menu() -> None:
    state = position(seats={"red": {"unplaced": [1], "cards": ["alien_monument"]}})
    assert not {t for t in menu(state) if t.startswith(("use", "discard"))}
