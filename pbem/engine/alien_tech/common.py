"""Helpers the card modules share: finding and changing unplaced ships, words of notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Final, TypeVar

from ..errors import InvalidAction
from ..events import Event, event
from ..ids import CARD_NAMES, Territory
from ..lookup import commander, unplaced_indices
from ..state import UNPLACED, GameState
from ..territories import has_bonus

# A plain str: a dict finds it several times faster than the StrEnum member.
_POHL_FOOTHILLS: Final = str(Territory.POHL_FOOTHILLS)


def card_name(card: str) -> str:
    return CARD_NAMES.get(card, card)


def unplaced_ship(state: GameState, seat: int, value: int, relic: bool) -> int | None:
    """Index of an unplaced ship of `seat` showing `value` (the Relic Ship if `relic`)."""
    if relic:
        r = state.ships[-1]
        ok = r.loc == UNPLACED and commander(state, r) == seat and r.value == value
        return len(state.ships) - 1 if ok else None
    for i in unplaced_indices(state, seat):  # a borrowed ship too (ruling B20)
        if state.ships[i].value == value:
            return i
    return None


def no_ship(value: int, relic: bool) -> str:
    what = "Relic Ship" if relic else "ship"
    return f"you have no unplaced {what} showing {value}."


def set_value(state: GameState, index: int, value: int, seat: int, card: str,
              events: list[Event]) -> None:
    ship = state.ships[index]
    events.append(event("ship_changed", seat, card=card, ship=ship.id, was=ship.value,
                        now=value))
    ship.value = value


def unplaced_tokens(state: GameState, seat: int) -> list[tuple[int, bool]]:
    """Distinct (value, is the Relic Ship) among `seat`'s unplaced ships, for menus."""
    tokens = {(state.ships[i].value, False) for i in unplaced_indices(state, seat)}
    r = state.ships[-1]
    if r.loc == UNPLACED and commander(state, r) == seat:  # borrowed too (ruling T1a)
        tokens.add((r.value, True))
    return sorted(tokens)


H = TypeVar("H", bound=Hashable)


def sub_multisets(items: Iterable[H], most: int, least: int = 1) -> list[tuple[H, ...]]:
    """Every distinct choice of `least`..`most` of `items` (equal items are alike), each in
    sorted order, smaller choices first: the "any of these ships" moves of the menu (so that
    a Plasma Cannon shot at any subset, a re-roll of any subset)."""
    counts = sorted(Counter(items).items())
    out: list[tuple[H, ...]] = []
    for size in range(max(1, least), min(most, sum(n for _, n in counts)) + 1):
        _choose(counts, 0, size, (), out)
    return out


def _choose(counts: list[tuple[H, int]], first: int, size: int, chosen: tuple[H, ...],
            out: list[tuple[H, ...]]) -> None:
    """Append to `out` every `chosen` + a choice of `size` items from `counts[first:]`, in
    order: fewer of an earlier item first (a list is built, not a generator driven: the
    Plasma Cannon's menu asks for hundreds of choices)."""
    if size == 0:
        out.append(chosen)
        return
    for j in range(first, len(counts)):
        item, have = counts[j]
        for n in range(1, min(have, size) + 1):
            _choose(counts, j + 1, size - n, chosen + (item,) * n, out)


def ship_word(word: str) -> tuple[int, bool]:
    """'5' is a ship showing 5, '5r' the Relic Ship showing 5."""
    relic = word.lower().endswith("r")
    digits = word[:-1] if relic else word
    if not digits.isdigit() or not 1 <= int(digits) <= 6:
        raise InvalidAction(f"'{word}' is not a ship value (1 to 6, 'r' for the Relic Ship).")
    return int(digits), relic


def ship_text(value: int, relic: bool) -> str:
    return f"{value}r" if relic else str(value)


def words_count(words: list[str], n: int, card: str, example: str) -> None:
    if len(words) != n:
        raise InvalidAction(f"{card_name(card)}: write it like '{example}'.")


def forced_discard(state: GameState, seat: int, card: str, events: list[Event],
                   why: str) -> None:
    """A discard the rules force: it is no discard power and does not count (ruling B17)."""
    state.seats[seat].cards.remove(card)
    state.discard.append(card)
    events.append(event("discarded_card", seat, card=card, forced=True, why=why))


def change_refusal(state: GameState, seat: int, value: int, relic: bool,
                   new: int) -> str | None:
    """Why one unplaced ship showing `value` may not be changed to `new` (ruling B22)."""
    if unplaced_ship(state, seat, value, relic) is None:
        return no_ship(value, relic)
    if not 1 <= new <= 6:
        return (f"a ship showing {value} would go to {new}; values stay 1 to 6, so the power "
                "cannot be used (ruling B22).")
    return None


def with_pohl(state: GameState, seat: int, fuel: int) -> int:
    """A card use's fuel cost for `seat`: Pohl Foothills takes 1 off, never below 0 (§4.3)."""
    if has_bonus(state, seat, _POHL_FOOTHILLS):
        return max(0, fuel - 1)
    return fuel
