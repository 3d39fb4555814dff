"""Alien City: no power; 1 VP while owned (base-game.md §7.1)."""

from __future__ import annotations

import pytest

from pbem.engine.alien_tech import CARDS
from pbem.engine.errors import InvalidAction
from pbem.engine.notation import parse_action
from pbem.engine.scoring import vp_breakdown

from .helpers import position


def test_alien_city_is_worth_one_vp_while_owned() -> None:
    state = position(seats={"red": {"unplaced": [1], "cards": ["alien_city"]}})
    assert vp_breakdown(state, 0)["cards"] == CARDS["alien_city"].vp == 1


def test_alien_city_has_no_power_to_use_or_discard() -> None:
    with pytest.raises(InvalidAction, match="Alien City has no use power"):
        parse_action("use city", 0)
    with pytest.raises(InvalidAction, match="Alien City has no discard power"):
        parse_action("discard city", 0)
