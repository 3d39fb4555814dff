"""The board catalog: one FactionSpec per board of ids.toml [factions], every table derived."""

from __future__ import annotations

import importlib
import pkgutil

import pbem.engine.factions as factions
from pbem.engine import action_from_json, action_to_json, facilities, ids, notation
from pbem.engine.actions import ACTION_TYPES, Action, kind_of
from pbem.engine.bots import Bot, greedy_bot, play_game, random_bot
from pbem.engine.factions import catalog, draft
from pbem.engine.factions.spec import FactionSpec
from pbem.engine.rules import HANDLERS
from pbem.engine.state import GameState
from pbem.words import glossary

from ..rules_ids import ids_toml

SHARED_MODULES = {"catalog", "common", "draft", "spec"}  # no board


def test_every_board_of_ids_toml_has_exactly_one_spec_in_its_order() -> None:
    boards = ids_toml()["factions"]
    assert [spec.id for spec in catalog.SPECS] == list(boards)
    for spec in catalog.SPECS:
        assert spec.name == boards[spec.id]["name"] == ids.FACTION_NAMES[spec.id]
    assert [spec.id for spec in catalog.SPECS] == list(ids.FACTION_NAMES)
    assert [spec.id for spec in catalog.SPECS] == [member.value for member in ids.Faction]


def test_every_board_module_declares_one_spec_and_the_catalog_lists_it() -> None:
    found = []
    for info in pkgutil.iter_modules(factions.__path__):
        if info.name in SHARED_MODULES:
            continue
        module = importlib.import_module(f"{factions.__name__}.{info.name}")
        specs = [v for v in vars(module).values() if isinstance(v, FactionSpec)]
        assert specs == [module.FACTION], info.name
        assert module.FACTION.id == module.ID == info.name
        found.append(module.FACTION)
    assert sorted(found, key=lambda s: s.id) == sorted(catalog.SPECS, key=lambda s: s.id)


def test_each_board_joins_the_facility_table_with_its_hooks_after_the_orbital_ones() -> None:
    table = list(facilities.FACILITIES)
    assert table[-len(catalog.SPECS):] == [spec.id for spec in catalog.SPECS]
    for spec in catalog.SPECS:
        entry = facilities.FACILITIES[spec.id]
        assert spec.id == entry.id
        assert entry.refuse is spec.facility.refuse and entry.dock is spec.facility.dock
        assert entry.value_free is spec.facility.value_free
        assert entry.launches is spec.facility.launches


def test_every_board_action_is_handled_and_registered_for_json_and_notation() -> None:
    for spec in catalog.SPECS:
        for board in spec.actions:
            cls = board.action
            assert ACTION_TYPES[kind_of(cls)] is cls, cls
            assert cls in notation.FORMATS, cls
            assert HANDLERS[cls] == (board.refusal, board.effect), cls
        if spec.decision:
            assert set(spec.decision.answers) <= {b.action for b in spec.actions}
            assert catalog.PENDING[spec.decision.kind][0] == spec.decision.answers


def test_board_actions_of_played_games_round_trip_through_json_and_notation() -> None:
    classes = set(catalog.HANDLERS)
    seen = set()
    for seed in range(4):
        for bot in (greedy_bot, random_bot):
            _, actions = play_game(4, seed, bot)
            for action in actions:
                if type(action) in classes:
                    seen.add(type(action))
                    assert action_from_json(action_to_json(action)) == action
                    text = notation.format_action(action)
                    assert notation.parse_action(text, action.seat, 4) == action, text
    assert len(seen) > 1, "no board action but the draft was played"


def test_aliases_are_unique_and_lead_to_their_board_as_a_facility_too() -> None:
    aliases = [alias for spec in catalog.SPECS for alias in spec.aliases]
    assert len(aliases) == len(set(aliases))
    for spec in catalog.SPECS:
        assert catalog.faction_id(spec.id) == spec.id
        for alias in spec.aliases:
            assert catalog.faction_id(alias) == spec.id, alias
            assert notation.facility_id(alias) == spec.id, alias


def test_the_pages_texts_are_the_specs() -> None:
    assert list(glossary.FACTIONS) == [spec.id for spec in catalog.SPECS]
    for spec in catalog.SPECS:
        text = glossary.FACTIONS[spec.id]
        assert (text.name, text.facility, text.owner) == (spec.name, spec.facility.effect,
                                                          spec.owner)


def _every_board_asked(state: GameState, seat: int) -> list[Action]:
    """The Faction menu by asking every list in turn: what `catalog.candidates` shortens."""
    if state.turn.pending is None and not any(s.faction for s in state.seats):
        return []
    out: list[Action] = list(draft.candidates(state, seat))
    for spec in catalog.SPECS:
        if spec.candidates:
            out.extend(spec.candidates(state, seat))
    for spec in catalog.SPECS:
        if spec.facility.candidates:
            out.extend(spec.facility.candidates(state, seat))
    return out


def test_the_faction_menu_asks_only_the_boards_that_may_offer_and_is_the_full_round() -> None:
    offered: set[type[Action]] = set()
    for seed in range(6):
        for chooser in (greedy_bot, random_bot):
            def bot(state: GameState, seat: int, rng: list[int],
                    chooser: Bot = chooser) -> Action:
                for s in range(state.players):  # every seat, the one to act or not
                    menu = catalog.candidates(state, s)
                    assert menu == _every_board_asked(state, s)
                    offered.update(type(a) for a in menu)
                return chooser(state, seat, rng)

            play_game(4, seed, bot)
    assert len(offered) > 6, offered  # the draft, each board's ability and decision, a run
