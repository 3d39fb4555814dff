"""``POST /inbound/<provider>/<secret>``: a provider's inbound route hands pbem a reply
(docs/mail.md "Playing by reply"): ``postmark`` (its JSON), ``mailgun`` (a route's
``forward()`` form) or ``sendgrid`` (Inbound Parse's form).

None of the three signs its posts in a way this route checks, so the URL carries
``INBOUND_WEBHOOK_SECRET`` (at least 32 characters, compared in constant time) and is served
over HTTPS. Without the setting the route does not exist (404), and a wrong secret looks the
same; wrong secrets are rate-limited per client (``INBOUND_RATE_LIMIT``). Any body gets a 2xx
or 4xx answer, never a 5xx: a handled reply, refused or not, answers 200 so the provider does
not post it again (the answer to the player goes by mail); a body that is not the provider's
shape answers 400; a post whose handling raised is quarantined and answers 200. Only a
database that does not answer gives 503, so the provider posts the mail again later.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from pbem.extensions import csrf
from pbem.mail.inbound import imap, providers
from pbem.services import inbox
from pbem.web import guards

bp = Blueprint("inbound", __name__)
csrf.exempt(bp)  # the secret in the URL is the proof; no cookie is used
MAX_JSON_DEPTH = 6  # Postmark's deepest field is a list of objects (Headers, Attachments)


def _refused(status: int, message: str) -> ResponseReturnValue:
    response = jsonify(status="bad_request", error=message)
    response.status_code = status
    return response


def _payload(provider: str) -> dict[str, Any]:
    """The post as one mapping of fields (raises ``guards.NotAnObject``)."""
    if provider == "postmark":
        return guards.json_object(request.get_data(cache=True), MAX_JSON_DEPTH)
    return {name: value for name, value in request.form.items()}


@bp.post("/inbound/<provider>/<secret>")
def webhook(provider: str, secret: str) -> ResponseReturnValue:
    if provider not in providers.PROVIDERS or not current_app.config.get("INBOUND_ADDRESS"):
        abort(404)
    if not guards.webhook_secret_is_right():
        abort(404)  # a wrong secret looks like no route at all
    try:
        payload = _payload(provider)
    except guards.NotAnObject as refused:
        return _refused(400, f"expected {provider}'s inbound post: {refused}")
    digest = hashlib.sha256(request.get_data(cache=True)).hexdigest()
    try:
        outcome = inbox.receive_webhook(provider, payload, digest)
    except imap.Unavailable:
        return _refused(503, "the database does not answer: post again later")
    return jsonify(status="ok", outcome=outcome)
