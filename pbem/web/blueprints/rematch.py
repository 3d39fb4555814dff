"""Play again: the host starts the rematch, a player asks the host for one.

``GET /host/<token>/rematch`` shows the rematch to be (the link in the host's game-over
mail: a GET only shows) and ``POST`` starts it; ``POST /play/<seat_link>/rematch`` from the
game-over page starts it for the host's own seat and asks the host for one from any other.
Each POST calls one service and redirects; a refusal shows its sentence (nothing changed).
"""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from marshmallow import ValidationError

from pbem import tokens
from pbem.mail.outbound.links import host_token
from pbem.models import Game, Seat
from pbem.schemas.forms import UndoForm, first_errors
from pbem.services import host_links, links, rematch
from pbem.services.errors import BadInput
from pbem.web.presenters.season import play_again
from pbem.words.glossary import options_words

bp = Blueprint("rematch", __name__)


def _host_page(game: Game, token: str, *, error: str = "", status: int = 200) -> Response:
    again = play_again(game)
    page = render_template(
        "games/rematch.html", game=game, token=token, error=error, again=again,
        name=rematch.rematch_name(game), options=options_words(game.options or {},
                                                               game.time_per_move_hours,
                                                               game.time_bank),
        seats=sorted(game.seats, key=lambda s: s.index),
        started_url=url_for("games.host", token=host_token(again.rematch))
        if again.rematch is not None else None)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/host/<token>/rematch")
def host_confirm(token: str) -> Response:
    return _host_page(host_links.resolve_host_link(token), token)


@bp.post("/host/<token>/rematch")
def host_start(token: str) -> Response:
    game = host_links.resolve_host_link(token)
    try:
        started = rematch.start_rematch(game.id)
    except rematch.RematchStarted as exc:
        return _host_page(game, token, error=exc.message, status=exc.status)
    return redirect(url_for("games.host", token=host_token(started), done="rematch"),  # type: ignore[return-value]
                    303)


@bp.post("/play/<seat_link>/rematch")
def from_seat(seat_link: str) -> Response:
    """The game-over page's button: the host's seat starts the rematch, any other asks."""
    game, seat = links.resolve_seat_link(seat_link)
    try:
        data = UndoForm().load(request.form)
    except ValidationError as exc:
        raise BadInput(next(iter(first_errors(exc.messages_dict).values()))) from None
    tokens.read_form_token(data["form_token"], game.public_id, seat.index)  # this seat's form
    if game.host_seat == seat.index:
        started = rematch.start_rematch(game.id)
        return redirect(url_for("play.turn", seat_link=_seat_in(started, seat)), 303)  # type: ignore[return-value]
    asked = rematch.ask_for_rematch(game.id, seat.index)
    return redirect(url_for("play.turn", seat_link=seat_link,  # type: ignore[return-value]
                            done="asked" if asked else "asked_again", _anchor="rematch"), 303)


def _seat_in(game: Game, seat: Seat) -> str:
    """The host's own seat link in the rematch (the same address)."""
    same = next(s for s in game.seats if s.email and seat.email
                and s.email.lower() == seat.email.lower())
    return tokens.make_seat_link(game, same)
