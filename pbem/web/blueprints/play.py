"""The turn page: ``GET /play/<seat_link>`` shows; ``POST …/act`` and ``POST …/undo`` act.

Views stay thin: parse with a schema, call one service, redirect (303) or render. A refused
move answers 422 with the engine's sentence and the current state; a stale form answers 409
with the current state. Neither changes anything (the service rolls back). The same form
posted again with the same move (a double click) answers "already done" with the game after
the first post.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from marshmallow import Schema, ValidationError
from werkzeug.datastructures import MultiDict

from pbem import engine, tokens
from pbem.engine import EndTurn, GameState, GameView, RulesError, menu_previews
from pbem.models import Game, Seat
from pbem.schemas.forms import ActForm, UndoForm, messages_of
from pbem.services import links, play, rematch
from pbem.services.errors import BadInput, GameNotActive, NotAllowed, StaleVersion
from pbem.web.presenters import turn as presenter
from pbem.web.presenters import turn_factions
from pbem.web.presenters.board_svg import board_svg
from pbem.web.presenters.calendar import feed_url
from pbem.web.presenters.notice_panel import notice_panel
from pbem.web.presenters.paused import paused_words
from pbem.web.presenters.reads import banks, since_last_turn, time_left
from pbem.web.presenters.season import play_again
from pbem.web.presenters.seat_panel import DONE, seat_panel
from pbem.web.presenters.seat_status import cancelled_words, resigned_words
from pbem.web.presenters.table_talk import table_board
from pbem.words.action_labels import PENDING_HINTS, dock_label
from pbem.words.action_labels_factions import card_title
from pbem.words.describe import describe
from pbem.words.glossary import CARD_EFFECTS, card_name
from pbem.words.result import result_words, standings, tiebreak_words
from pbem.words.when import local_time

bp = Blueprint("play", __name__)

@dataclass
class Notice:
    kind: str  # "refused", "stale", "ok"
    title: str
    text: str
    notation_help: bool = False  # a typed move was refused: link to how to write one


def parse(schema: Schema, form: MultiDict[str, str]) -> dict[str, Any]:
    """Load a form with `schema`; a malformed form is BadInput (400) with its first message."""
    try:
        data: dict[str, Any] = schema.load(form)
    except ValidationError as exc:
        field, messages = next(iter(messages_of(exc).items()))
        raise BadInput(f"{field}: {messages[0] if isinstance(messages, list) else messages}")\
            from None
    return data


@bp.get("/play/<seat_link>")
def turn(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    done = DONE.get(request.args.get("done", ""))
    return render_turn(game, seat, seat_link, move=request.args.get("move"),
                       pick=request.args.get("pick"),
                       notice=Notice("ok", *done) if done else None,
                       seat_open=request.args.get("done") in ("vacation", "settings", "notices"))


@bp.post("/play/<seat_link>/act")
def act(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    data = parse(ActForm(), request.form)
    version = tokens.read_form_token(data["form_token"], game.public_id, seat.index)
    typed = _with_picks(data["action"], request.form)
    try:
        action = engine.parse_action(typed, seat.index, game.players)
        play.play(game.id, seat.index, version, action)
    except RulesError as exc:
        return _refused(seat_link, 422, Notice(
            "refused", f"“{typed}” was not played.", exc.message, notation_help=True))
    except StaleVersion as exc:
        if play.already_applied(game.id, seat.index, version, action):
            return _refused(seat_link, 200, Notice(  # a double submit: the first one counted
                "ok", "Already done.", f"“{engine.format_action(action)}” was played when you "
                "first sent it (once); here is the game after it."))
        return _refused(seat_link, 409, Notice("stale", "This page was out of date.",
                                               exc.message + " Here is the game now."))
    except (GameNotActive, NotAllowed) as exc:
        return _refused(seat_link, 409, Notice("refused", "Nothing was played.", exc.message))
    return redirect(url_for("play.turn", seat_link=seat_link), 303)  # type: ignore[return-value]


@bp.post("/play/<seat_link>/undo")
def undo(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    data = parse(UndoForm(), request.form)
    version = tokens.read_form_token(data["form_token"], game.public_id, seat.index)
    try:
        play.undo(game.id, seat.index, version)
    except StaleVersion as exc:
        return _refused(seat_link, 409, Notice("stale", "This page was out of date.",
                                               exc.message + " Here is the game now."))
    except (GameNotActive, NotAllowed) as exc:
        return _refused(seat_link, 409, Notice("refused", "Nothing was undone.", exc.message))
    return redirect(url_for("play.turn", seat_link=seat_link), 303)  # type: ignore[return-value]


def _refused(seat_link: str, status: int, notice: Notice) -> Response:
    game, seat = links.resolve_seat_link(seat_link)  # re-read: the service rolled back
    return render_turn(game, seat, seat_link, notice=notice, status=status)


MAX_PICKS = 20  # more ships than any facility or hand holds


def _with_picks(head: str, form: MultiDict[str, str]) -> str:
    """A pick's form (the turn page's checkboxes): the move's notation is its head,
    the ticked ships' words and its tail; a plain move posts the action alone."""
    picked = form.getlist("pick")
    tail = form.get("action_end", "")
    if len(picked) > MAX_PICKS or any(len(w) > 20 for w in [*picked, tail]):
        raise BadInput("Too many ships or words were sent with that move.")
    return " ".join(w.strip() for w in [head, *picked, tail] if w.strip())


# -- rendering -------------------------------------------------------------------------------


def render_turn(game: Game, seat: Seat, seat_link: str, *, move: str | None = None,
                pick: str | None = None, notice: Notice | None = None,
                status: int = 200, seat_open: bool = False,
                talk_refused: tuple[str, str] | None = None) -> Response:
    """The turn page; ``talk_refused``: why a table talk form was refused, and the text to
    give back to the form."""
    state = GameState.from_json(game.state)
    me = seat.index
    active = game.status == "active" and not seat.autopilot
    view = engine.view(state, me)
    if not active:
        view["legal"] = view["picks"] = []
    names = [s.name for s in game.seats]
    my_turn = active and view["awaiting"] == me
    dice = presenter.my_dice(view, me)
    picked = presenter.parse_pick(pick, dice) if my_turn else []
    picked_values = [dice[i]["value"] for i in picked]
    picked_relic = any(dice[i].get("relic") for i in picked)
    move_refused, linked = _prefilled(game, state, me, move, my_turn)
    canonical = engine.format_action(linked) if linked is not None else None
    groups = presenter.menu(view, names, picked_values, picked_relic, canonical,
                            menu_previews(state, view["legal"], view["picks"]))
    move_choice = _chosen(groups, canonical) or (
        presenter.linked_choice(state, view, names, linked) if linked is not None else None)
    context = {
        "game": game, "me": seat, "mine": view["seats"][me], "view": view, "names": names,
        "seat_link": seat_link, "board": board_svg(view, names), "dice": dice,
        "picked": picked, "toggle": presenter.toggle, "groups": groups,
        "lit": any(g.lit for g in groups), "my_turn": my_turn,
        "closed": presenter.closed(state, me, groups) if my_turn else [],
        "territories": presenter.territory_legend(view, names),
        "finished": game.status == "finished" or view["phase"] == "over",
        "form_token": tokens.make_form_token(game.public_id, me, game.version),
        "notice": notice, "move_choice": move_choice, "move_refused": move_refused,
        "move_text": move, "move_group": _group_of(groups, canonical),
        "end_reason": _end_reason(state, me, groups) if my_turn else None,
        "can_undo": my_turn and play.undo_refusal(game.turn_steps or [], me) is None,
        "pending_words": PENDING_HINTS.get((view["pending"] or {}).get("kind", ""), ""),
        "time_left": time_left(game, view["awaiting"]),
        "banks": banks(game, view["awaiting"]),
        "since": since_last_turn(game, me, names),
        "this_turn": _this_turn(game, names, me) if my_turn else [],
        "card_name": card_name, "card_effects": CARD_EFFECTS, "card_title": card_title,
        "result_words": result_words(view, names),
        "decision": turn_factions.decision(view, names, me) if active else None,
        "offers": turn_factions.offers(groups),
        "private": turn_factions.private(view),
        "public_seats": turn_factions.public_seats(view, names),
        "panel": seat_panel(game, seat), "seat_open": seat_open,
        "notices": notice_panel(game, seat),
        "paused": paused_words(game, seat.timezone),
        "resigned": resigned_words(game, seat, seat.timezone),
        **_game_over(game, seat, view, names),
        "cancelled": cancelled_words(game, seat.timezone),
        "talk": table_board(game, seat, refused=talk_refused[0] if talk_refused else "",
                            typed=talk_refused[1] if talk_refused else ""),
        "calendar_url": feed_url(game, seat),
    }
    response = make_response(render_template("play/turn.html", **context), status)
    response.headers["Referrer-Policy"] = "same-origin"  # the URL is the seat's key
    response.headers["Cache-Control"] = "no-store"
    return response


def _game_over(game: Game, seat: Seat, view: GameView, names: list[str]) -> dict[str, Any]:
    """The finished game's part of the page: the ranking, the season, playing again."""
    if game.status != "finished":
        return {"standings": [], "tiebreak": "", "again": play_again(game), "asked": None,
                "host_seat": False}
    asked = rematch.asked_at(game, seat.index)
    return {
        "standings": standings(view, names, {s.index for s in game.seats if s.resigned}),
        "tiebreak": tiebreak_words(view, names), "again": play_again(game, seat),
        "asked": local_time(asked, seat.timezone) if asked is not None else None,
        "host_seat": game.host_seat == seat.index,
    }


def _prefilled(game: Game, state: GameState, seat: int, move: str | None,
               my_turn: bool) -> tuple[str | None, engine.Action | None]:
    """A move from a mail link: (why it cannot be played now, or None; the action)."""
    if not move:
        return None, None
    if not my_turn:
        return presenter.not_now(game.status, game.seat(seat).autopilot, state,
                                 [s.name for s in game.seats]), None
    try:
        action = engine.parse_action(move[:200], seat, game.players)
        engine.check(state, action)
    except RulesError as exc:
        return exc.message, None
    return None, action


def _chosen(groups: list[presenter.Group], notation: str | None) -> presenter.Choice | None:
    for g in groups:
        for c in g.choices:
            if c.notation == notation:
                if g.key.startswith("dock:"):
                    return presenter.Choice(c.notation, dock_label(c.label, g.title), c.detail)
                return c
    return None


def _group_of(groups: list[presenter.Group], notation: str | None) -> str | None:
    for g in groups:
        if any(c.notation == notation for c in g.choices):
            return g.key
    return None


def _end_reason(state: GameState, seat: int, groups: list[presenter.Group]) -> str | None:
    """Why "End turn" is not offered now (the engine's sentence), or None if it is. With
    nothing pending, only a docking still possible keeps the end from the menu, and the
    engine's refusal of any end names it first."""
    if any(g.key == "end" for g in groups) or state.turn.pending is not None:
        return None
    try:
        engine.check(state, EndTurn(seat, 0, 0))
    except RulesError as exc:
        return exc.message
    return None


def _this_turn(game: Game, names: list[str], me: int) -> list[str]:
    """One line per step, each from that step's own events: run together, the events of two
    steps gave one step's consequences to the other. Said to the reader, as the mails say
    it: "You docked 3 3 at the Shipyard and built your 4th ship."."""
    lines = (" ".join(describe(step.get("events") or [], names, viewer=me))
             for step in game.turn_steps or [])
    return [line for line in lines if line]
