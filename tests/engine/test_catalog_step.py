"""The one catalog step (`pbem.engine.catalog.install`): the tables of the modules below the
catalogs are the catalogs' own, filled once when pbem.engine is imported."""

from __future__ import annotations

import subprocess
import sys

from pbem.engine import catalog, facilities, ids, notation
from pbem.engine.agendas import actions as agenda_actions
from pbem.engine.agendas.actions import DiscardAgenda
from pbem.engine.alien_tech import catalog as cards
from pbem.engine.alien_tech.plasma_cannon import DiscardPlasmaCannon
from pbem.engine.factions import catalog as boards
from pbem.engine.notation import parse_action


def test_the_lower_tables_are_the_catalogs() -> None:
    assert ids.CARD_NAMES == cards.NAMES
    assert (ids.BASE_DECK, ids.FACTIONS_DECK) == (cards.BASE_DECK, cards.FACTIONS_DECK)
    assert ids.VP_CARDS == cards.VP_CARDS
    assert notation.CARD_ALIASES == cards.ALIASES
    assert boards.ALIASES.items() <= notation.FACILITY_ALIASES.items()
    assert all(facilities.FACILITIES[spec.id] is spec for spec in boards.FACILITY_SPECS)
    assert set(notation.VERBS) == {*cards.VERBS, *boards.VERBS, *agenda_actions.VERBS}
    assert notation.FORMATS == {**cards.FORMATS, **boards.FORMATS, **agenda_actions.FORMATS}


def test_a_second_install_changes_nothing() -> None:
    before = (dict(ids.CARD_NAMES), dict(facilities.FACILITIES), dict(notation.VERBS))
    catalog.install()
    after = (ids.CARD_NAMES, facilities.FACILITIES, notation.VERBS)
    assert after == before


def test_discard_is_read_by_the_agendas_or_by_the_cards() -> None:
    assert parse_action("discard agenda 2", 1) == DiscardAgenda(1, 2)
    assert parse_action("discard plasma_cannon red 3 mine", 1, 3) == \
        DiscardPlasmaCannon(1, 0, 3, "lunar_mine")


def test_any_part_of_the_engine_imported_first_finds_the_tables_filled() -> None:
    """The words layer imports `pbem.engine.ids` alone; the package's step has run by then."""
    code = ("from pbem.engine.ids import CARD_NAMES, VP_CARDS; "
            "from pbem.engine.notation import VERBS; "
            "assert CARD_NAMES and VP_CARDS and 'use' in VERBS and 'reveal' in VERBS")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
