"""``/healthz``: the load balancer's and the deploy check's view of the app.

It answers 200 only when the database answers ``SELECT 1``; a web process that cannot reach
its database is not healthy, whatever else works. The body also names the rules engine the
process runs, ``"compiled"`` or ``"pure Python"`` (docs/compiled-engine.md), so a deploy's
first check shows whether its build compiled the engine.
"""

from __future__ import annotations

import logging

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from pbem.engine.compiled import which_engine
from pbem.extensions import db

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """200 ``{"status": "ok", "engine": …}`` if the database answers, else 503."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        log.warning("healthz: database unreachable: %s", exc.__class__.__name__)
        db.session.rollback()
        return jsonify(status="unavailable", reason="database unreachable",
                       engine=which_engine()), 503
    return jsonify(status="ok", engine=which_engine())
