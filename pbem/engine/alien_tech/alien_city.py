"""Alien City: no power and no discard; worth 1 VP while you own it (base-game.md §7.1).

The point is counted by `scoring.vp_breakdown` through `ids.VP_CARDS`, next to Alien Monument.
"""

from __future__ import annotations

from ..ids import Card

ID = Card.ALIEN_CITY
USE = None
DISCARD = None
VP = 1
