"""Alien City: no power and no discard; worth 1 VP while you own it (base-game.md §7.1).

The point is counted by `scoring.vp_breakdown` through `ids.VP_CARDS`, next to Alien Monument.
"""

from __future__ import annotations

from .spec import CardSpec

ID = "alien_city"

CARD: CardSpec = CardSpec(
    id=ID,
    name="Alien City",
    copies=1,
    expansion="base",
    aliases=("city",),
    effect="1 VP while you own it. No power.",
    vp=1,
)
