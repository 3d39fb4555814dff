"""Alien City: no power and no discard; worth 1 VP while you own it (base-game.md §7.1).

The point is counted by `scoring.vp_breakdown` through `ids.VP_CARDS`, next to Alien Monument.
"""

from __future__ import annotations

from typing import Final

from .spec import CardSpec

ID: Final = "alien_city"

CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Alien City",
    copies=1,
    expansion="base",
    aliases=("city",),
    effect="1 VP while you own it. No power.",
    vp=1,
)
