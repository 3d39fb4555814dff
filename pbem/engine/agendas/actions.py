"""The Agenda actions: draw at the Orbital Market, keep or discard, reveal (rulings A1, A3).

    draw agendas            a pair docked at the Orbital Market this turn draws 2 instead of
                            trading (A1, B7)
    discard agenda 2        discard your 2nd face-down Agenda (by position, as your page lists
                            them: the log never names a face-down Agenda, A5)
    keep agendas            keep the rest (once at or under the limit)
    reveal six_ore          reveal an Agenda whose in-game half you met (A3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from ..actions import Action, register_action
from ..errors import InvalidAction
from ..events import Event, event
from ..ids import Facility
from ..notation import Formatter, VerbParser
from ..state import GameState
from . import DISCARD_KIND, agenda_limit, ask_discard, draw_agenda, hand_size, reveal
from . import revealable as _revealable
from .catalog import AGENDAS

AGENDAS_DRAWN: Final = 2


@dataclass(frozen=True, slots=True)
class DrawAgendas(Action):
    """Orbital Market: the pair docked there draws 2 Agendas instead of trading (A1)."""


register_action("draw_agendas", DrawAgendas)


@dataclass(frozen=True, slots=True)
class DiscardAgenda(Action):
    """Discard the `index`-th (from 1) of your face-down Agendas (A1, T6)."""

    index: int


register_action("discard_agenda", DiscardAgenda)


@dataclass(frozen=True, slots=True)
class KeepAgendas(Action):
    """Keep your Agendas: end the choice after a draw (A1)."""


register_action("keep_agendas", KeepAgendas)


@dataclass(frozen=True, slots=True)
class RevealAgenda(Action):
    """Reveal a face-down Agenda whose in-game half you met (A3)."""

    agenda: str


register_action("reveal_agenda", RevealAgenda)


def _factions(state: GameState) -> str | None:
    if not state.options.get("factions"):
        return "Agendas are part of the Factions expansion, which this game does not use."
    return None


def _fresh_pair(state: GameState) -> dict[str, Any] | None:
    """A pair docked this turn that has neither traded nor drawn and is still docked: like a
    trade, a draw needs the pair's rate, which a pair that left the Market took with it
    (rulings A1, A1a, B7; `orbital_market.pairs_left`)."""
    pairs: list[dict[str, Any]] = state.turn.facts.get("market", [])
    return next((pair for pair in pairs
                 if pair["use"] is None and pair["value"] in state.turn.market_rates), None)


def draw_refusal(state: GameState, action: DrawAgendas) -> str | None:
    reason = _factions(state)
    if reason:
        return reason
    if _fresh_pair(state) is None:
        return ("Orbital Market: dock a pair there first to draw Agendas; a pair that has "
                "traded or drawn cannot draw (ruling A1), nor one that has left the Market "
                "(ruling A1a).")
    if not state.agenda_deck and not state.agenda_discard:
        return "Orbital Market: no Agenda is left to draw."
    return None


def draw(state: GameState, action: DrawAgendas, events: list[Event]) -> None:
    pair = _fresh_pair(state)
    assert pair is not None
    pair["use"] = "draw"
    if pair["value"] in state.turn.market_rates:  # ruling B7: a pair that draws gives no rate
        state.turn.market_rates.remove(pair["value"])
    drawn = 0
    for _ in range(AGENDAS_DRAWN):
        agenda = draw_agenda(state, events)
        if agenda is None:
            break
        state.seats[action.seat].agendas.append(agenda)
        drawn += 1
    events.append(event("drew_agendas", action.seat, count=drawn))
    ask_discard(state, action.seat, optional=True)


def discard_refusal(state: GameState, action: DiscardAgenda) -> str | None:
    n = len(state.seats[action.seat].agendas)
    if not 1 <= action.index <= n:
        return f"You have {n} face-down Agenda(s): name one by its position, 1 to {n}."
    return None


def discard(state: GameState, action: DiscardAgenda, events: list[Event]) -> None:
    agenda = state.seats[action.seat].agendas.pop(action.index - 1)
    state.agenda_discard.append(agenda)  # face-down: secret (ruling A5)
    events.append(event("discarded_agenda", action.seat))
    pending = state.turn.pending
    assert pending is not None
    pending["count"] = max(0, int(pending["count"]) - 1)
    if pending["count"] == 0 and not pending.get("optional"):
        state.turn.pending = pending.get("resume")  # ruling C5: e.g. a raid goes on (T6)


def keep_refusal(state: GameState, action: KeepAgendas) -> str | None:
    pending = state.turn.pending or {}
    count = int(pending.get("count", 0))
    if count:
        limit = agenda_limit(state, action.seat)
        return (f"You hold {hand_size(state, action.seat)} Agendas and your limit is {limit}: "
                f"discard {count} more face-down Agenda(s) (ruling A1).")
    return None


def keep(state: GameState, action: KeepAgendas, events: list[Event]) -> None:
    state.turn.pending = None
    events.append(event("kept_agendas", action.seat,
                        count=hand_size(state, action.seat)))


def reveal_refusal(state: GameState, action: RevealAgenda) -> str | None:
    reason = _factions(state)
    if reason:
        return reason
    if action.agenda not in AGENDAS:
        return f"There is no Agenda called '{action.agenda}'."
    if action.agenda not in state.seats[action.seat].agendas:
        return "You have no such face-down Agenda."
    if not _revealable(state, action.seat, action.agenda):
        return (f"Agenda: you have not met '{AGENDAS[action.agenda].in_game_text}' this turn "
                "(ruling A3).")
    return None


def do_reveal(state: GameState, action: RevealAgenda, events: list[Event]) -> None:
    reveal(state, action.seat, action.agenda, events)


Refuse = Callable[[GameState, Any], "str | None"]
Effect = Callable[[GameState, Any, list[Event]], None]
HANDLERS: Final[dict[type[Action], tuple[Refuse, Effect]]] = {
    DrawAgendas: (draw_refusal, draw),
    DiscardAgenda: (discard_refusal, discard),
    KeepAgendas: (keep_refusal, keep),
    RevealAgenda: (reveal_refusal, do_reveal),
}
PENDING_ACTIONS: Final[dict[str, tuple[type[Action], ...]]] = {
    DISCARD_KIND: (DiscardAgenda, KeepAgendas),
}
PENDING_WORDS: Final[dict[str, str]] = {
    DISCARD_KIND: "First choose which face-down Agendas to discard or keep.",
}
UNASKED_WORDS: Final[dict[str, str]] = {
    DISCARD_KIND: "You may discard Agendas only after drawing them or when you are over your "
                  "limit (ruling A1).",
}


def candidates(state: GameState, seat: int) -> list[Action]:
    """Agenda actions to offer outside a pending decision (filtered by the refusals). Only
    the Agendas `revealable` now are tried: the refusal refuses every other face-down one,
    with words made for nothing, as a menu is built after every action."""
    if not state.options.get("factions"):
        return []
    out: list[Action] = []
    if _MARKET in state.turn.facts.get("facilities", _NONE):
        out.append(_draw_action(seat))
    for agenda in state.seats[seat].agendas:
        if _revealable(state, seat, agenda):
            out.append(_reveal_action(seat, agenda))
    return out


_NONE: Final[list[str]] = []  # read-only: no list made for a turn with no docking yet
_MARKET: Final = str(Facility.ORBITAL_MARKET)  # a plain str: compared with each facility


# Actions are immutable values, so the menu reuses the ones it offers every turn.

@cache
def _draw_action(seat: int) -> DrawAgendas:
    return DrawAgendas(seat)


@cache
def _reveal_action(seat: int, agenda: str) -> RevealAgenda:
    return RevealAgenda(seat, agenda)


def pending_candidates(state: GameState, seat: int) -> list[Action]:
    n = len(state.seats[seat].agendas)
    out: list[Action] = [DiscardAgenda(seat, i) for i in range(1, n + 1)]
    out.append(KeepAgendas(seat))
    return out


# -- notation ----------------------------------------------------------------------------------

def agenda_id(word: str) -> str:
    key = word.lower().replace("-", "_").replace("'", "")
    if key in AGENDAS:
        return key
    raise InvalidAction(f"Unknown Agenda '{word}': write its id, for example 'six_ore'.")


def _parse_draw(words: list[str], seat: int, players: int | None) -> Action:
    if [w.lower() for w in words] != ["agendas"]:
        raise InvalidAction("Write 'draw agendas'.")
    return DrawAgendas(seat)


def _parse_keep(words: list[str], seat: int, players: int | None) -> Action:
    if [w.lower() for w in words] != ["agendas"]:
        raise InvalidAction("Write 'keep agendas'.")
    return KeepAgendas(seat)


def _parse_reveal(words: list[str], seat: int, players: int | None) -> Action:
    if len(words) != 1:
        raise InvalidAction("Write 'reveal' and an Agenda, for example 'reveal six_ore'.")
    return RevealAgenda(seat, agenda_id(words[0]))


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    """'discard agenda 2'; the catalog step (`pbem.engine.catalog`) gives every other
    'discard ...' to the cards."""
    if len(words) != 2 or words[0].lower() != "agenda" or not words[1].isdigit():
        raise InvalidAction("Write 'discard agenda 2' (its position among your face-down "
                            "Agendas).")
    return DiscardAgenda(seat, int(words[1]))


def _format_discard(action: Action) -> str:
    assert isinstance(action, DiscardAgenda)
    return f"discard agenda {action.index}"


def _format_reveal(action: Action) -> str:
    assert isinstance(action, RevealAgenda)
    return f"reveal {action.agenda}"


# The Agendas' words, for the notation (joined with the others by `pbem.engine.catalog`).
VERBS: Final[dict[str, VerbParser]] = {
    "draw": _parse_draw, "keep": _parse_keep, "reveal": _parse_reveal,
}
FORMATS: Final[dict[type[Action], Formatter]] = {
    DrawAgendas: lambda a: "draw agendas",
    KeepAgendas: lambda a: "keep agendas",
    DiscardAgenda: _format_discard,
    RevealAgenda: _format_reveal,
}
