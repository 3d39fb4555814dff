"""Table talk in the JSON API (docs/api.md, "Table talk"): ``GET /api/games/<id>/messages``
reads the table, ``POST`` the same URL posts ``{"text": "…"}`` as the seat's message.

The seat is named by its link token (``Authorization: Bearer <seat link token>``), as in the
rest of the API; no version is needed: talk does not depend on the game's moves. Refusals
are the API's JSON errors (``pbem.web.blueprints.errors``): 400 ``bad_input`` for a message
that is empty, too long or not plain text, 429 ``too_many_requests`` past the seat's limit.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from marshmallow import ValidationError

from pbem.extensions import csrf
from pbem.models import table_talk as board
from pbem.schemas.api import first_error
from pbem.schemas.table_talk import MessageRequest, MessagesQuery
from pbem.services import table_talk
from pbem.services.errors import BadInput
from pbem.web.blueprints.api import authorised, body_of
from pbem.web.presenters.table_talk import message_json

bp = Blueprint("talk_api", __name__, url_prefix="/api")
csrf.exempt(bp)
API_LIMIT = 100  # messages per answer; ``after`` pages on


@bp.get("/games/<public_id>/messages")
def messages(public_id: str) -> dict[str, Any]:
    """The newest ``API_LIMIT`` messages after ``?after=<id>`` (all: 0), oldest first."""
    game, _ = authorised(public_id)
    try:
        after = MessagesQuery().load(request.args)["after"]
    except ValidationError as exc:
        raise BadInput(first_error(exc.messages)) from None
    names = {s.index: s.name for s in game.seats}
    return {"game": game.public_id, "total": board.count(game.id),
            "messages": [message_json(row, names) for row in board.latest(game.id, API_LIMIT,
                                                                          after)]}


@bp.post("/games/<public_id>/messages")
def post(public_id: str) -> tuple[dict[str, Any], int]:
    game, seat = authorised(public_id)
    text = body_of(MessageRequest())["text"]
    row = table_talk.post(game.id, seat.index, text)
    return {"message": message_json(row, {s.index: s.name for s in game.seats})}, 201
