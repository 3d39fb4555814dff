"""Resigning from the turn page: ``GET /play/<seat_link>/resign`` asks for confirmation;
``POST`` (the confirm button: ``confirm=yes``, the seat's form token, CSRF) resigns.

The GET only shows (mail scanners and prefetchers follow links); the POST calls one service
(``games.resign``) and redirects to the turn page, or shows this page again with the
refusal's sentence (nothing was changed: the service rolled back).
"""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from marshmallow import ValidationError

from pbem import tokens
from pbem.models import Game, Seat
from pbem.schemas.forms import ResignForm, first_errors
from pbem.services import games, links
from pbem.services.errors import GameNotActive, NotAllowed
from pbem.web.presenters.seat_status import cancelled_words, level_words, resigned_words

bp = Blueprint("resign", __name__)


def _page(game: Game, seat: Seat, seat_link: str, *, error: str = "",
          status: int = 200) -> Response:
    page = render_template(
        "play/resign.html", game=game, me=seat, seat_link=seat_link, error=error,
        live=game.status in ("active", "paused") and not seat.autopilot,
        level=level_words(game), resigned=resigned_words(game, seat, seat.timezone),
        cancelled=cancelled_words(game, seat.timezone),
        others=[s.name for s in game.seats if s.index != seat.index],
        form_token=tokens.make_form_token(game.public_id, seat.index, game.version))
    response = make_response(page, status)
    response.headers["Referrer-Policy"] = "same-origin"  # the URL is the seat's key
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/play/<seat_link>/resign")
def confirm(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    return _page(game, seat, seat_link)


@bp.post("/play/<seat_link>/resign")
def resign(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    try:
        data = ResignForm().load(request.form)
    except ValidationError as exc:
        return _page(game, seat, seat_link, status=400,
                     error=next(iter(first_errors(exc.messages_dict).values())))
    tokens.read_form_token(data["form_token"], game.public_id, seat.index)  # this seat's form
    try:
        games.resign(game.id, seat.index)
    except (GameNotActive, NotAllowed) as exc:
        game, seat = links.resolve_seat_link(seat_link)  # re-read: the service rolled back
        return _page(game, seat, seat_link, error=exc.message, status=exc.status)
    return redirect(url_for("play.turn", seat_link=seat_link, done="resigned"),  # type: ignore[return-value]
                    303)
