"""The planet's territories on the board picture: each with its colonies per seat (chip of
colour and letter), its controller, the field generators on it and the Relic Ship at home."""

from __future__ import annotations

from pbem.engine.ids import FIELD_NAMES, TERRITORY_NAMES
from pbem.web.presenters.board_shapes import (
    BOX_H,
    BOX_W,
    COLOUR_HEX,
    DIE,
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

FIELD_SHORT = {"isolation_field": "ISO", "positron_field": "POS", "repulsor_field": "REP"}
RELIC_HOME = "burroughs_desert"


def territory(board: BoardReader, tid: str, x: float, y: float) -> Group:
    name = TERRITORY_NAMES.get(tid, tid)
    counts = board.view["colonies"].get(tid, [])
    controller = board.view["controllers"].get(tid)
    fields = [f for f, where in board.view["fields"].items() if where == tid]
    words = [name]
    words += [f"{board.who(i)}: {n} colon{'y' if n == 1 else 'ies'}"
              for i, n in enumerate(counts) if n]
    words.append(f"controlled by {board.who(controller)}" if controller is not None
                 else "not controlled")
    words += [FIELD_NAMES.get(f, f) for f in fields]
    relic_home = [s for s in board.ships_at(RELIC_HOME) if s.get("relic")]
    if tid == RELIC_HOME and relic_home:
        words.append("the Relic Ship waits here")
    ctrl = board.seats[controller] if controller is not None else None
    stroke = COLOUR_HEX.get(ctrl["colour"], "#5c6b8a") if ctrl else "#8d9bb5"
    group = Group("; ".join(words), cls="territory", id=f"board-{tid}", shapes=[
        Rect(x, y, BOX_W, BOX_H, 6, "#eef5ea", stroke, 3 if ctrl else 1),
        Text(x + 6, y + 13, name, size=10, weight="bold"),
    ])
    if ctrl:
        group.shapes.append(Text(x + BOX_W - 5, y + 13, f"◆{ctrl['letter']}", size=10,
                                 weight="bold", anchor="end"))
    cx = x + 6
    for i, n in enumerate(counts):
        if n:
            group.shapes += _colony_chip(board, cx, y + 20, i, n)
            cx += 38
    fx = x + 6
    for f in fields:
        group.shapes += [Rect(fx, y + 38, 30, 12, 3, INK),
                         Text(fx + 15, y + 47, FIELD_SHORT.get(f, f[:3].upper()), size=8,
                              weight="bold", anchor="middle", fill="#ffffff")]
        fx += 34
    if tid == RELIC_HOME and relic_home:
        group.shapes.append(board.die(x + BOX_W - DIE - 6, y + 20, relic_home[0]))
    return group


def _colony_chip(board: BoardReader, x: float, y: float, seat: int, n: int) -> list[Shape]:
    colour = board.seats[seat]["colour"]
    return [Circle(x + 8, y + 8, 8, fill_of(colour), INK),
            Text(x + 8, y + 12, board.seats[seat]["letter"], size=10, weight="bold",
                 anchor="middle", fill=ink_on(colour)),
            Text(x + 19, y + 12, f"×{n}", size=10, weight="bold")]
