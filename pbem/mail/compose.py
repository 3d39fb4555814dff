"""Compose mails from templates (``templates/mail/<kind>.txt`` and ``.html``).

Game data reaches a mail only through ``engine.view(state, seat)`` (style habit 4): each
composer builds the view for the recipient's own seat, plus seat names and links. A mail to
one seat carries that seat's links only; names are shown, e-mail addresses never are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import render_template
from sqlalchemy import select

from pbem import describe
from pbem.engine import GameState, action_from_json, format_action, view
from pbem.engine.bots import DOCK_WORTH
from pbem.extensions import db
from pbem.mail import links
from pbem.models.game import ActionLog
from pbem.services import tokens

MENU_SIZE = 4
SINCE_LIMIT = 40  # sentences of "what happened since your last turn"


@dataclass(frozen=True)
class Mail:
    """A composed mail, before it has an address, a Message-ID or a row."""

    kind: str
    subject: str
    text: str
    html: str | None
    unsubscribe_url: str | None = None
    unsubscribe_mailto: str | None = None


def subject_of(game: Any) -> str:
    """One subject for every mail of a game, so mail clients keep them in one thread."""
    return f"Alien Frontiers: {game.name}"


def spectator_view(game: Any) -> dict[str, Any]:
    return view(GameState.from_json(game.state), None)


def seat_view(game: Any, seat_index: int | None) -> dict[str, Any]:
    return view(GameState.from_json(game.state), seat_index)


def names_of(game: Any) -> list[str]:
    return [s.name for s in sorted(game.seats, key=lambda s: s.index)]


def local_time(when: datetime, tz_name: str | None) -> str:
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    local = when.astimezone(zone)
    return local.strftime("%A %-d %B, %H:%M ") + (local.tzname() or str(zone))


def deadline_of(game: Any) -> datetime:
    due = getattr(game, "turn_deadline", None)
    if due is not None:
        return due
    return datetime.now(UTC) + timedelta(hours=game.time_per_move_hours or 48)


# --- links -----------------------------------------------------------------------------

def turn_url(game: Any, seat: Any) -> str:
    token = tokens.make_seat_link(game, seat)
    return links.external(("play.turn", "play.page", "pages.turn"), f"/play/{token}",
                          seat_link=token)


def move_url(game: Any, seat: Any, notation: str) -> str:
    """The turn page with a move prefilled (``?move=``): it opens a form, never plays it."""
    return links.with_query(turn_url(game, seat), move=notation)


def replay_url(game: Any) -> str:
    return links.external(("games.replay", "pages.replay"), f"/games/{game.public_id}/replay",
                          public_id=game.public_id)


def game_url(game: Any) -> str:
    return links.external(("games.show", "pages.game"), f"/games/{game.public_id}",
                          public_id=game.public_id)


def host_url(game: Any) -> str:
    token = tokens.make_host_token(game.public_id)
    return links.external(("host.page", "pages.host"), f"/host/{token}", host_token=token)


def unsubscribe_url(game: Any, seat: Any) -> str:
    token = tokens.make_unsubscribe_token(game.public_id, seat.index)
    return links.external(("mail.unsubscribe",), f"/mail/unsubscribe/{token}", token=token)


# --- context shared by the game mails ---------------------------------------------------

def board_rows(picture: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for s in picture["seats"]:
        rows.append({
            "name": names[s["seat"]], "letter": s["letter"], "colour": s["colour"],
            "fuel": s["fuel"], "ore": s["ore"], "colonies_left": s["colonies"],
            "cards": [describe.card(c) for c in s["cards"]], "vp": s["vp"],
        })
    return rows


def territory_rows(picture: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for tid, counts in sorted(picture["colonies"].items()):
        owner = picture["controllers"].get(tid)
        placed = ", ".join(f"{names[i]} {n}" for i, n in enumerate(counts) if n)
        rows.append({"name": describe.territory(tid),
                     "controller": names[owner] if owner is not None else "nobody",
                     "colonies": placed or "none"})
    return rows


def _action_worth(action: dict[str, Any]) -> float:
    kind = action.get("kind")
    if kind == "dock":
        worth = DOCK_WORTH.get(action["facility"], 0.0) + 0.1 * sum(action.get("values", []))
        return worth + (25.0 if action.get("launch") else 0.0)
    return {"launch": 30.0, "land": 22.0, "claim": 18.0, "buy_relic": 16.0, "steal": 8.0,
            "steal_card": 9.0, "trade": 5.0, "cycle": 0.5, "end_raid": 0.0,
            "end_turn": -10.0}.get(str(kind), -5.0)


def strong_moves(picture: dict[str, Any], names: list[str]) -> list[dict[str, str]]:
    """A few good legal moves from the seat's view, one per kind of move and facility."""
    legal = picture.get("legal") or []
    ranked = sorted(legal, key=_action_worth, reverse=True)
    seen: set[tuple[Any, ...]] = set()
    menu = []
    for action in ranked:
        key = (action.get("kind"), action.get("facility"), action.get("territory"))
        if key in seen:
            continue
        seen.add(key)
        notation = format_action(action_from_json(action))
        menu.append({"label": describe.describe_action(action, names), "notation": notation})
        if len(menu) == MENU_SIZE:
            break
    return menu


def since_last_turn(game: Any, seat_index: int, names: list[str]) -> list[str]:
    """Plain-English sentences for every logged step after this seat's own last one."""
    if getattr(game, "id", None) is None:
        return []
    rows = db.session.scalars(
        select(ActionLog).where(ActionLog.game_id == game.id)
        .order_by(ActionLog.seq.desc()).limit(200)
    ).all()
    recent: list[Any] = []
    for row in rows:
        if row.seat == seat_index:
            break
        recent.append(row)
    reader = describe.ReaderNames(names, seat_index)
    sentences: list[str] = []
    for row in reversed(recent):
        sentences.extend(describe.describe(row.events or [], reader))
    return sentences[-SINCE_LIMIT:]


def game_context(game: Any, seat: Any | None) -> dict[str, Any]:
    index = seat.index if seat is not None else None
    picture = seat_view(game, index)
    names = names_of(game)
    context: dict[str, Any] = {
        "game_name": game.name, "round": picture["round"], "names": names,
        "board": board_rows(picture, names), "territories": territory_rows(picture, names),
        "game_url": game_url(game), "recipient": seat.name if seat is not None else "host",
        "view": picture,
    }
    if seat is not None:
        me = picture["seats"][index]
        active = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
        context.update(
            me=board_rows(picture, names)[seat.index], me_view=me,
            turn_url=turn_url(game, seat), unsubscribe_url=unsubscribe_url(game, seat),
            active_name=names[active] if active is not None else None,
            notify=getattr(seat, "notify", "every_turn"),
        )
    return context


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    text = render_template(f"mail/{kind}.txt", **context)
    html = render_template(f"mail/{kind}.html", **context)
    return text, html


def _game_mail(kind: str, game: Any, seat: Any | None, **extra: Any) -> Mail:
    context = game_context(game, seat)
    context.update(extra)
    text, html = render(kind, context)
    return Mail(kind=kind, subject=subject_of(game), text=text, html=html,
                unsubscribe_url=context.get("unsubscribe_url"))


# --- the mails --------------------------------------------------------------------------

def invitation(game: Any, seat: Any) -> Mail:
    return _game_mail("invitation", game, seat,
                      others=[n for i, n in enumerate(names_of(game)) if i != seat.index],
                      hours=game.time_per_move_hours)


def your_turn(game: Any, seat: Any) -> Mail:
    names = names_of(game)
    picture = seat_view(game, seat.index)
    return _game_mail(
        "your_turn", game, seat,
        rolled=picture["turn"]["rolled"], moves=_menu(game, seat, picture, names),
        since=since_last_turn(game, seat.index, names),
        deadline=local_time(deadline_of(game), seat.timezone),
    )


def decision_needed(game: Any, seat: Any) -> Mail:
    names = names_of(game)
    picture = seat_view(game, seat.index)
    pending = picture.get("pending") or {}
    return _game_mail(
        "decision", game, seat, pending_kind=pending.get("kind"),
        moves=_menu(game, seat, picture, names),
        active_turn=names[picture["active"]],
        deadline=local_time(deadline_of(game), seat.timezone),
    )


def others_turn(game: Any, seat: Any, actor: int, events: list[dict[str, Any]]) -> Mail:
    names = names_of(game)
    return _game_mail("others_turn", game, seat, actor=names[actor],
                      happened=describe.describe(events, describe.ReaderNames(names, seat.index)))


def reminder(game: Any, seat: Any, due: datetime) -> Mail:
    return _game_mail("reminder", game, seat, deadline=local_time(due, seat.timezone))


def vacation(game: Any, seat: Any, away: str, until: datetime) -> Mail:
    """Another player is on vacation (added by the deadlines work, issue #8)."""
    return _game_mail("vacation", game, seat, away=away, until=local_time(until, seat.timezone))


def game_over(game: Any, seat: Any | None) -> Mail:
    names = names_of(game)
    picture = seat_view(game, seat.index if seat is not None else None)
    result = picture.get("result") or {}
    winners = [names[i] for i in result.get("winners", []) if isinstance(i, int)]
    scores = sorted(board_rows(picture, names), key=lambda r: -r["vp"]["total"])
    return _game_mail("game_over", game, seat, winners=winners, scores=scores,
                      tiebreak=result.get("tiebreak"), replay_url=replay_url(game))


def magic_link(url: str) -> Mail:
    context = {"url": url}
    text, html = render("magic_link", context)
    return Mail(kind="magic_link", subject="Your Alien Frontiers games", text=text, html=html)


def email_failing(game: Any, seat: Any, error: str) -> Mail:
    context = game_context(game, None)
    context.update(seat_name=seat.name, error=error, host_url=host_url(game))
    text, html = render("email_failing", context)
    return Mail(kind="email_failing", subject=subject_of(game), text=text, html=html)


def _menu(game: Any, seat: Any, picture: dict[str, Any], names: list[str]) -> list[dict[str, str]]:
    moves = strong_moves(picture, names)
    for move in moves:
        move["url"] = move_url(game, seat, move["notation"])
    return moves
