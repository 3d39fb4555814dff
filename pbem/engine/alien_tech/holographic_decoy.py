"""Holographic Decoy: passive, no discard. While you hold it, a raid at the Raiders' Outpost
cannot take your fuel or ore, and the only card a raider may take from you is the Decoy
itself; a raider who already owns one discards the stolen Decoy at once (base-game.md §6.3,
ruling B18).

The protection is checked where raids are judged: `facilities.raiders_outpost.steal_refusal`
and `steal_card_refusal` (both test `DECOY`); the duplicate goes through `deck.gain_card`.
"""

from __future__ import annotations

from typing import Final

from .spec import CardSpec

ID: Final = "holographic_decoy"

CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Holographic Decoy",
    copies=2,
    expansion="base",
    aliases=("decoy",),
    effect=("Raiders cannot take your resources; the only card they may take from you is this "
            "one."),
)
