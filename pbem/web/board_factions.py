"""The chosen Faction boards on the board picture (ruling F5): each is a one-port facility,
drawn with its name, its owner's chip (colour and letter, never colour alone) and the ship
docked there. The boards still offered in the draft are secret and never drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import escape

from pbem.words.glossary import FACTIONS, faction_name

if TYPE_CHECKING:
    from pbem.web.board_svg import Board

ROW_H = 46


def faction_boards(board: Board, y: float) -> float:
    """Draw the chosen boards two to a row from `y`; return the y below them."""
    from pbem.web.board_svg import BOX_W, COLOUR_HEX, INK_ON, _attr, _text

    owned = [(i, s["faction"]) for i, s in enumerate(board.seats) if s.get("faction")]
    if not owned:
        return y
    board.parts.append(_text(4, y + 12, "Faction boards (1 fuel to the owner)", size=11,
                             weight="bold"))
    y += 18
    for n, (owner, fid) in enumerate(owned):
        x = 4 + (n % 2) * (BOX_W + 4)
        top = y + (n // 2) * ROW_H
        here = board.ships_at(fid)
        text = FACTIONS.get(fid)
        label = f"{faction_name(fid)}, owned by {board.who(owner)}"
        if text:
            label += f": {text.facility}"
        label += "; docked: " + (", ".join(
            f"{board.who(s['owner'])} {s['value'] or ''}".strip() for s in here) or "nobody")
        seat = board.seats[owner]
        board.parts.append(f'<g class="facility faction" id="board-{_attr(fid)}" role="group" '
                           f'aria-label="{_attr(label)}"><title>{escape(label)}</title>')
        board.parts.append(f'<rect x="{x}" y="{top}" width="{BOX_W}" height="{ROW_H - 4}" '
                           'rx="6" fill="#f3eefa" stroke="#5c4b8a"/>')
        name = faction_name(fid)
        short = name if len(name) <= 24 else name[:23] + "…"
        board.parts.append(_text(x + 6, top + 13, short, size=10, weight="bold"))
        fill = COLOUR_HEX.get(seat["colour"], "#777777")
        board.parts.append(f'<circle cx="{x + BOX_W - 12}" cy="{top + 27}" r="9" '
                           f'fill="{fill}" stroke="#1a1a1a"/>')
        board.parts.append(_text(x + BOX_W - 12, top + 31, seat["letter"], size=11,
                                 weight="bold", anchor="middle",
                                 fill=INK_ON.get(seat["colour"], "#ffffff")))
        if here:
            board.die(x + 6, top + 18, here[0])
        else:
            board.port(x + 6, top + 18)
        board.parts.append("</g>")
    return y + ((len(owned) + 1) // 2) * ROW_H
