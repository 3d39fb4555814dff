"""The pieces of the board picture as data: positioned rectangles, circles, texts and labelled
groups, which `templates/board/board.svg.j2` draws (autoescaped). `BoardReader` holds the view
and the seat names and makes the shared pieces: a ship (a die in its owner's colour *and* with
the owner's letter, ruling B21), an empty port, a seat's name for a label."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pbem.engine.view_types import GameView, SeatView, ShipView

COLOUR_HEX = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0",
              "yellow": "#f9c623", "purple": "#6a1b9a"}
INK_ON = {"yellow": "#1a1a1a"}  # text colour on a die; white elsewhere
INK = "#1a1a1a"
GREY = "#777777"
RELIC_INK = "#8a6d00"
DIE = 18
STEP = 20
BOX_W, BOX_H = 174, 54


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    rx: int
    fill: str
    stroke: str | None = None
    stroke_width: float | None = None
    dash: str | None = None
    kind: Literal["rect"] = "rect"


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: int
    fill: str
    stroke: str
    kind: Literal["circle"] = "circle"


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    content: str
    size: int = 10
    weight: str = "normal"
    anchor: str = "start"
    fill: str = INK
    kind: Literal["text"] = "text"


@dataclass
class Group:
    """A labelled `<g>`: `label` is its aria-label and, with `titled`, its `<title>`; `data`
    become its `data-*` attributes (what the piece stands for, for tests and scripts)."""

    label: str
    cls: str = ""
    id: str = ""
    role: str = "group"
    titled: bool = True
    shapes: list[Shape] = field(default_factory=list)
    data: dict[str, str] = field(default_factory=dict)
    kind: Literal["group"] = "group"


Shape = Rect | Circle | Text | Group


def fill_of(colour: str | None) -> str:
    return COLOUR_HEX.get(str(colour), GREY)


def ink_on(colour: str | None) -> str:
    return INK_ON.get(str(colour), "#ffffff")


class BoardReader:
    """The view and the seat names, with the pieces every part of the picture uses."""

    def __init__(self, view: GameView, names: Sequence[str] | None) -> None:
        self.view = view
        self.seats: list[SeatView] = list(view["seats"])
        self.names = list(names) if names else [s["colour"].title() for s in self.seats]

    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "nobody"
        s = self.seats[seat]
        return f"{self.names[seat]} ({s['colour']}, {s['letter']})"

    def ships_at(self, loc: str) -> list[ShipView]:
        return [s for s in self.view["ships"] if s["loc"] == loc]

    def die(self, x: float, y: float, ship: ShipView) -> Group:
        owner = ship.get("owner")
        value = ship.get("value")
        relic = bool(ship.get("relic"))
        seat = self.seats[owner] if owner is not None and owner < len(self.seats) else None
        colour = seat["colour"] if seat else None
        letter = seat["letter"] if seat else "–"
        label = ("Relic Ship" + (f" of {self.who(owner)}" if seat else "") if relic
                 else f"{self.who(owner)} ship")
        if value:
            label += f", showing {value}"
        body = (Rect(x, y, DIE, DIE, 4, "#ffffff", RELIC_INK, 2, "3 2") if relic
                else Rect(x, y, DIE, DIE, 4, fill_of(colour), INK, 1))
        group = Group(label, cls="ship", role="img", shapes=[body],
                      data={"ship": str(ship.get("id", "")), "owner": "" if seat is None
                            else str(owner)})
        if value:
            group.shapes.append(Text(x + DIE / 2, y + 13, str(value), size=12, weight="bold",
                                     anchor="middle", fill=INK if relic else ink_on(colour)))
        if relic:
            group.shapes.append(Text(x + DIE - 1, y + 7, "★", size=7, anchor="end",
                                     fill=RELIC_INK))
        tag = f"{letter}★" if relic else letter
        group.shapes.append(Text(x + DIE / 2, y + DIE + 9, tag, size=9, weight="bold",
                                 anchor="middle"))
        return group

    @staticmethod
    def port(x: float, y: float) -> Rect:
        return Rect(x, y, DIE, DIE, 4, "none", "#9e9e9e", dash="2 2")
