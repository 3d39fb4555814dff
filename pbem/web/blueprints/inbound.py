"""``POST /inbound/postmark/<secret>``: a provider's inbound route hands pbem a reply
(docs/mail.md "Playing by reply").

Postmark's inbound webhook posts its JSON to the URL the host configures; Postmark signs
nothing, so the URL carries ``INBOUND_WEBHOOK_SECRET`` (compared in constant time) and is
served over HTTPS. Without the setting the route does not exist (404). A handled reply,
refused or not, answers 200 so the provider does not post it again; the answer to the
player goes by mail.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from pbem.extensions import csrf
from pbem.mail.inbound import received
from pbem.services import replies

bp = Blueprint("inbound", __name__)
csrf.exempt(bp)  # the secret in the URL is the proof; no cookie is used


@bp.post("/inbound/postmark/<secret>")
def postmark(secret: str) -> ResponseReturnValue:
    expected = current_app.config.get("INBOUND_WEBHOOK_SECRET")
    if not expected or not current_app.config.get("INBOUND_ADDRESS"):
        abort(404)
    if not hmac.compare_digest(secret.encode(), str(expected).encode()):
        abort(404)  # a wrong secret looks like no route at all
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        response = jsonify(status="bad_request", error="expected Postmark's inbound JSON")
        response.status_code = 400
        return response
    outcome = replies.receive(received.from_postmark(payload))
    return jsonify(status="ok", outcome=outcome)
