"""The one declaration of an Agenda: an `AgendaSpec` in `catalog.SPECS`.

    AgendaSpec(id="six_ore",
               in_game_text="Gain six or more ore in a single turn",
               end_game_text="You control a territory with a single colony on it",
               in_game=lambda st, s, f: f.get("ore", 0) >= 6, reads=("ore",),
               end_game=single_colony)

Each card has an in-game half (revealable when met, ruling A3) and an end-game half (scored
automatically at the end of the game when it holds, ruling A4); either gives 1 VP (A2). The
in-game condition is the plain rule, asked of the active seat with the turn's facts
(`facts.py`); the fields after it tell the latching accelerator (`latch.py`) when it need
not be asked again. tests/engine/test_agenda_latch.py compares the two on random games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..state import GameState

Facts = dict[str, Any]  # the turn's recorded facts, `Turn.facts` (facts.py)
# Not a fact but what a half that `reads` it reads: the cards every seat holds, and those
# gained this turn (`Turn.gained`). A fold names it changed unless every event is of a kind
# that moves no card (`latch.CARDLESS_KINDS`), and a new turn's first fold always does.
CARDS: Final = "cards"
InGame = Callable[[GameState, int, Facts], bool]  # (state, seat, facts): met now
EndGame = Callable[[GameState, int], bool]  # (state, seat): holds now


@dataclass(frozen=True, slots=True, kw_only=True)
class AgendaSpec:
    id: str
    in_game_text: str  # printed wording, left half
    end_game_text: str  # printed wording, right half
    in_game: InGame
    end_game: EndGame
    # The facts the in-game half reads, when it reads nothing else (not the board, the cards
    # or the scores): it is asked again only after a fold changed one of them. With none of
    # them recorded it is not met, so a new turn asks it only if that turn's first fold
    # recorded one. `CARDS` stands for the Alien Tech cards (who holds which, and those
    # gained this turn), for a half that reads those alone: it is asked again only after a
    # fold that may have moved a card, and at every turn's first. Empty: it is asked after
    # every action.
    reads: tuple[str, ...] = ()
    # Its place in `conditions.docked_halves`' answer, for the halves read from where ships
    # are docked: one pass over the ships answers them all.
    docked: int | None = None
    # It can come true on another player's turn: kept in `Seat.marks` and revealable during
    # that seat's next turn (ruling A3). It reads the cards alone (`CARDS`), no facts.
    markable: bool = False
    # Judged at the moment of the reveal, never remembered (ruling A3: "strictly highest at
    # the moment you reveal").
    live: bool = False
