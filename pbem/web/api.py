"""The JSON API for scripts and bots (docs/api.md): one seat, identified by its link token.

``Authorization: Bearer <seat link token>`` names the seat; the body carries the version the
client saw. CSRF does not apply (no cookies are used); a coarse rate limit does. Errors are
mapped to JSON in ``pbem.web.errors``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from marshmallow import Schema, ValidationError

from pbem import engine
from pbem.engine import GameState
from pbem.extensions import csrf
from pbem.models import Game, Seat
from pbem.schemas.api import ActionRequest, UndoRequest, first_error
from pbem.services import games, tokens
from pbem.services.errors import BadInput, NotAllowed
from pbem.services.turns import Step
from pbem.web.ratelimit import limit_api

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)
bp.before_request(limit_api)


def _authorised(public_id: str) -> tuple[Game, Seat]:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        raise tokens.BadToken("missing")
    return tokens.resolve_seat_link(token.strip(), public_id)


def _body(schema: Schema) -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadInput("The body must be a JSON object.")
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise BadInput(first_error(exc.messages)) from None
    return loaded


def can_undo(game: Game, seat: int) -> bool:
    steps = game.turn_steps
    return bool(steps) and steps[-1]["seat"] == seat and not steps[-1]["barrier"]


def seat_payload(game: Game, seat: Seat) -> dict[str, Any]:
    """What the seat may see, and what it may do now in JSON and in notation."""
    state = GameState.from_json(game.state)
    picture = engine.view(state, seat.index)
    picture.pop("legal", None)  # given below with notation
    playable = game.status == "active" and not seat.autopilot
    menu = engine.legal_actions(state, seat.index) if playable else []
    return {
        "game": game.public_id,
        "name": game.name,
        "status": game.status,
        "version": game.version,
        "seat": {"index": seat.index, "name": seat.name, "colour": seat.colour,
                 "autopilot": seat.autopilot},
        "awaiting": engine.awaited(state) if game.status == "active" else None,
        "can_undo": playable and can_undo(game, seat.index),
        "view": picture,
        "legal": [{"action": engine.action_to_json(a), "notation": engine.format_action(a)}
                  for a in menu],
    }


def _applied(steps: list[Step]) -> list[dict[str, Any]]:
    return [{"seat": s["seat"], "notation": s["notation"], "by": s["by"], "events": s["events"]}
            for s in steps]


def _action(body: dict[str, Any], game: Game, seat: Seat) -> engine.Action:
    if "notation" in body:
        return engine.parse_action(body["notation"], seat.index, game.players)
    data = dict(body["action"])
    if data.setdefault("seat", seat.index) != seat.index:
        raise NotAllowed("This action names another player's seat.")
    if not isinstance(data.get("kind"), str):
        raise BadInput("action: 'kind' is required.")
    return engine.action_from_json(data)


@bp.get("/games/<public_id>/seat")
def seat_view(public_id: str) -> dict[str, Any]:
    game, seat = _authorised(public_id)
    return seat_payload(game, seat)


@bp.post("/games/<public_id>/actions")
def act(public_id: str) -> dict[str, Any]:
    game, seat = _authorised(public_id)
    body = _body(ActionRequest())
    action = _action(body, game, seat)
    result = games.submit_action(game.id, seat.index, body["version"], action)
    return {**seat_payload(result.game, seat), "applied": _applied(result.steps)}


@bp.post("/games/<public_id>/undo")
def undo(public_id: str) -> dict[str, Any]:
    game, seat = _authorised(public_id)
    body = _body(UndoRequest())
    result = games.undo_step(game.id, seat.index, body["version"])
    undone = _applied([result.undone]) if result.undone else []
    return {**seat_payload(result.game, seat), "undone": undone[0] if undone else None}
