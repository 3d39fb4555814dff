"""The JSON API for scripts and bots (docs/api.md): one seat, identified by its link token.

``Authorization: Bearer <seat link token>`` names the seat; the body carries the version the
client saw. CSRF does not apply (no cookies are used); a coarse rate limit does. Errors are
mapped to JSON in ``pbem.web.blueprints.errors``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for
from marshmallow import Schema, ValidationError

from pbem import engine, tokens
from pbem.engine import GameOver, GameState, NotYourTurn, RulesError
from pbem.extensions import csrf
from pbem.models import Game, Seat
from pbem.schemas.api import ActionRequest, UndoRequest, first_error
from pbem.services import games, links, play
from pbem.services.errors import BadInput, NotAllowed
from pbem.services.play import GameFacts, SeatFacts
from pbem.web import guards
from pbem.web.blueprints.errors import error_response

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_JSON_DEPTH = 8  # an action is an object holding lists of numbers: three levels
csrf.exempt(bp)


def _token() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        raise tokens.BadToken("missing")
    return token.strip()


def authorised(public_id: str) -> tuple[Game, Seat]:
    return links.resolve_seat_link(_token(), public_id)


def _json_object() -> dict[str, Any]:
    """The body as a JSON object of at most ``MAX_JSON_DEPTH`` levels."""
    if not request.is_json:
        raise BadInput("The body must be a JSON object.")
    try:
        return guards.json_object(request.get_data(cache=True), MAX_JSON_DEPTH)
    except guards.NotAnObject as refused:
        raise BadInput(str(refused)) from None


def body_of(schema: Schema) -> dict[str, Any]:
    data = _json_object()
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise BadInput(first_error(exc.messages)) from None
    return loaded


def seat_payload(game: GameFacts, seat: SeatFacts, state: GameState) -> dict[str, Any]:
    """What the seat may see, and what it may do now in JSON and in notation.

    ``game`` and ``state``: the game as a service gave it (``links``, or a ``play.Outcome``).
    The menu is the one ``engine.view`` lists (``legal_actions``, computed once per request).
    """
    picture = engine.view(state, seat.index)
    legal = picture.pop("legal", None)  # given below with notation
    if legal is None:
        legal = [engine.action_to_json(a) for a in engine.legal_actions(state, seat.index)]
    playable = game.status == "active" and not seat.autopilot
    return {
        "game": game.public_id,
        "name": game.name,
        "status": game.status,
        "version": game.version,
        "seat": {"index": seat.index, "name": seat.name, "colour": seat.colour,
                 "autopilot": seat.autopilot},
        "awaiting": engine.awaited(state) if game.status == "active" else None,
        "can_undo": playable and play.undo_refusal(game.turn_steps, seat.index) is None,
        "view": picture,
        "legal": [{"action": a, "notation": engine.format_action(engine.action_from_json(a))}
                  for a in (legal if playable else [])],
    }


def _applied(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"seat": s["seat"], "notation": s["notation"], "by": s["by"], "events": s["events"]}
            for s in steps]


def _action(body: dict[str, Any], seat: int, players: int) -> engine.Action:
    if "notation" in body:
        return engine.parse_action(body["notation"], seat, players)
    data = dict(body["action"])
    if data.setdefault("seat", seat) != seat:
        raise NotAllowed("This action names another player's seat.")
    if not isinstance(data.get("kind"), str):
        raise BadInput("action: 'kind' is required.")
    return engine.action_from_json(data)


@bp.get("/games/<public_id>/seat")
def seat_view(public_id: str) -> dict[str, Any]:
    game, seat = authorised(public_id)
    return seat_payload(game, seat, GameState.from_json(game.state))


@bp.get("/games/<public_id>/players")
def players(public_id: str) -> dict[str, Any]:
    """Every seat by name and colour (never an address) with a computer player's bot level,
    the level of the autopilot that plays for a timed-out, absent or resigned player, and the
    strong level's rollouts per decision (null: the default)."""
    game, _ = authorised(public_id)
    return {
        "game": game.public_id,
        "players": [{"index": s.index, "name": s.name, "colour": s.colour,
                     "computer": s.is_bot, "level": s.level, "resigned": s.resigned}
                    for s in game.seats],
        "autopilot_level": game.autopilot_level,
        "bot_budget": game.bot_budget,
    }


@bp.post("/games/<public_id>/actions")
def act(public_id: str) -> dict[str, Any] | tuple[Any, int]:
    link, players = links.check_seat_link(_token(), public_id)  # the service reads the game
    body = body_of(ActionRequest())
    try:
        action = _action(body, link.seat, players)
        result = play.play(public_id, link.seat, body["version"], action)
    except RulesError as exc:
        if "notation" not in body or isinstance(exc, NotYourTurn | GameOver):
            raise
        help_url = url_for("home.notation", _external=True)  # a typed move: how to write one
        return error_response(422, "rules", f"{exc.message} How to write a move: {help_url}",
                              kind=type(exc).__name__, help=help_url)
    seat = result.game.seat(link.seat)
    return {**seat_payload(result.game, seat, result.state), "applied": _applied(result.steps)}


@bp.post("/games/<public_id>/undo")
def undo(public_id: str) -> dict[str, Any]:
    game, seat = authorised(public_id)
    body = body_of(UndoRequest())
    result = play.undo(game.id, seat.index, body["version"])
    undone = _applied([result.undone]) if result.undone else []
    return {**seat_payload(result.game, seat, result.state),
            "undone": undone[0] if undone else None}


@bp.post("/games/<public_id>/resign")
def resign(public_id: str) -> dict[str, Any]:
    """``{"version": n}``: the seat resigns; the autopilot plays it from now on. 200 gives the
    seat's new picture plus ``applied`` (what the autopilot played after it)."""
    game, seat = authorised(public_id)
    body = body_of(UndoRequest())
    result = games.resign(game.id, seat.index, expected_version=body["version"])
    return {**seat_payload(result.game, result.game.seat(seat.index), result.state),
            "applied": _applied(result.steps)}
