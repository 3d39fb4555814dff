"""Action kinds and the JSON form's field types, the same in pure Python and compiled."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.engine.actions import (
    ACTION_TYPES,
    KINDS,
    Action,
    Dock,
    EndTurn,
    action_from_json,
    action_to_json,
    kind_of,
    register_action,
)
from pbem.engine.alien_tech.plasma_cannon import UsePlasmaCannon
from pbem.engine.errors import InvalidAction


def test_every_kind_names_one_class_and_back() -> None:
    assert len(KINDS) == len(ACTION_TYPES)
    for kind, cls in ACTION_TYPES.items():
        assert kind_of(cls) == kind
    assert Dock(0, "shipyard", (3, 3)).kind == "dock"
    assert action_to_json(EndTurn(1))["kind"] == "end_turn"


def test_a_kind_or_a_class_registered_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register_action("dock", EndTurn)
    with pytest.raises(ValueError, match="registered twice"):
        register_action("another_dock", Dock)


def test_a_field_json_cannot_check_is_refused_at_registration() -> None:
    @dataclass(frozen=True)
    class Odd(Action):
        names: list[str]

    with pytest.raises(TypeError, match="names: list"):
        register_action("odd", Odd)
    assert "odd" not in ACTION_TYPES


@pytest.mark.parametrize("data", [
    {"kind": "dock", "seat": True, "facility": "shipyard", "values": [3, 3]},
    {"kind": "dock", "seat": 0, "facility": "shipyard", "values": [3, "3"]},
    {"kind": "dock", "seat": 0, "facility": "shipyard", "values": [3, 3], "relic": "3"},
    {"kind": "dock", "seat": 0, "facility": "shipyard", "values": [3, 3], "relic": False},
    {"kind": "dock", "seat": 0, "facility": "shipyard", "values": [3, 3], "launch": 1},
    {"kind": "use_plasma_cannon", "seat": 0, "facility": "shipyard", "owners": [1],
     "ships": [True]},
    {"kind": "end_turn", "seat": 0, "return_fuel": 1.5},
])
def test_a_field_of_the_wrong_type_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(InvalidAction):
        action_from_json(data)


def test_the_json_form_round_trips() -> None:
    for action in (Dock(0, "shipyard", (3, 3), relic=3), Dock(2, "colonist_hub", (5,), None, True),
                   UsePlasmaCannon(1, "shipyard", (0, 2), (4, 4), relic_at=None),
                   EndTurn(3, return_fuel=1)):
        assert action_from_json(action_to_json(action)) == action
