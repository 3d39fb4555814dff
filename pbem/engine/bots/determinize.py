"""Determinization: one possible world consistent with what a seat may know.

The strong bot searches worlds sampled here. It starts from `redacted(state, seat)`, where the
draw piles, the other seats' face-down Agendas, the generator and scripted dice are blanked,
and fills every blank from the cards that seat has not seen, shuffled with the bot's own
`rng`; the world's generator (future dice, future shuffles) is seeded from that `rng` too.
Nothing hidden is read, so two states that differ only in hidden information give the same
worlds for the same `rng` (tests/engine/test_bot_levels.py proves it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from .. import dice
from ..agendas.catalog import AGENDA_IDS
from ..ids import BASE_DECK, FACTIONS_DECK
from ..state import GameState
from . import redacted

SEED_RANGE: Final = 1 << 62


def world(state: GameState, seat: int, rng: list[int]) -> GameState:
    """A complete state `seat` cannot tell apart from `state`, sampled with `rng`."""
    sample = redacted(state, seat)
    _fill_tech_deck(sample, rng)
    _fill_agendas(sample, seat, rng)
    sample.rng = [dice.below(rng, SEED_RANGE), 0]
    return sample


def _unseen(total: dict[str, int], seen: Iterable[str]) -> list[str]:
    """The cards of `total` (id -> copies) left once every card in `seen` is taken out."""
    left = Counter(total)
    left.subtract(Counter(seen))
    return [card for card, copies in sorted(left.items()) for _ in range(max(copies, 0))]


def _dealt(pool: list[str], count: int, rng: list[int], total: list[str]) -> list[str]:
    """`count` cards from the shuffled `pool`; a position set up by hand may hide more
    cards than the pool holds, and then the rest are drawn from `total` at random."""
    dice.shuffle(rng, pool)
    cards = pool[:count]
    while len(cards) < count:
        cards.append(total[dice.below(rng, len(total))])
    del pool[:count]
    return cards


def _fill_tech_deck(sample: GameState, rng: list[int]) -> None:
    total = dict(BASE_DECK)
    if sample.options.get("factions"):
        total.update(FACTIONS_DECK)
    seen = [*sample.display, *sample.discard]
    for s in sample.seats:
        seen.extend(s.cards)
    pool = _unseen(total, seen)
    sample.deck = _dealt(pool, len(sample.deck), rng, sorted(total))


def _fill_agendas(sample: GameState, seat: int, rng: list[int]) -> None:
    if not sample.options.get("factions"):
        return
    seen = list(sample.seats[seat].agendas)
    for s in sample.seats:
        seen.extend(s.revealed)
    pool = _unseen(dict.fromkeys(AGENDA_IDS, 1), seen)
    total = list(AGENDA_IDS)
    for i, s in enumerate(sample.seats):
        if i != seat:
            s.agendas = _dealt(pool, len(s.agendas), rng, total)
    sample.agenda_deck = _dealt(pool, len(sample.agenda_deck), rng, total)
    sample.agenda_discard = _dealt(pool, len(sample.agenda_discard), rng, total)
