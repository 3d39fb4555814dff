"""``POST /tasks/tick``: an external cron wakes a sleeping free host and runs one tick.

The caller presents ``Authorization: Bearer $TICK_TOKEN`` (compared in constant time). With no
``TICK_TOKEN`` configured the route does not exist (404), so an unconfigured site offers
nothing to probe. It is exempt from CSRF: the bearer token is the proof, and no cookie is used.
It ticks as the scheduler threads and ``pbem clock`` do (``pbem.scheduler.tick``): on
PostgreSQL beside them, each claiming other due rows; on SQLite, while another process ticks,
it answers ``{"status": "busy"}`` and does nothing (as it does while this process ticks).
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from pbem.extensions import csrf_exempt
from pbem.scheduler import tick

bp = Blueprint("tasks", __name__)


def _authorised(expected: str) -> bool:
    scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not presented:
        return False
    return hmac.compare_digest(presented.strip().encode(), expected.encode())


@bp.post("/tasks/tick")
@csrf_exempt
def run_tick() -> ResponseReturnValue:
    """Run every scheduler step once; 401 without the right token, 404 with none configured."""
    expected = current_app.config.get("TICK_TOKEN")
    if not expected:
        abort(404)
    if not _authorised(expected):
        response = jsonify(status="unauthorised")
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="pbem tasks"'
        return response
    report = tick(current_app._get_current_object())  # type: ignore[attr-defined]
    if report.busy:  # another tick is running: what is due is being handled
        return jsonify(status="busy", ran=[], failed=[])
    return jsonify(status="ok", ran=list(report.ran), failed=list(report.failed))
