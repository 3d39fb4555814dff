"""The board as inline SVG, drawn from a view (never a raw state).

`board_svg(view)` is pure: the same view gives the same picture. Ships are dice in their
owner's colour *and* with the owner's letter under them (ruling B21: colour is never the only
cue); the Relic Ship is a white die with a star. Every string that reaches the markup goes
through `escape`. The picture is laid out for a 360-px-wide phone: two columns of facilities,
the Colonist Hub's four tracks, then the planet's eight territories.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from pbem.engine.board import LAYOUT
from pbem.engine.ids import (
    CARD_NAMES,
    FACILITY_NAMES,
    FIELD_NAMES,
    HUB_CIRCLES,
    HUB_PORTS_PER_TRACK,
    HUB_TRACKS,
    TERRITORY_NAMES,
)
from pbem.web.board_factions import faction_boards

WIDTH = 360
COLOUR_HEX = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0",
              "yellow": "#f9c623", "purple": "#6a1b9a"}
INK_ON = {"yellow": "#1a1a1a"}  # text colour on a die; white elsewhere
DIE = 18
STEP = 20
BOX_W, BOX_H = 174, 54
FACILITY_GRID = (
    ("solar_converter", "lunar_mine"),
    ("orbital_market", "shipyard"),
    ("maintenance_bay", "alien_artifact"),
    ("display", "colony_constructor"),
    ("terraforming_station", "raiders_outpost"),
)
FIELD_SHORT = {"isolation_field": "ISO", "positron_field": "POS", "repulsor_field": "REP"}
RELIC_HOME = "burroughs_desert"
BAY = "maintenance_bay"


def _attr(value: object) -> str:
    return str(escape(str(value)))


def _text(x: float, y: float, content: object, *, size: int = 10, weight: str = "normal",
          anchor: str = "start", fill: str = "#1a1a1a", cls: str = "") -> str:
    klass = f' class="{_attr(cls)}"' if cls else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}"{klass}>{escape(str(content))}</text>')


class Board:
    """Holds the view and the seat names while the picture is drawn."""

    def __init__(self, view: dict[str, Any], names: Sequence[str] | None) -> None:
        self.view = view
        self.seats: list[dict[str, Any]] = list(view["seats"])
        self.names = list(names) if names else [s["colour"].title() for s in self.seats]
        self.parts: list[str] = []

    # -- pieces --------------------------------------------------------------------------
    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "nobody"
        s = self.seats[seat]
        return f"{self.names[seat]} ({s['colour']}, {s['letter']})"

    def die(self, x: float, y: float, ship: dict[str, Any]) -> None:
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
        fill = "#ffffff" if relic else COLOUR_HEX.get(str(colour), "#777777")
        ink = "#1a1a1a" if relic else INK_ON.get(str(colour), "#ffffff")
        stroke = ('stroke="#8a6d00" stroke-width="2" stroke-dasharray="3 2"' if relic
                  else 'stroke="#1a1a1a" stroke-width="1"')
        self.parts.append(f'<g class="ship" role="img" aria-label="{_attr(label)}">'
                          f'<title>{escape(label)}</title>')
        self.parts.append(f'<rect x="{x}" y="{y}" width="{DIE}" height="{DIE}" rx="4" '
                          f'fill="{fill}" {stroke}/>')
        if value:
            self.parts.append(_text(x + DIE / 2, y + 13, value, size=12, weight="bold",
                                    anchor="middle", fill=ink))
        if relic:
            self.parts.append(_text(x + DIE - 1, y + 7, "★", size=7, anchor="end",
                                    fill="#8a6d00"))
        tag = f"{letter}★" if relic else letter
        self.parts.append(_text(x + DIE / 2, y + DIE + 9, tag, size=9, weight="bold",
                                anchor="middle"))
        self.parts.append("</g>")

    def port(self, x: float, y: float) -> None:
        self.parts.append(f'<rect x="{x}" y="{y}" width="{DIE}" height="{DIE}" rx="4" '
                          'fill="none" stroke="#9e9e9e" stroke-dasharray="2 2"/>')

    def ships_at(self, loc: str) -> list[dict[str, Any]]:
        return [s for s in self.view["ships"] if s["loc"] == loc]

    # -- facilities ----------------------------------------------------------------------
    def facility(self, fid: str, x: float, y: float) -> None:
        name = FACILITY_NAMES[fid]
        here = self.ships_at(fid)
        label = f"{name}: " + (", ".join(
            f"{self.who(s['owner'])} {s['value'] or ''}".strip() for s in here) or "empty")
        self.parts.append(f'<g class="facility" id="board-{_attr(fid)}" role="group" '
                          f'aria-label="{_attr(label)}"><title>{escape(label)}</title>')
        self.parts.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" '
                          'fill="#f4f6fb" stroke="#5c6b8a"/>')
        self.parts.append(_text(x + 6, y + 13, name, size=10, weight="bold"))
        top = y + 18
        if fid == BAY:
            for i, ship in enumerate(here[:8]):
                self.die(x + 6 + i * STEP, top, ship)
            if len(here) > 8:
                self.parts.append(_text(x + BOX_W - 4, y + 13, f"+{len(here) - 8}",
                                        anchor="end"))
        else:
            self.groups(fid, here, x + 6, top)
        self.parts.append("</g>")

    def groups(self, fid: str, here: list[dict[str, Any]], x: float, top: float) -> None:
        shape, size, counts = LAYOUT[fid]
        count = counts[min(int(self.view["players"]), 4) - 2]
        by_slot: dict[int, list[dict[str, Any]]] = {}
        for ship in here:
            by_slot.setdefault(int(ship["slot"]), []).append(ship)
        gap = 0 if size == 1 else 6
        cursor = x
        for slot in range(count):
            ships = sorted(by_slot.get(slot, []), key=lambda s: s["value"] or 0)
            for pos in range(size):
                if pos < len(ships):
                    self.die(cursor, top, ships[pos])
                else:
                    self.port(cursor, top)
                cursor += STEP
            cursor += gap

    def display(self, x: float, y: float) -> None:
        cards = [CARD_NAMES.get(c, c) for c in self.view.get("display", [])]
        label = "Alien Tech display: " + (", ".join(cards) or "empty")
        self.parts.append(f'<g class="display" role="group" aria-label="{_attr(label)}">'
                          f'<title>{escape(label)}</title>')
        self.parts.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" '
                          'fill="#fbf7ee" stroke="#8a6d00"/>')
        deck = self.view.get("deck_size", 0)
        self.parts.append(_text(x + 6, y + 13, f"Alien Tech · {deck} in deck", size=10,
                                weight="bold"))
        for i, card in enumerate(cards[:3]):
            self.parts.append(_text(x + 6, y + 26 + i * 11, card, size=9))
        self.parts.append("</g>")

    # -- the Colonist Hub -----------------------------------------------------------------
    def hub(self, y: float) -> float:
        self.parts.append('<g class="hub" role="group" aria-label="Colonist Hub tracks">')
        self.parts.append(_text(4, y + 12, "Colonist Hub", size=11, weight="bold"))
        y += 18
        here = self.ships_at("colonist_hub")
        for track in range(HUB_TRACKS):
            users = [i for i, s in enumerate(self.seats) if s["hub_track"] == track]
            owner = users[0] if users else None
            words = f"Track {track + 1}" + (f", {self.who(owner)}" if owner is not None else "")
            colony = next((i for i in users if self.seats[i]["hub_circle"]), None)
            if colony is not None:
                words += f", colony on circle {self.seats[colony]['hub_circle']}"
            self.parts.append(f'<g role="group" aria-label="{_attr(words)}">'
                              f'<title>{escape(words)}</title>')
            tag = self.seats[owner]["letter"] if owner is not None else ""
            self.parts.append(_text(4, y + 13, f"{track + 1} {tag}", size=10, weight="bold"))
            docked = sorted((s for s in here if s["slot"] == track),
                            key=lambda s: s["value"] or 0)
            for pos in range(HUB_PORTS_PER_TRACK):
                px = 30 + pos * STEP
                if pos < len(docked):
                    self.die(px, y, docked[pos])
                else:
                    self.port(px, y)
            for circle in range(1, HUB_CIRCLES + 1):
                self.circle(100 + (circle - 1) * 36, y + 9, circle, colony)
            self.parts.append("</g>")
            y += 30
        self.parts.append("</g>")
        return y

    def circle(self, cx: float, cy: float, number: int, colony: int | None) -> None:
        if colony is not None and self.seats[colony]["hub_circle"] == number:
            seat = self.seats[colony]
            fill = COLOUR_HEX.get(seat["colour"], "#777777")
            ink = INK_ON.get(seat["colour"], "#ffffff")
            self.parts.append(f'<circle cx="{cx}" cy="{cy}" r="10" fill="{fill}" '
                              'stroke="#1a1a1a"/>')
            self.parts.append(_text(cx, cy + 4, seat["letter"], size=11, weight="bold",
                                    anchor="middle", fill=ink))
        else:
            self.parts.append(f'<circle cx="{cx}" cy="{cy}" r="9" fill="#ffffff" '
                              'stroke="#9e9e9e"/>')
            self.parts.append(_text(cx, cy + 3, number, size=8, anchor="middle",
                                    fill="#6b6b6b"))

    # -- the planet -----------------------------------------------------------------------
    def territory(self, tid: str, x: float, y: float) -> None:
        name = TERRITORY_NAMES.get(tid, tid)
        counts = self.view["colonies"].get(tid, [])
        controller = self.view["controllers"].get(tid)
        fields = [f for f, where in self.view["fields"].items() if where == tid]
        words = [name]
        words += [f"{self.who(i)}: {n} colon{'y' if n == 1 else 'ies'}"
                  for i, n in enumerate(counts) if n]
        words.append(f"controlled by {self.who(controller)}" if controller is not None
                     else "not controlled")
        words += [FIELD_NAMES.get(f, f) for f in fields]
        relic_home = [s for s in self.ships_at(RELIC_HOME) if s.get("relic")]
        if tid == RELIC_HOME and relic_home:
            words.append("the Relic Ship waits here")
        label = "; ".join(words)
        ctrl = self.seats[controller] if controller is not None else None
        stroke = COLOUR_HEX.get(ctrl["colour"], "#5c6b8a") if ctrl else "#8d9bb5"
        width = 3 if ctrl else 1
        self.parts.append(f'<g class="territory" id="board-{_attr(tid)}" role="group" '
                          f'aria-label="{_attr(label)}"><title>{escape(label)}</title>')
        self.parts.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" '
                          f'fill="#eef5ea" stroke="{stroke}" stroke-width="{width}"/>')
        self.parts.append(_text(x + 6, y + 13, name, size=10, weight="bold"))
        if ctrl:
            self.parts.append(_text(x + BOX_W - 5, y + 13, f"◆{ctrl['letter']}", size=10,
                                    weight="bold", anchor="end"))
        cx = x + 6
        for i, n in enumerate(counts):
            if n:
                self.colony_chip(cx, y + 20, i, n)
                cx += 38
        fx = x + 6
        for f in fields:
            self.parts.append(f'<rect x="{fx}" y="{y + 38}" width="30" height="12" rx="3" '
                              'fill="#1a1a1a"/>')
            self.parts.append(_text(fx + 15, y + 47, FIELD_SHORT.get(f, f[:3].upper()), size=8,
                                    weight="bold", anchor="middle", fill="#ffffff"))
            fx += 34
        if tid == RELIC_HOME and relic_home:
            self.die(x + BOX_W - DIE - 6, y + 20, relic_home[0])
        self.parts.append("</g>")

    def colony_chip(self, x: float, y: float, seat: int, n: int) -> None:
        s = self.seats[seat]
        fill = COLOUR_HEX.get(s["colour"], "#777777")
        ink = INK_ON.get(s["colour"], "#ffffff")
        self.parts.append(f'<circle cx="{x + 8}" cy="{y + 8}" r="8" fill="{fill}" '
                          'stroke="#1a1a1a"/>')
        self.parts.append(_text(x + 8, y + 12, s["letter"], size=10, weight="bold",
                                anchor="middle", fill=ink))
        self.parts.append(_text(x + 19, y + 12, f"×{n}", size=10, weight="bold"))

    # -- scores ---------------------------------------------------------------------------
    def scores(self, y: float) -> None:
        self.parts.append('<g class="scores" role="group" aria-label="Scores">')
        x = 4.0
        per = (WIDTH - 8) / max(1, len(self.seats))
        for i, s in enumerate(self.seats):
            total = s["vp"]["total"] if isinstance(s.get("vp"), dict) else s.get("vp", 0)
            words = f"{self.who(i)}: {total} VP"
            fill = COLOUR_HEX.get(s["colour"], "#777777")
            ink = INK_ON.get(s["colour"], "#ffffff")
            self.parts.append(f'<g role="img" aria-label="{_attr(words)}">'
                              f'<title>{escape(words)}</title>')
            self.parts.append(f'<rect x="{x}" y="{y}" width="20" height="20" rx="10" '
                              f'fill="{fill}" stroke="#1a1a1a"/>')
            self.parts.append(_text(x + 10, y + 14, s["letter"], size=11, weight="bold",
                                    anchor="middle", fill=ink))
            name = self.names[i]
            room = 9 if len(self.seats) <= 4 else 4  # 5 seats: 70 px each on a phone
            short = name if len(name) <= room else name[:room - 1] + "…"
            self.parts.append(_text(x + 24, y + 14, f"{short} {total}", size=11,
                                    weight="bold"))
            self.parts.append("</g>")
            x += per
        self.parts.append("</g>")

    # -- the whole picture ----------------------------------------------------------------
    def draw(self) -> Markup:
        y = 4
        self.scores(y)
        y += 28
        for row in FACILITY_GRID:
            for col, fid in enumerate(row):
                x = 4 + col * (BOX_W + 4)
                if fid == "display":
                    self.display(x, y)
                else:
                    self.facility(fid, x, y)
            y += BOX_H + 4
        y = int(self.hub(faction_boards(self, y) + 2))
        self.parts.append(_text(4, y + 14, "Maxwell — territories", size=11, weight="bold"))
        y += 20
        for i, tid in enumerate(TERRITORY_NAMES):
            x = 4 + (i % 2) * (BOX_W + 4)
            self.territory(tid, x, y + (i // 2) * (BOX_H + 4))
        height = y + 4 * (BOX_H + 4) + 2
        title = (f"The board, round {self.view.get('round', '?')}: facilities, "
                 "Colonist Hub and territories")
        head = (f'<svg class="board" xmlns="http://www.w3.org/2000/svg" '
                f'viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="board-title" '
                f'font-family="system-ui, sans-serif"><title id="board-title">'
                f'{escape(title)}</title>')
        return Markup(head + "".join(self.parts) + "</svg>")


def board_svg(view: dict[str, Any], names: Sequence[str] | None = None) -> Markup:
    """The board of `view` as an inline `<svg>` element; `names` are the seats' names."""
    return Board(view, names).draw()
