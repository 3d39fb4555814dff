"""The host page's clock and seat forms: pause, resume, extend a deadline, substitute a seat,
replace the host link.

Each POST parses its fields, calls one service of ``pbem.services.host`` and redirects back to
the host page (``/host/<token>``, served by ``pbem.web.blueprints.games``). Refusals are
ServiceErrors, mapped to responses in ``pbem.web.blueprints.errors``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, request, url_for

from pbem.models import Game
from pbem.services import host, host_links
from pbem.services.errors import BadInput

bp = Blueprint("host_clock", __name__)


def _game(token: str) -> Game:
    return host_links.resolve_host_link(token)


def _back(token: str) -> Any:
    return redirect(url_for("games.host", token=token), 303)


def _int_field(name: str, what: str) -> int:
    raw = request.form.get(name, "").strip()
    if not raw.isdigit():
        raise BadInput(f"{what} must be a whole number.")
    return int(raw)


@bp.post("/host/<token>/pause")
def pause(token: str) -> Any:
    host.pause_game(_game(token).id)
    return _back(token)


@bp.post("/host/<token>/resume")
def resume(token: str) -> Any:
    host.resume_game(_game(token).id)
    return _back(token)


@bp.post("/host/<token>/extend")
def extend(token: str) -> Any:
    host.extend_deadline(_game(token).id, _int_field("hours", "The extension in hours"))
    return _back(token)


@bp.post("/host/<token>/substitute")
def substitute(token: str) -> Any:
    seat = _int_field("seat", "The seat")
    host.substitute_seat(_game(token).id, seat, request.form.get("email", ""),
                         name=request.form.get("name", "").strip() or None)
    return _back(token)


@bp.post("/host/<token>/new-link")
def new_link(token: str) -> Any:
    """Replace a leaked host link: the old one stops working, the new one is mailed to the
    host; this answer opens the host page at the new link."""
    fresh = host_links.replace_host_link(_game(token).id)
    return redirect(url_for("games.host", token=fresh, done="new-link"), 303)
