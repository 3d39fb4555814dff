"""What an answer to a reply teaches (issue 24, point 7; docs/mail.md "Answers teach"):

- ``working_line``: for a refused line, a line that works in the same place, the legal move
  nearest to what was written (the 8-resource limit's refusal of ``end`` shows
  ``end discard 1 fuel``);
- ``menu_groups``: "what you can write now", grouped by kind (the notation's first word),
  saying when a group is cut and how to get the rest (``help`` lists every move);
- ``what_lines_did``: each applied line with what it did, in the page log's sentences.

The engine decides every legality here; nothing is guessed.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem import engine
from pbem.engine import GameState, action_from_json, format_action
from pbem.words import describe

MENU_LIMIT = 30  # lines of moves in an answer; ``help`` shows them all
UNDO_SENTENCE = "You took back your last step."


@dataclass(frozen=True)
class MenuGroup:
    """The moves of one kind: ``lines`` shown, ``more`` left out (``help`` shows them)."""

    kind: str
    lines: list[str]
    more: int

    @property
    def total(self) -> int:
        return len(self.lines) + self.more


@dataclass(frozen=True)
class LineDone:
    """An applied line and the sentences of what it did."""

    line: str
    sentences: list[str]


def _kind(line: str) -> str:
    return line.split(" ", 1)[0]


def menu_groups(picture: Mapping[str, Any], *, whole: bool = False) -> list[MenuGroup]:
    """The seat's legal moves in notation, grouped by kind in the engine's order. Past
    ``MENU_LIMIT`` moves (and unless ``whole``), each kind shows its first few, every kind
    at least one."""
    grouped: dict[str, list[str]] = {}
    for action in picture.get("legal") or []:
        line = format_action(action_from_json(action))
        grouped.setdefault(_kind(line), []).append(line)
    total = sum(len(lines) for lines in grouped.values())
    shown = {kind: len(lines) for kind, lines in grouped.items()} \
        if whole or total <= MENU_LIMIT else _shares(grouped)
    return [MenuGroup(kind, lines[:shown[kind]], len(lines) - shown[kind])
            for kind, lines in grouped.items()]


def _shares(grouped: Mapping[str, list[str]]) -> dict[str, int]:
    """``MENU_LIMIT`` lines dealt out one a kind in turn, so every kind shows its first."""
    shown = dict.fromkeys(grouped, 0)
    left = MENU_LIMIT
    while left > 0:
        dealt = [kind for kind, lines in grouped.items() if shown[kind] < len(lines)][:left]
        if not dealt:
            break
        for kind in dealt:
            shown[kind] += 1
        left -= len(dealt)
    return shown


def menu_lines(picture: Mapping[str, Any]) -> list[str]:
    """The moves ``menu_groups`` shows, one list."""
    return [line for group in menu_groups(picture) for line in group.lines]


def working_line(state: GameState, seat: int, refused: str) -> str | None:
    """The legal line of ``seat`` nearest to the ``refused`` one: of the same kind when
    there is one (``end`` → ``end discard 1 fuel``), else of any kind; None when the seat has
    no move here."""
    if engine.awaited(state) != seat:
        return None
    lines = [format_action(action) for action in engine.legal_actions(state, seat)]
    if not lines:
        return None
    written = " ".join(refused.lower().split())
    same_kind = [line for line in lines if _kind(line) == _kind(written)]
    candidates = same_kind or lines
    return max(candidates, key=lambda line: difflib.SequenceMatcher(
        None, written, line).ratio())


def where_refused(state: GameState, seat: int, moves: Sequence[str],
                  refused: str) -> GameState | None:
    """The position in which the reply's ``refused`` line was read: the reply's lines
    applied in order to a copy of ``state`` up to the first the rules refuse, when that is
    ``refused`` (None when it cannot be known without the database, e.g. after an
    ``undo``, or when the rules refuse no line)."""
    copy = GameState.from_json(state.to_json())
    for line in moves:
        word = line.lower().strip(" .!")
        if word in ("status", "help"):
            continue
        if word == "undo":
            return None
        try:
            copy, _ = engine.apply(copy, engine.parse_action(line, seat, copy.players))
        except engine.RulesError:
            return copy if line == refused else None
    return None


def what_lines_did(applied: Sequence[str], events: Mapping[int, list[dict[str, Any]]],
                   names: Sequence[str], seat: int) -> list[LineDone]:
    """Each applied line with the page log's sentences of its events (``events`` by the
    line's place in ``applied``)."""
    done = []
    for number, line in enumerate(applied):
        if line == "undo":
            sentences = [UNDO_SENTENCE]
        else:
            sentences = describe.describe(events.get(number) or [], names, viewer=seat)
        done.append(LineDone(line, sentences))
    return done
