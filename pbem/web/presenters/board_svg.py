"""The board as inline SVG, drawn from a view (never a raw state).

`board_svg(view)` is pure: the same view gives the same picture. `picture(view)` lays the
board out as positioned pieces (`pbem.web.presenters.board_shapes`); `templates/board/board.svg.j2`
draws them with autoescaping on, so every name and label is escaped. Ships are dice in their
owner's colour *and* with the owner's letter under them (ruling B21: colour is never the only
cue); the Relic Ship is a white die with a star. The picture is laid out for a 360-px-wide
phone: two columns of facilities, the Colonist Hub's four tracks, then the planet's eight
territories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from pbem.engine import GameView
from pbem.engine.board import LAYOUT
from pbem.engine.ids import (
    CARD_NAMES,
    FACILITY_NAMES,
    HUB_CIRCLES,
    HUB_PORTS_PER_TRACK,
    HUB_TRACKS,
    TERRITORY_NAMES,
)
from pbem.engine.view_types import ShipView
from pbem.paths import templates_dir
from pbem.web.presenters.board_factions import faction_boards
from pbem.web.presenters.board_shapes import (
    BOX_H,
    BOX_W,
    INK,
    STEP,
    BoardReader,
    Circle,
    Group,
    Rect,
    Shape,
    Text,
    fill_of,
    ink_on,
)
from pbem.web.presenters.board_territories import territory

WIDTH = 360
FACILITY_GRID = (
    ("solar_converter", "lunar_mine"),
    ("orbital_market", "shipyard"),
    ("maintenance_bay", "alien_artifact"),
    ("display", "colony_constructor"),
    ("terraforming_station", "raiders_outpost"),
)
BAY = "maintenance_bay"
TEMPLATE = "board/board.svg.j2"


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    title: str
    shapes: list[Shape]


def _facility(board: BoardReader, fid: str, x: float, y: float) -> Group:
    name = FACILITY_NAMES[fid]
    here = board.ships_at(fid)
    label = f"{name}: " + (", ".join(
        f"{board.who(s['owner'])} {s['value'] or ''}".strip() for s in here) or "empty")
    group = Group(label, cls="facility", id=f"board-{fid}", shapes=[
        Rect(x, y, BOX_W, BOX_H, 6, "#f4f6fb", "#5c6b8a"),
        Text(x + 6, y + 13, name, size=10, weight="bold"),
    ])
    top = y + 18
    if fid == BAY:
        group.shapes += [board.die(x + 6 + i * STEP, top, ship) for i, ship in enumerate(here[:8])]
        if len(here) > 8:
            group.shapes.append(Text(x + BOX_W - 4, y + 13, f"+{len(here) - 8}", anchor="end"))
    else:
        group.shapes += _ports(board, fid, here, x + 6, top)
    return group


def _ports(board: BoardReader, fid: str, here: list[ShipView], x: float,
           top: float) -> list[Shape]:
    """The facility's groups of ports, each filled with its ships by value."""
    _, size, counts = LAYOUT[fid]
    count = counts[min(int(board.view["players"]), 4) - 2]
    by_slot: dict[int, list[ShipView]] = {}
    for ship in here:
        by_slot.setdefault(int(ship["slot"]), []).append(ship)
    gap = 0 if size == 1 else 6
    cursor = x
    shapes: list[Shape] = []
    for slot in range(count):
        ships = sorted(by_slot.get(slot, []), key=lambda s: s["value"] or 0)
        for pos in range(size):
            shapes.append(board.die(cursor, top, ships[pos]) if pos < len(ships)
                          else board.port(cursor, top))
            cursor += STEP
        cursor += gap
    return shapes


def _display(board: BoardReader, x: float, y: float) -> Group:
    cards = [CARD_NAMES.get(c, c) for c in board.view.get("display", [])]
    deck = board.view.get("deck_size", 0)
    return Group("Alien Tech display: " + (", ".join(cards) or "empty"), cls="display", shapes=[
        Rect(x, y, BOX_W, BOX_H, 6, "#fbf7ee", "#8a6d00"),
        Text(x + 6, y + 13, f"Alien Tech · {deck} in deck", size=10, weight="bold"),
        *(Text(x + 6, y + 26 + i * 11, card, size=9) for i, card in enumerate(cards[:3])),
    ])


def _hub(board: BoardReader, y: float) -> tuple[Group, float]:
    shared = int(board.view["players"]) == 5  # ruling F16: tracks and ports open to all
    heading = "Colonist Hub" + (" · ports and tracks open to all" if shared else "")
    hub = Group("Colonist Hub tracks", cls="hub", titled=False, shapes=[
        Text(4, y + 12, heading, size=11, weight="bold")])
    y += 18
    rows = _docked_rows(board, shared)
    for track in range(HUB_TRACKS):
        hub.shapes.append(_track(board, track, rows[track], shared, y))
        y += 30
    return hub, y


def _docked_rows(board: BoardReader, shared: bool) -> list[list[ShipView]]:
    """The ships docked at the Hub, row by row. With 2-4 players a ship docks on its owner's
    track (its slot); with 5 every ship has slot 0 and any port is anyone's, so the docked
    ships fill the twelve ports in order, each owner's ships together."""
    here = board.ships_at("colonist_hub")
    if not shared:
        return [sorted((s for s in here if s["slot"] == t), key=lambda s: s["value"] or 0)
                for t in range(HUB_TRACKS)]
    ordered = sorted(here, key=lambda s: (s["owner"] if s["owner"] is not None else 99,
                                          s["value"] or 0))
    return [ordered[t * HUB_PORTS_PER_TRACK:(t + 1) * HUB_PORTS_PER_TRACK]
            for t in range(HUB_TRACKS)]


def _track(board: BoardReader, track: int, docked: list[ShipView], shared: bool,
           y: float) -> Group:
    """One track: its ports and its seven circles. Every colony standing on this track is
    drawn on its own circle (with 5 players several seats share a track, ruling F16)."""
    colonies = {int(s["hub_circle"]): i for i, s in enumerate(board.seats)
                if s["hub_track"] == track and s["hub_circle"]}
    owner = None if shared else next(
        (i for i, s in enumerate(board.seats) if s["hub_track"] == track), None)
    words = f"Track {track + 1}" + (f", {board.who(owner)}" if owner is not None else "")
    words += "".join(f", {board.who(seat)} colony on circle {circle}"
                     for circle, seat in sorted(colonies.items()))
    tag = board.seats[owner]["letter"] if owner is not None else ""
    group = Group(words, cls="hub-track", data={"track": str(track)}, shapes=[
        Text(4, y + 13, f"{track + 1} {tag}", size=10, weight="bold")])
    for pos in range(HUB_PORTS_PER_TRACK):
        px = 30 + pos * STEP
        group.shapes.append(board.die(px, y, docked[pos]) if pos < len(docked)
                            else board.port(px, y))
    for circle in range(1, HUB_CIRCLES + 1):
        group.shapes.append(_circle(board, 100 + (circle - 1) * 36, y + 9, circle,
                                    colonies.get(circle)))
    return group


def _circle(board: BoardReader, cx: float, cy: float, number: int,
            seat: int | None) -> Group:
    if seat is not None:
        colour = board.seats[seat]["colour"]
        return Group(f"{board.who(seat)} colony on circle {number}", cls="hub-colony",
                     role="img", titled=False, data={"circle": str(number), "seat": str(seat)},
                     shapes=[Circle(cx, cy, 10, fill_of(colour), INK),
                             Text(cx, cy + 4, board.seats[seat]["letter"], size=11,
                                  weight="bold", anchor="middle", fill=ink_on(colour))])
    return Group(f"circle {number}, free", cls="hub-circle", role="img", titled=False,
                 data={"circle": str(number)},
                 shapes=[Circle(cx, cy, 9, "#ffffff", "#9e9e9e"),
                         Text(cx, cy + 3, str(number), size=8, anchor="middle",
                              fill="#6b6b6b")])


def _scores(board: BoardReader, y: float) -> Group:
    scores = Group("Scores", cls="scores", titled=False)
    x = 4.0
    per = (WIDTH - 8) / max(1, len(board.seats))
    room = 9 if len(board.seats) <= 4 else 4  # 5 seats: 70 px each on a phone
    for i, s in enumerate(board.seats):
        total = s["vp"]["total"] if isinstance(s.get("vp"), dict) else s.get("vp", 0)
        name = board.names[i]
        short = name if len(name) <= room else name[:room - 1] + "…"
        scores.shapes.append(Group(f"{board.who(i)}: {total} VP", role="img", shapes=[
            Rect(x, y, 20, 20, 10, fill_of(s["colour"]), INK),
            Text(x + 10, y + 14, s["letter"], size=11, weight="bold", anchor="middle",
                 fill=ink_on(s["colour"])),
            Text(x + 24, y + 14, f"{short} {total}", size=11, weight="bold"),
        ]))
        x += per
    return scores


def picture(view: GameView, names: Sequence[str] | None = None) -> Picture:
    """The board of `view` laid out as positioned pieces; `names` are the seats' names."""
    board = BoardReader(view, names)
    shapes: list[Shape] = [_scores(board, 4)]
    y = 32
    for row in FACILITY_GRID:
        for col, fid in enumerate(row):
            x = 4 + col * (BOX_W + 4)
            shapes.append(_display(board, x, y) if fid == "display"
                          else _facility(board, fid, x, y))
        y += BOX_H + 4
    boards, below_boards = faction_boards(board, y)
    hub, below_hub = _hub(board, below_boards + 2)
    shapes += [*boards, hub]
    y = int(below_hub)
    shapes.append(Text(4, y + 14, "Maxwell — territories", size=11, weight="bold"))
    y += 20
    for i, tid in enumerate(TERRITORY_NAMES):
        x = 4 + (i % 2) * (BOX_W + 4)
        shapes.append(territory(board, tid, x, y + (i // 2) * (BOX_H + 4)))
    title = (f"The board, round {view.get('round', '?')}: facilities, Colonist Hub and "
             "territories")
    return Picture(WIDTH, y + 4 * (BOX_H + 4) + 2, title, shapes)


@cache
def _environment() -> Environment:
    """The board's own Jinja environment: autoescaped whatever the file's name, and usable
    without a Flask app (the picture is a pure function of the view)."""
    return Environment(loader=FileSystemLoader(templates_dir()), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def board_svg(view: GameView, names: Sequence[str] | None = None) -> Markup:
    """The board of `view` as an inline `<svg>` element; `names` are the seats' names."""
    return Markup(_environment().get_template(TEMPLATE).render(board=picture(view, names)))
