"""What every game mail shows: the reader's private panel, the scores, the board's tables
(``templates/mail/_summary.*``), built from a ``Given`` alone (pure).

The private panel is the reader's own view only: their face-down Agendas by name appear in
their own mail and nowhere else (ruling A5).
"""

from __future__ import annotations

from typing import Any

from pbem.engine import GameView
from pbem.mail.outbound import table_talk
from pbem.mail.outbound.given import Given
from pbem.words import describe, glossary, when


def own_agendas(picture: GameView) -> list[str]:
    """The viewing seat's face-down Agendas (none in a spectator's view)."""
    you = picture.get("you")
    return you["agendas"] if you is not None else []


def board_rows(picture: GameView, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for s in picture["seats"]:
        rows.append({
            "name": names[s["seat"]], "letter": s["letter"], "colour": s["colour"],
            "fuel": s["fuel"], "ore": s["ore"], "colonies_left": s["colonies"],
            "cards": [glossary.card_name(c) for c in s["cards"]], "vp": s["vp"],
        })
    return rows


def territory_rows(picture: GameView, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for tid, counts in sorted(picture["colonies"].items()):
        owner = picture["controllers"].get(tid)
        placed = ", ".join(f"{names[i]} {n}" for i, n in enumerate(counts) if n)
        rows.append({"name": describe.territory(tid),
                     "controller": names[owner] if owner is not None else "nobody",
                     "colonies": placed or "none"})
    return rows


def private_panel(picture: GameView, seat_index: int) -> dict[str, Any]:
    """The reader's own faction and Agendas (face-down ones by name: only in their own mail,
    ruling A5)."""
    me = picture["seats"][seat_index]
    fid = me.get("faction")
    text = glossary.FACTIONS.get(fid) if fid else None
    secret = [describe.agenda(a) for a in own_agendas(picture)]
    shown = [describe.agenda(a) for a in me.get("revealed", [])]
    agendas = [f"{n} (secret)" for n in secret] + [f"{n} (revealed)" for n in shown]
    return {
        "my_faction": text.name if text else None,
        "my_faction_power": text.owner if text else None,
        "my_agendas": agendas,
    }


def factions_line(picture: GameView, names: list[str]) -> str:
    """ "Ana: Corex Conglomerated · Ben: Scavenger Fleet" (chosen boards are public)."""
    chosen = [(names[s["seat"]], s["faction"]) for s in picture["seats"] if s.get("faction")]
    return " · ".join(f"{n}: {describe.faction(f)}" for n, f in chosen)


def revealed_line(picture: GameView, names: list[str]) -> str:
    """Every player's revealed Agendas (public once revealed, ruling A5)."""
    parts = [f"{names[s['seat']]}: {', '.join(describe.agenda(a) for a in s['revealed'])}"
             for s in picture["seats"] if s.get("revealed")]
    return " · ".join(parts)


def awaited_name(picture: GameView, names: list[str]) -> str | None:
    """Whose move the game waits for now (None once it is over)."""
    if picture.get("result"):
        return None
    awaited = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
    return names[awaited] if isinstance(awaited, int) else None


def banks_line(given: Given) -> str:
    """Each person's time bank (``when.banks_line``); empty when the game has a fixed time
    per move or is over."""
    picture = given.picture
    if given.game.bank is None or picture.get("result"):
        return ""
    awaited = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
    return when.banks_line([(seat.name, seat.bank, seat.index == awaited)
                            for seat in given.game.seats
                            if seat.bank is not None and not seat.is_bot])


def common(given: Given) -> dict[str, Any]:
    """The context every game mail shares: the game, the board, the reader's panel and
    links."""
    picture = given.picture
    names = given.game.names
    seat = given.seat
    context: dict[str, Any] = {
        "game_name": given.game.name, "round": picture["round"], "names": names,
        "board": board_rows(picture, given.game.score_names),
        "territories": territory_rows(picture, names),
        "game_url": given.game_url, "recipient": seat.name if seat is not None else "host",
        "view": picture, "factions_line": factions_line(picture, names),
        "revealed_line": revealed_line(picture, names),
        "banks_line": banks_line(given),
        "bank_words": when.bank_words(given.game.bank) if given.game.bank else None,
    }
    if seat is not None:
        me = picture["seats"][seat.index]
        active = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
        context.update(private_panel(picture, seat.index))
        context.update(
            me=board_rows(picture, names)[seat.index], me_view=me,
            turn_url=given.turn_url, unsubscribe_url=given.unsubscribe_url,
            notation_url=given.notation_url,
            active_name=names[active] if active is not None and not picture.get("result")
            else None,  # never "now it is X's turn" once the game is over
            notify=seat.notify,
        )
        context.update(table_talk.context(given.talk))
    return context
