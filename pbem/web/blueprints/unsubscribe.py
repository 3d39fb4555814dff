"""``/mail/unsubscribe/<token>``: mail settings without logging in (RFC 8058 one-click).

GET shows the same full settings as the turn page's "Your seat" (one template,
``_mail_settings_fields.html``; one service, ``seat_settings.update_settings``): which mails,
time zone, quiet hours. POST with ``List-Unsubscribe=One-Click`` (what a mail client sends
from the ``List-Unsubscribe-Post`` header) sets the seat to "my turn only": the mails a player
needs to play keep coming. A POST from the form saves the settings. The signed token (its own
salt) names the game, the seat and its link counter (a substitution revokes the old player's
link); CSRF does not apply: the token in the URL is the credential,
and the one-click POST comes from a mail client, not our page.
"""

from __future__ import annotations

from flask import Blueprint, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from pbem import tokens
from pbem.extensions import csrf_exempt
from pbem.models.game import Game, Seat
from pbem.schemas.forms import SettingsForm
from pbem.services import links, seat_settings
from pbem.services.errors import ServiceError
from pbem.web.presenters.seat_panel import NOTIFY_LABELS, seat_panel
from pbem.web.presenters.seat_status import cancelled_words

bp = Blueprint("mail", __name__)

CHOICES = NOTIFY_LABELS
ONE_CLICK = "my_turn"


def _seat_for(token: str) -> tuple[Game, Seat]:
    return links.resolve_unsubscribe_link(token)  # revoked with the seat's links


def _page(game: Game, seat: Seat, saved: bool = False, error: str = "",
          status: int = 200) -> ResponseReturnValue:
    panel = seat_panel(game, seat)
    page = render_template("mail_settings.html", game=game, seat=seat, choices=CHOICES,
                           panel=panel, saved=saved, error=error,
                           cancelled=cancelled_words(game, seat.timezone),
                           resign_url=url_for("resign.confirm",
                                              seat_link=tokens.make_seat_link(game, seat))
                           if panel.live else None,
                           notices_url=url_for("play.turn", done="notices",
                                               seat_link=tokens.make_seat_link(game, seat),
                                               _anchor="notices-title")
                           if panel.live else None)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/mail/unsubscribe/<token>")
def settings(token: str) -> ResponseReturnValue:
    game, seat = _seat_for(token)
    return _page(game, seat)


@bp.post("/mail/unsubscribe/<token>")
@csrf_exempt
def save(token: str) -> ResponseReturnValue:
    game, seat = _seat_for(token)
    if request.form.get("List-Unsubscribe") == "One-Click":
        seat = seat_settings.choose_mails(game.id, seat.index, ONE_CLICK)
        return _page(game, seat, saved=True)
    if "timezone" not in request.form:  # the mail choice alone (an older form, a client)
        seat = seat_settings.choose_mails(game.id, seat.index, request.form.get("notify", ""))
        return _page(game, seat, saved=True)
    try:
        data = SettingsForm().load(request.form, partial=("form_token",))
        seat = seat_settings.update_settings(
            game.id, seat.index, notify=data["notify"], timezone=data["timezone"],
            quiet_start=data["quiet_start"], quiet_end=data["quiet_end"],
            table_talk_mail=None if data["table_talk_mail"] is None
            else data["table_talk_mail"] == "on")
    except ValidationError as exc:
        words = " ".join(str(m[0] if isinstance(m, list) else m)
                         for m in exc.messages_dict.values())
        return _page(game, seat, error=words, status=400)
    except ServiceError as exc:  # a bad time zone or hour, a finished game: rolled back
        return _page(game, seat, error=exc.message, status=exc.status)
    return _page(game, seat, saved=True)
