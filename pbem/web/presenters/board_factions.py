"""The chosen Faction boards on the board picture (ruling F5): each is a one-port facility,
drawn with its name, its owner's chip (colour and letter, never colour alone) and the ship
docked there. The boards still offered in the draft are secret and never drawn."""

from __future__ import annotations

from pbem.web.presenters.board_shapes import (
    BOX_W,
    INK,
    BoardReader,
    Circle,
    Group,
    Rect,
    Shape,
    Text,
    fill_of,
    ink_on,
)
from pbem.words.glossary import FACTIONS, faction_name

ROW_H = 46


def faction_boards(board: BoardReader, y: float) -> tuple[list[Shape], float]:
    """The chosen boards two to a row from `y`, and the y below them."""
    owned = [(i, fid) for i, s in enumerate(board.seats) if (fid := s["faction"])]
    if not owned:
        return [], y
    shapes: list[Shape] = [Text(4, y + 12, "Faction boards (1 fuel to the owner)", size=11,
                                weight="bold")]
    y += 18
    for n, (owner, fid) in enumerate(owned):
        x = 4 + (n % 2) * (BOX_W + 4)
        shapes.append(_board(board, owner, fid, x, y + (n // 2) * ROW_H))
    return shapes, y + ((len(owned) + 1) // 2) * ROW_H


def _board(board: BoardReader, owner: int, fid: str, x: float, top: float) -> Group:
    here = board.ships_at(fid)
    text = FACTIONS.get(fid)
    label = f"{faction_name(fid)}, owned by {board.who(owner)}"
    if text:
        label += f": {text.facility}"
    label += "; docked: " + (", ".join(
        f"{board.who(s['owner'])} {s['value'] or ''}".strip() for s in here) or "nobody")
    colour = board.seats[owner]["colour"]
    name = faction_name(fid)
    short = name if len(name) <= 24 else name[:23] + "…"
    return Group(label, cls="facility faction", id=f"board-{fid}", shapes=[
        Rect(x, top, BOX_W, ROW_H - 4, 6, "#f3eefa", "#5c4b8a"),
        Text(x + 6, top + 13, short, size=10, weight="bold"),
        Circle(x + BOX_W - 12, top + 27, 9, fill_of(colour), INK),
        Text(x + BOX_W - 12, top + 31, board.seats[owner]["letter"], size=11, weight="bold",
             anchor="middle", fill=ink_on(colour)),
        board.die(x + 6, top + 18, here[0]) if here else board.port(x + 6, top + 18),
    ])
