"""The Alien Tech cards of the game: the one list of card specs, and every table derived from it.

To add a card, write its module (ending in its `CARD = CardSpec(...)`) and list it in `SPECS`
(docs/architecture.md, "Adding an Alien Tech card"). Nothing else names every card: the
names, the deck, the aliases, the effect texts, the powers by action class, the words and
the bot's scores below all come from `SPECS`, and tests/engine/alien_tech/test_catalog.py
checks the list against ids.toml [tech]. The modules below the cards get their tables from
the one catalog step, `pbem.engine.catalog`.
"""

from __future__ import annotations

from typing import Any, Final

from .. import notation
from ..actions import Action
from ..errors import InvalidAction
from ..notation import Formatter, VerbParser
from . import (
    alien_city,
    alien_monument,
    astrogation_servo,
    booster_pod,
    chameleon_cloak,
    data_crystal,
    electrofabricator,
    experimental_ftl_drive,
    gravity_manipulator,
    holographic_decoy,
    lunar_tunneler,
    multiverse_window,
    orbital_teleporter,
    oscillation_capacitor,
    plasma_cannon,
    polarity_device,
    resource_cache,
    solar_harvester,
    stasis_beam,
    temporal_warper,
)
from .common import card_name
from .spec import BotScore, CardSpec, DiscardPower, UsePower

# In ids.toml order: the deck is built in this order before its shuffle, so every game's
# deal (and replay) depends on it.
SPECS: Final[tuple[CardSpec, ...]] = (
    alien_city.CARD, alien_monument.CARD, booster_pod.CARD, data_crystal.CARD,
    gravity_manipulator.CARD, holographic_decoy.CARD, orbital_teleporter.CARD,
    plasma_cannon.CARD, polarity_device.CARD, resource_cache.CARD, stasis_beam.CARD,
    temporal_warper.CARD,
    # the Factions cards (rulings T1-T8)
    astrogation_servo.CARD, chameleon_cloak.CARD, electrofabricator.CARD,
    experimental_ftl_drive.CARD, lunar_tunneler.CARD, multiverse_window.CARD,
    oscillation_capacitor.CARD, solar_harvester.CARD,
)

CARDS: Final[dict[str, CardSpec]] = {card.id: card for card in SPECS}
NAMES: Final[dict[str, str]] = {card.id: card.name for card in SPECS}
EFFECTS: Final[dict[str, str]] = {card.id: card.effect for card in SPECS}
ALIASES: Final[dict[str, str]] = {alias: card.id for card in SPECS for alias in card.aliases}
# ruling B4: the base deck; the Factions option adds the Factions cards.
BASE_DECK: Final[dict[str, int]] = {c.id: c.copies for c in SPECS if c.expansion == "base"}
FACTIONS_DECK: Final[dict[str, int]] = {c.id: c.copies for c in SPECS if c.expansion == "factions"}
VP_CARDS: Final[frozenset[str]] = frozenset(card.id for card in SPECS if card.vp)

# The powers by action class, with the card each belongs to.
USES: Final[dict[type[Action], tuple[CardSpec, UsePower[Any]]]] = {
    card.use.action: (card, card.use) for card in SPECS if card.use}
DISCARDS: Final[dict[type[Action], tuple[CardSpec, DiscardPower[Any]]]] = {
    card.discard.action: (card, card.discard) for card in SPECS if card.discard}
BOT_SCORES: Final[dict[type[Action], BotScore[Any]]] = {
    power.action: power.bot_score
    for card in SPECS for power in (card.use, card.discard)
    if power is not None and power.bot_score is not None}


def _parse(verb: str, words: list[str], seat: int, players: int | None) -> Action:
    """'use <card> ...' and 'discard <card> ...': the card's power reads the rest."""
    if not words:
        raise InvalidAction(f"Write '{verb}' and a card, for example '{verb} booster_pod 3'.")
    card_id = notation.card_id(words[0])
    card = CARDS.get(card_id)
    power = None if card is None else (card.use if verb == "use" else card.discard)
    if power is None:
        what = "use power" if verb == "use" else "discard power"
        raise InvalidAction(f"{card_name(card_id)} has no {what}.")
    return power.parse(words[1:], seat, players)


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    return _parse("use", words, seat, players)


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    return _parse("discard", words, seat, players)


def _format(action: Action) -> str:
    if type(action) in USES:
        card, use = USES[type(action)]
        return " ".join(["use", card.id, *use.format(action)])
    card, discard = DISCARDS[type(action)]
    return " ".join(["discard", card.id, *discard.format(action)])


# The cards' words, for the notation: the catalog step (`pbem.engine.catalog`) joins them
# with the Faction boards' and the Agendas'.
VERBS: Final[dict[str, VerbParser]] = {"use": parse_use, "discard": parse_discard}
FORMATS: Final[dict[type[Action], Formatter]] = {cls: _format for cls in (*USES, *DISCARDS)}
