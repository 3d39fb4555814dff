"""Table talk on the pages: ``POST /play/<seat_link>/say`` posts, ``POST …/say/<id>/delete``
deletes one's own message (for ``DELETE_MINUTES``), ``POST /host/<token>/talk/<id>/hide`` is
the host's. Each form carries the CSRF token (Flask-WTF); the seat's forms also carry the
signed form token of their page, of any version: talk does not depend on the game's moves,
so a message is never refused because another player moved meanwhile.

Each calls one service and redirects (303) to the table on the page, or shows the turn page
again with the refusal's sentence beside the form and the text given back (nothing changed).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, request, url_for

from pbem import tokens
from pbem.schemas.table_talk import DeleteForm, SayForm
from pbem.services import host_links, links, table_talk
from pbem.services.errors import ServiceError
from pbem.web.blueprints.play import parse, render_turn

bp = Blueprint("table_talk", __name__)


def _to_table(endpoint: str, **values: Any) -> Response:
    return redirect(url_for(endpoint, **values) + "#table-talk", 303)  # type: ignore[return-value]


def _refused(seat_link: str, refused: ServiceError, sentence: str, typed: str = "") -> Response:
    game, seat = links.resolve_seat_link(seat_link)  # re-read: the service rolled back
    return render_turn(game, seat, seat_link, status=refused.status,
                       talk_refused=(sentence, typed))


@bp.post("/play/<seat_link>/say")
def say(seat_link: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    data = parse(SayForm(), request.form)
    tokens.read_form_token(data["form_token"], game.public_id, seat.index)
    try:
        table_talk.post(game.id, seat.index, data["text"])
    except ServiceError as refused:
        return _refused(seat_link, refused, "Not posted: " + refused.message, data["text"])
    return _to_table("play.turn", seat_link=seat_link)


@bp.post("/play/<seat_link>/say/<int:message_id>/delete")
def delete(seat_link: str, message_id: int) -> Response:
    game, seat = links.resolve_seat_link(seat_link)
    data = parse(DeleteForm(), request.form)
    tokens.read_form_token(data["form_token"], game.public_id, seat.index)
    try:
        table_talk.delete(game.id, seat.index, message_id)
    except ServiceError as refused:
        return _refused(seat_link, refused, "Nothing was deleted: " + refused.message)
    return _to_table("play.turn", seat_link=seat_link)


@bp.post("/host/<token>/talk/<int:message_id>/hide")
def hide(token: str, message_id: int) -> Response:
    """The host hides a message: "hidden by the host" wherever it was shown."""
    game = host_links.resolve_host_link(token)
    table_talk.hide(game.id, message_id)
    return _to_table("games.host", token=token)
