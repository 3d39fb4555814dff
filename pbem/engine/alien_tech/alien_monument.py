"""Alien Monument: no power and no discard; worth 1 VP while you own it (base-game.md §7.1).

The point is counted by `scoring.vp_breakdown` through `ids.VP_CARDS`. Owning both Alien City
and Alien Monument is fine (§6.2.1).
"""

from __future__ import annotations

from typing import Final

from .spec import CardSpec

ID: Final = "alien_monument"

CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Alien Monument",
    copies=1,
    expansion="base",
    aliases=("monument",),
    effect="1 VP while you own it. No power.",
    vp=1,
)
