""""My games": ``/me`` mails a sign-in link; ``/me/<token>`` lists that address's games.

The answer to ``POST /me`` is the same, and the same work is done, whether or not the address
plays here (``pbem.services.magic_links``), so the form cannot be used to find out who plays.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, make_response, redirect, render_template, request, session, url_for
from marshmallow import ValidationError

from pbem import engine, tokens
from pbem.engine import GameState
from pbem.mail.outbound.links import host_token
from pbem.schemas.forms import MagicForm, first_errors
from pbem.services import host_links, magic_links
from pbem.services.errors import BadInput
from pbem.web.presenters.calendar import feed_url
from pbem.web.presenters.reads import time_left
from pbem.web.presenters.seat_status import cancelled_on

bp = Blueprint("me", __name__)
SENT_TO = "me_link_sent_to"


@bp.get("/me")
def ask() -> Any:
    sent_to = session.pop(SENT_TO, None)  # set by send_link just before its redirect
    return render_template("me/ask.html", errors={}, sent=sent_to is not None,
                           email=sent_to or "")


@bp.post("/me")
def send_link() -> Any:
    typed = request.form.get("email", "")
    try:
        email = MagicForm().load(request.form)["email"]
        magic_links.request_link(email)
    except ValidationError as exc:
        return _refused(first_errors(exc.messages_dict), typed)
    except BadInput as exc:  # one that could never be mailed: the same rule as everywhere
        return _refused({"email": exc.message}, typed)
    # Post/redirect/get: reloading the answer must not mail another link. The address the
    # player typed rides in their own signed session cookie, never in the URL.
    session[SENT_TO] = email
    return redirect(url_for("me.ask"), 303)


def _refused(errors: dict[str, str], typed: str) -> Any:
    page = render_template("me/ask.html", errors=errors, sent=False, email=typed)
    return make_response(page, 400)


@bp.get("/me/<token>")
def dashboard(token: str) -> Any:
    address = magic_links.resolve_link(token)
    rows = []
    seats = magic_links.seats_of_address(address)
    calendar = next((feed_url(game, seat) for game, seat in seats if not seat.is_bot), None)
    for game, seat in seats:
        state = GameState.from_json(game.state)
        awaited = engine.awaited(state) if game.status == "active" else None
        names = [s.name for s in game.seats]
        rows.append({
            "game": game, "seat": seat,
            "link": url_for("play.turn", seat_link=tokens.make_seat_link(game, seat)),
            "your_turn": awaited == seat.index,
            "whose": names[awaited] if awaited is not None and awaited < len(names) else "",
            "time_left": time_left(game, awaited),
            "round": state.turn.round,
            "cancelled": cancelled_on(game, seat.timezone),
        })
    hosted = [{"game": game, "url": url_for("games.host", token=host_token(game)),
               "cancelled": cancelled_on(game)}
              for game in host_links.hosted_games(address)]
    response = make_response(render_template("me/dashboard.html", rows=rows, hosted=hosted,
                                             calendar_url=calendar))
    response.headers["Cache-Control"] = "no-store"
    return response
