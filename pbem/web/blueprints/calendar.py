"""``GET /calendar/<token>.ics``: a seat's private deadlines feed (iCalendar).

The signed token (its own salt) names a seat and its link counter, like a seat link, so it
is revoked with the seat's links; it opens the deadlines of every game that seat's address
plays (``pbem.services.calendar_feed``), read-only. The seat page and "My games" show it.
"""

from __future__ import annotations

from flask import Blueprint, Response, url_for

from pbem import clock
from pbem.mail.outbound.links import server_name
from pbem.services import calendar_feed, links
from pbem.web.presenters.calendar import feed

bp = Blueprint("calendar", __name__)


@bp.get("/calendar/<token>.ics")
def deadlines(token: str) -> Response:
    _, seat = links.resolve_calendar_link(token)
    body = feed(calendar_feed.deadlines_of(seat), clock.now(), server_name().split(":")[0],
                lambda public_id: url_for("games.spectate", public_id=public_id,
                                          _external=True))
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
