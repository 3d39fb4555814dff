"""The one catalog step: the tables the modules below the catalogs read, built from them.

The Alien Tech cards, the Faction boards and the Agendas each declare themselves once
(`CardSpec`, `FactionSpec`, `AgendaSpec`) and their catalogs derive their own tables. The
modules below them name cards and boards but are imported by them, so they cannot import a
catalog: the ids (`CARD_NAMES`, the decks, `VP_CARDS`), the facility table (the boards'
facilities, ruling F5) and the notation (the aliases, the verbs and the text forms). Those
tables start empty and `install` fills them, here and nowhere else; pbem.engine's
`__init__` calls it once, so whatever imports any part of the engine finds them filled.
No module changes another's table as a side effect of being imported.
"""

from __future__ import annotations

from . import facilities, ids, notation
from .actions import Action
from .agendas import actions as agendas
from .alien_tech import catalog as cards
from .factions import catalog as boards
from .notation import Formatter, VerbParser


def install() -> None:
    """Fill the derived tables of the modules below the catalogs (once: a second call finds
    them filled and changes nothing)."""
    if notation.VERBS:
        return
    ids.CARD_NAMES.update(cards.NAMES)
    ids.BASE_DECK.update(cards.BASE_DECK)
    ids.FACTIONS_DECK.update(cards.FACTIONS_DECK)
    ids.VP_CARDS.update(cards.VP_CARDS)
    notation.CARD_ALIASES.update(cards.ALIASES)
    notation.FACILITY_ALIASES.update(boards.ALIASES)
    facilities.join(boards.FACILITY_SPECS)
    notation.VERBS.update(_verbs())
    notation.FORMATS.update(_formats())


def _discard(words: list[str], seat: int, players: int | None) -> Action:
    """'discard agenda 2' is the Agendas' (rulings A1, T6); any other 'discard' a card's."""
    if words and words[0].lower() == "agenda":
        return agendas.parse_discard(words, seat, players)
    return cards.parse_discard(words, seat, players)


def _verbs() -> dict[str, VerbParser]:
    """The verbs the catalogs add, each read by one of them ('discard' by two: `_discard`)."""
    out: dict[str, VerbParser] = {}
    for verbs in (cards.VERBS, boards.VERBS, agendas.VERBS):
        for verb, parser in verbs.items():
            if verb in out:
                raise ValueError(f"two catalogs read the verb '{verb}'")
            out[verb] = parser
    out["discard"] = _discard
    return out


def _formats() -> dict[type[Action], Formatter]:
    out: dict[type[Action], Formatter] = {}
    for formats in (cards.FORMATS, boards.FORMATS, agendas.FORMATS):
        for cls, formatter in formats.items():
            if cls in out:
                raise ValueError(f"two catalogs write the action '{cls.__name__}'")
            out[cls] = formatter
    return out
