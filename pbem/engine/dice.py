"""The only source of randomness in the engine (ruling C3).

The generator is a pure function of (seed, counter): SplitMix64. The pair lives in the state
(`GameState.rng`), so a game replays exactly from its creation record and action log, on
any machine and Python version. Every roll, shuffle and draw advances the counter.

Die rolls first take the faces queued in `GameState.scripted` (front first): scenarios and
tests say "the next dice rolled are 2, 5, 6" without patching anything. Shuffles and draws
always come from the seeded generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state import GameState

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def below(rng: list[int], n: int) -> int:
    """A uniform integer in [0, n); advances rng = [seed, counter] in place."""
    return _below(rng, n, _MASK - _MASK % n)  # reject the biased tail


def _below(rng: list[int], n: int, limit: int) -> int:
    """`below` with its limit counted: a die's is counted once. SplitMix64's output for
    the counter's next value, inline (every roll, shuffle and draw comes here)."""
    seed, counter = rng[0], rng[1]
    while True:
        counter += 1
        z = (seed + counter * _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            rng[1] = counter
            return value % n


_D6_LIMIT: Final = _MASK - _MASK % 6


def roll(state: GameState) -> int:
    """One six-sided die: the next scripted face if any, else the seeded generator."""
    if state.scripted:
        return state.scripted.pop(0)
    return _below(state.rng, 6, _D6_LIMIT) + 1


def rolls(state: GameState, n: int) -> list[int]:
    """`n` dice rolled one after another, as `n` calls of `roll` would roll them."""
    if state.scripted:  # each die takes the next scripted face while one is left
        return [roll(state) for _ in range(n)]
    rng = state.rng
    return [_below(rng, 6, _D6_LIMIT) + 1 for _ in range(n)]


def shuffle(rng: list[int], items: list[str]) -> None:
    """Fisher-Yates shuffle in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
