"""What every part of a scenario position shares: the error it raises and how a seat, a die
face or a named id is read from the file (docs/scenarios.md)."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from ..ids import COLOURS
from ..notation import card_id, facility_id, territory_id


class ScenarioError(ValueError):
    """The position cannot be built: the message names the key at fault."""


def colour(seat: int | None) -> str | None:
    return None if seat is None else COLOURS[seat]


def seat_index(word: Any, players: int) -> int:
    """A seat written as a colour ('red') or a number (0 = red, ruling C1)."""
    text = str(word).lower()
    if text in COLOURS[:players]:
        return COLOURS.index(text)
    if text.isdigit() and int(text) < players:
        return int(text)
    raise ScenarioError(f"'{word}' is not a seat of this {players}-player game")


def check_keys(table: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")


def named_id(word: str, kind: str) -> str:
    """The canonical id of a facility, territory or card written by id or alias."""
    finder = {"facility": facility_id, "territory": territory_id, "card": card_id}[kind]
    try:
        return finder(word)
    except InvalidAction as exc:
        raise ScenarioError(exc.message) from None


def die(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise ScenarioError(f"{where}: {value!r} is not a die face (1 to 6)")
    return value
