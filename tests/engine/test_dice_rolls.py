"""`dice.rolls` (the fleet roll at every turn's start, with SplitMix64 inline) rolls exactly
what as many calls of `dice.roll` would: the same faces, the scripted ones first, and the
generator left at the same counter."""

from __future__ import annotations

from pbem.engine import dice
from pbem.engine.flow import new_game


def test_rolls_are_the_faces_roll_gives_one_by_one() -> None:
    for seed in range(12):
        for n in range(8):
            for scripted in ([], [6], [2, 5, 1], [3] * 9):
                one = new_game(4, seed, {"factions": False})
                many = new_game(4, seed, {"factions": False})
                one.scripted, many.scripted = list(scripted), list(scripted)
                faces = [dice.roll(one) for _ in range(n)]
                assert dice.rolls(many, n) == faces
                assert many.rng == one.rng and many.scripted == one.scripted

