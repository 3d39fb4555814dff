"""`Turn.fresh` spells out every field's default in order: it must build what the keywords and
the default factories would, with no list or dict shared between two turns."""

from __future__ import annotations

from dataclasses import fields

from pbem.engine.state import Turn


def test_a_fresh_turn_is_the_default_turn() -> None:
    for seat, round_ in ((0, 1), (3, 7)):
        assert Turn.fresh(seat, round_) == Turn(seat=seat, round=round_)


def test_two_fresh_turns_share_no_list_or_dict() -> None:
    one, two = Turn.fresh(0, 1), Turn.fresh(0, 1)
    for f in fields(Turn):
        value = getattr(one, f.name)
        if isinstance(value, (list, dict)):
            assert value is not getattr(two, f.name), f.name
