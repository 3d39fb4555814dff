"""The card catalog: one CardSpec per card of ids.toml [tech], every table derived from them."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any

import pbem.engine.alien_tech as alien_tech
from pbem.engine import action_from_json, action_to_json, ids, new_game, notation
from pbem.engine.actions import ACTION_TYPES, FIELD_SHAPES, Action, kind_of
from pbem.engine.alien_tech import catalog, oscillation_capacitor
from pbem.engine.alien_tech.spec import CardSpec, Power
from pbem.engine.bots import play_game, random_bot
from pbem.words import glossary

from ..rules_ids import COPY, ids_toml, shared_ids_toml

SHARED_MODULES = {"catalog", "common", "spec"}  # the package's modules that are no card


def _tech() -> dict[str, dict[str, Any]]:
    tech: dict[str, dict[str, Any]] = ids_toml()["tech"]
    return tech


def _powers(card: CardSpec) -> list[Power[Any]]:
    return [p for p in (card.use, card.discard) if p is not None]


def test_every_card_of_ids_toml_has_exactly_one_spec_in_its_order() -> None:
    assert [card.id for card in catalog.SPECS] == list(_tech())


def test_each_spec_has_the_name_copies_and_set_of_ids_toml() -> None:
    for card in catalog.SPECS:
        row = _tech()[card.id]
        assert (card.name, card.copies, card.expansion) == (row["name"], row["copies"],
                                                             row["set"]), card.id


def test_a_use_power_exactly_where_ids_toml_gives_a_paid_use() -> None:
    state = new_game(3, 1)
    for card in catalog.SPECS:
        fuel = _tech()[card.id].get("use_fuel")
        if fuel is None:  # no paid use: none, or a free one (the Solar Harvester)
            assert card.use is None or card.use.fuel(state, _sample(card.use.action)) == 0
            continue
        if card.id == oscillation_capacitor.ID:  # ruling T7: its use is a second use of
            assert card.use is None  # another card, written and paid as that card's
            continue
        assert card.use is not None, card.id
        if isinstance(fuel, int):  # the others depend on the action ("1 per ship")
            assert card.use.fuel(state, _sample(card.use.action)) == fuel, card.id


def test_every_card_module_declares_one_spec_and_the_catalog_lists_it() -> None:
    found = []
    for info in pkgutil.iter_modules(alien_tech.__path__):
        if info.name in SHARED_MODULES:
            continue
        module = importlib.import_module(f"{alien_tech.__name__}.{info.name}")
        specs = [v for v in vars(module).values() if isinstance(v, CardSpec)]
        assert specs == [module.CARD], info.name
        assert module.CARD.id == module.ID == info.name
        found.append(module.CARD)
    assert sorted(found, key=lambda c: c.id) == sorted(catalog.SPECS, key=lambda c: c.id)
    assert len(set(map(id, catalog.SPECS))) == len(catalog.SPECS)


def test_every_power_is_registered_for_json_and_notation() -> None:
    for card in catalog.SPECS:
        for power in _powers(card):
            cls = power.action
            assert ACTION_TYPES[kind_of(cls)] is cls, cls
            assert cls in notation.FORMATS, cls
    assert {"use", "discard"} <= set(notation.VERBS)


def test_card_actions_of_played_games_round_trip_through_json_and_notation() -> None:
    classes = set(catalog.USES) | set(catalog.DISCARDS)
    seen = set()
    for seed in range(6):
        _, actions = play_game(4, seed, random_bot)
        for action in actions:
            if type(action) in classes:
                seen.add(type(action))
                assert action_from_json(action_to_json(action)) == action
                text = notation.format_action(action)
                assert notation.parse_action(text, action.seat, 4) == action, text
    assert seen, "no card power was played"


def test_the_tables_are_the_specs() -> None:
    assert {c.id: c.name for c in catalog.SPECS} == ids.CARD_NAMES
    assert list(ids.CARD_NAMES) == [c.id for c in catalog.SPECS]
    assert {c.id: c.copies for c in catalog.SPECS} == {**ids.BASE_DECK, **ids.FACTIONS_DECK}
    assert set(ids.FACTIONS_DECK) == {c.id for c in catalog.SPECS if c.expansion == "factions"}
    assert {c.id for c in catalog.SPECS if c.vp} == ids.VP_CARDS
    assert {c.id: c.effect for c in catalog.SPECS} == glossary.CARD_EFFECTS
    assert {c.id: c for c in catalog.SPECS} == alien_tech.CARDS
    assert set(catalog.BOT_SCORES) <= set(catalog.USES) | set(catalog.DISCARDS)


def test_aliases_are_unique_and_lead_to_their_card() -> None:
    aliases = [alias for card in catalog.SPECS for alias in card.aliases]
    assert len(aliases) == len(set(aliases))
    for card in catalog.SPECS:
        assert notation.card_id(card.id) == card.id
        for alias in card.aliases:
            assert alias not in ids.CARD_NAMES or alias == card.id, alias
            assert notation.card_id(alias) == card.id, alias


def test_the_cards_other_rules_name_are_cards_of_the_catalog() -> None:
    assert {member.value for member in ids.Card} <= set(catalog.CARDS)


def test_each_card_has_a_one_line_effect() -> None:
    for card in catalog.SPECS:
        assert card.effect and "\n" not in card.effect, card.id


def _sample(cls: type[Action]) -> Action:
    """An instance of `cls` with placeholder fields (for hooks that read none of them)."""
    placeholder = {"int": 0, "int?": None, "ints": (), "str": "", "bool": False}
    return cls(**{f.name: placeholder[FIELD_SHAPES[f.type]]
                  for f in dataclasses.fields(cls) if f.init})


def test_the_repositorys_ids_toml_is_the_shared_rules_one() -> None:
    shared = shared_ids_toml()
    if shared is not None:  # a clean clone without shared/ has only the copy to read
        assert COPY.read_bytes() == shared.read_bytes(), (
            f"tests/engine/ids.toml differs from {shared}: copy the shared file over it")
