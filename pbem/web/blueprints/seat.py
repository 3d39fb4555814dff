"""The turn page's "Your seat" forms: ``POST /play/<seat_link>/vacation|settings|back|mailbox``.

Each form carries the CSRF token (checked by Flask-WTF) and the signed form token, exactly as
``act`` and ``undo``; each calls one service and redirects (303) to the page, or shows the
page again with the refusal's sentence and the status of its error (nothing was changed: the
service rolled back). Only the vacation form insists on the page's version: a repeated or
stale vacation form would spend the allowance twice, while settings and "I'm back" are
harmless to repeat and should not fail because another player moved meanwhile.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, request, url_for
from marshmallow import Schema, ValidationError

from pbem import tokens
from pbem.schemas.forms import SettingsForm, UndoForm, VacationForm, first_errors
from pbem.services import bounces, links, seat_settings, vacation
from pbem.services.errors import BadInput, GameNotActive, NotAllowed, StaleVersion
from pbem.web.blueprints.play import Notice, render_turn

bp = Blueprint("seat", __name__)

REFUSALS = (BadInput, GameNotActive, NotAllowed, StaleVersion)
TITLES = {"vacation": "No vacation was taken.", "settings": "Nothing was saved.",
          "back": "Nothing was changed.", "mailbox": "Nothing was sent again.",
          "notices": "Nothing was changed."}


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def load_form(schema: Schema, seat_link: str) -> tuple[Any, Any, dict[str, Any], int]:
    """The seat's game and seat, the parsed form and the version its form token names."""
    game, seat = links.resolve_seat_link(seat_link)
    try:
        data: dict[str, Any] = schema.load(request.form)
    except ValidationError as exc:
        raise Refused(400, next(iter(first_errors(exc.messages_dict).values())))\
            from None
    version = tokens.read_form_token(data["form_token"], game.public_id, seat.index)
    return game, seat, data, version


def answer(seat_link: str, what: str, work: Any) -> Response:
    try:
        work()
    except Refused as exc:
        return _refused(seat_link, what, exc.status, exc.message)
    except REFUSALS as exc:
        text = exc.message
        if isinstance(exc, StaleVersion):
            text += " Here is the game now."
        return _refused(seat_link, what, 409 if isinstance(exc, StaleVersion) else exc.status,
                        text)
    return redirect(url_for("play.turn", seat_link=seat_link, done=what),  # type: ignore[return-value]
                    303)


def _refused(seat_link: str, what: str, status: int, text: str) -> Response:
    game, seat = links.resolve_seat_link(seat_link)  # re-read: the service rolled back
    return render_turn(game, seat, seat_link, status=status, seat_open=True,
                       notice=Notice("refused", TITLES[what], text))


@bp.post("/play/<seat_link>/vacation")
def take_vacation(seat_link: str) -> Response:
    def work() -> None:
        game, seat, data, version = load_form(VacationForm(), seat_link)
        vacation.declare_vacation(game.id, seat.index, data["days"], expected_version=version)

    return answer(seat_link, "vacation", work)


@bp.post("/play/<seat_link>/settings")
def save_settings(seat_link: str) -> Response:
    def work() -> None:
        game, seat, data, _ = load_form(SettingsForm(), seat_link)
        seat_settings.update_settings(
            game.id, seat.index, notify=data["notify"], timezone=data["timezone"],
            quiet_start=data["quiet_start"], quiet_end=data["quiet_end"],
            table_talk_mail=_on_off(data["table_talk_mail"]))

    return answer(seat_link, "settings", work)


def _on_off(choice: str | None) -> bool | None:
    return None if choice is None else choice == "on"


@bp.post("/play/<seat_link>/back")
def come_back(seat_link: str) -> Response:
    def work() -> None:
        game, seat, _, _ = load_form(UndoForm(), seat_link)
        seat_settings.come_back(game.id, seat.index)

    return answer(seat_link, "back", work)


@bp.post("/play/<seat_link>/mailbox")
def mailbox_fixed(seat_link: str) -> Response:
    """"I fixed my mailbox — send again": mail after a bounce (``Seat.email_failing``)."""
    def work() -> None:
        game, seat, _, _ = load_form(UndoForm(), seat_link)
        bounces.clear_bounce(game.id, seat.index)

    return answer(seat_link, "mailbox", work)
