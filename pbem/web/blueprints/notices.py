"""Notices in chat apps: a seat's channels (``/play/<seat_link>/notices…``, from "Your seat"
on the turn page) and the game's table channel (``/host/<token>/table-channel…``, from the
host page). Each form is parsed with its schema and calls one service of
``pbem.services.notice_channels``; a refusal shows the page again with its sentence and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, request, url_for
from marshmallow import ValidationError

from pbem.schemas.forms import UndoForm, first_errors
from pbem.schemas.notice_forms import (
    ChannelForm,
    ChannelPickForm,
    NoticeOptionsForm,
    TableChannelForm,
    TableChannelPickForm,
)
from pbem.services import host_links, notice_channels
from pbem.services.errors import BadInput
from pbem.web.blueprints.seat import answer, load_form

bp = Blueprint("notices", __name__)


@bp.post("/play/<seat_link>/notices")
def add(seat_link: str) -> Response:
    def work() -> None:
        game, seat, data, _ = load_form(ChannelForm(), seat_link)
        notice_channels.add_channel(game.id, seat.index, data["url"])

    return answer(seat_link, "notices", work)


@bp.post("/play/<seat_link>/notices/options")
def options(seat_link: str) -> Response:
    def work() -> None:
        game, seat, data, _ = load_form(NoticeOptionsForm(), seat_link)
        notice_channels.set_options(game.id, seat.index, handle=data["handle"],
                                    escalate_hours=data["escalate_hours"])

    return answer(seat_link, "notices", work)


ACTIONS = {"remove": notice_channels.remove_channel, "up": notice_channels.move_up,
           "resume": notice_channels.resume}


def _change(action: str) -> Callable[[str], Response]:
    def view(seat_link: str) -> Response:
        def work() -> None:
            game, seat, data, _ = load_form(ChannelPickForm(), seat_link)
            ACTIONS[action](game.id, seat.index, data["channel"])

        return answer(seat_link, "notices", work)
    return view


for _action in ACTIONS:  # POST /play/<seat_link>/notices/remove|up|resume (channel=ID)
    bp.add_url_rule(f"/play/<seat_link>/notices/{_action}", endpoint=f"channel_{_action}",
                    view_func=_change(_action), methods=["POST"])


@bp.post("/play/<seat_link>/seen")
def seen(seat_link: str) -> Response:
    """The turn page's script says the seat opened its turn (a browser ran the page, not a
    mail scanner fetching the link): its escalation ends. 204, nothing to show."""
    game, seat, _, _ = load_form(UndoForm(), seat_link)
    notice_channels.seat_visited(game.id, seat.index)
    return Response(status=204)


@bp.post("/host/<token>/table-channel")
def set_table(token: str) -> Any:
    game = host_links.resolve_host_link(token)
    try:
        data = TableChannelForm().load(request.form)
    except ValidationError as exc:
        raise BadInput(first_errors(exc.messages_dict)["url"]) from None
    notice_channels.set_table_channel(game.id, data["url"])
    return redirect(url_for("games.host", token=token), 303)


def _table_channel(token: str) -> tuple[int, int]:
    game = host_links.resolve_host_link(token)
    try:
        return game.id, TableChannelPickForm().load(request.form)["channel"]
    except ValidationError as exc:
        raise BadInput(first_errors(exc.messages_dict)["channel"]) from None


@bp.post("/host/<token>/table-channel/remove")
def remove_table(token: str) -> Any:
    game_id, channel = _table_channel(token)
    notice_channels.remove_channel(game_id, None, channel)
    return redirect(url_for("games.host", token=token), 303)


@bp.post("/host/<token>/table-channel/resume")
def resume_table(token: str) -> Any:
    game_id, channel = _table_channel(token)
    notice_channels.resume(game_id, None, channel)
    return redirect(url_for("games.host", token=token), 303)
