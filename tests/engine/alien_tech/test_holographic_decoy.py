"""Holographic Decoy: passive; raiders cannot take its holder's resources, and may take only
the Decoy from them (base-game.md §6.3, ruling B18)."""

from __future__ import annotations

from pbem.engine.alien_tech import CARDS

from .helpers import play, position, refused


def _raid() -> object:
    state = position(seats={"red": {"unplaced": [1, 2, 3]},
                            "green": {"fuel": 2, "ore": 3,
                                      "cards": ["holographic_decoy", "booster_pod"]}})
    after, _ = play(state, "dock 1 2 3 raiders")
    return after


def test_e28_raider_cannot_take_ore_from_a_decoy_holder_but_takes_the_decoy() -> None:
    after = _raid()
    refused(after, "steal green ore", "Holographic Decoy", "protects")
    refused(after, "steal green booster_pod", "only card", "Decoy")
    after, _ = play(after, "steal green decoy")
    assert after.seats[0].cards == ["holographic_decoy"]
    assert after.seats[1].cards == ["booster_pod"]


def test_holographic_decoy_has_no_use_and_no_discard_power() -> None:
    card = CARDS["holographic_decoy"]
    assert card.use is None and card.discard is None
