"""``/mail/unsubscribe/<token>``: mail settings without logging in (RFC 8058 one-click).

GET shows a small form with the choices. POST with ``List-Unsubscribe=One-Click`` (what a mail
client sends from the ``List-Unsubscribe-Post`` header) sets the seat to "my turn only": the
mails a player needs to play keep coming. A POST from the form sets the chosen preference.
The signed token (its own salt) names the game, the seat and its link counter (a substitution
revokes the old player's link); CSRF does not apply: the token in
the URL is the credential, and the one-click POST comes from a mail client, not our page.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request

from pbem.extensions import csrf_exempt, db
from pbem.models.game import Game, Seat
from pbem.services import links
from pbem.services.errors import BadInput

bp = Blueprint("mail", __name__)

CHOICES = {
    "every_turn": "A mail after every turn, and when it is my turn",
    "my_turn": "Only when it is my turn (and when the game ends)",
}
ONE_CLICK = "my_turn"


def _seat_for(token: str) -> tuple[Game, Seat]:
    return links.resolve_unsubscribe_link(token)  # revoked with the seat's links


@bp.get("/mail/unsubscribe/<token>")
def settings(token: str) -> str:
    game, seat = _seat_for(token)
    return render_template("mail_settings.html", game=game, seat=seat, choices=CHOICES,
                           saved=False)


@bp.post("/mail/unsubscribe/<token>")
@csrf_exempt
def save(token: str) -> str:
    game, seat = _seat_for(token)
    if request.form.get("List-Unsubscribe") == "One-Click":
        choice = ONE_CLICK
    else:
        choice = request.form.get("notify", "")
        if choice not in CHOICES:
            raise BadInput("Choose one of the mail settings offered.")
    seat.notify = choice
    db.session.commit()
    return render_template("mail_settings.html", game=game, seat=seat, choices=CHOICES,
                           saved=True)
