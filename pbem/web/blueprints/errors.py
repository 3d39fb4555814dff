"""Domain errors → responses, in one place.

``ServiceError`` (tokens' ``BadToken`` included) carries its own status; the engine's
``RulesError`` is 422 with the engine's sentence. Under ``/api/`` the body is JSON
(``{"error": code, "message": …}``, plus ``current_version`` for a stale version); elsewhere
it is ``templates/error.html`` when present, else a minimal escaped page.

Werkzeug's own refusals (404, 405, 413, 429, CSRF's 400, a 500) get the same treatment, with
the site's sentence when Werkzeug's is its generic one: no visitor ever sees its default page.
A body larger than ``MAX_CONTENT_LENGTH`` is refused from its Content-Length, unread.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from jinja2 import TemplateNotFound
from markupsafe import escape
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from pbem.engine import RulesError
from pbem.services.errors import ServiceError, StaleVersion

bp = Blueprint("errors", __name__)

TITLES = {
    400: "That request could not be read",
    401: "This link does not work",
    403: "Not allowed",
    404: "Not found",
    409: "The game has moved on",
    422: "That move is not allowed",
    405: "That cannot be done here",
    413: "That request is too large",
    429: "Too many requests",
    500: "Something went wrong",
}
SENTENCES = {  # instead of Werkzeug's generic descriptions
    400: "The request could not be read. Go back, reload the page and try again.",
    404: "There is no page at this address. Check the link, or start from the home page.",
    405: "This address does not take that kind of request.",
    429: "Too many requests from your address: wait a little, then try again.",
    500: "The server failed to answer. Nothing you did caused it; try again in a minute.",
}
CSRF_SENTENCE = ("This form has expired or was not sent from this site's page: "
                 "reload the page and send it again.")


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, code: str, message: str, **extra: Any) -> tuple[Any, int]:
    """The response for a refusal: JSON under /api/, the error page elsewhere."""
    if wants_json():
        return jsonify({"error": code, "message": message, **extra}), status
    title = TITLES.get(status, "Something went wrong")
    try:
        page = render_template("error.html", status=status, title=title, message=message)
    except TemplateNotFound:
        page = (f"<!doctype html><title>{escape(title)}</title><h1>{escape(title)}</h1>"
                f"<p>{escape(message)}</p>")
    return page, status


@bp.app_errorhandler(ServiceError)
def service_error(error: ServiceError) -> tuple[Any, int]:
    extra: dict[str, Any] = {}
    if isinstance(error, StaleVersion):
        extra["current_version"] = error.current_version
    reason = getattr(error, "reason", None)
    if reason:
        extra["reason"] = reason
    return error_response(error.status, error.code, error.message, **extra)


@bp.app_errorhandler(RulesError)
def rules_error(error: RulesError) -> tuple[Any, int]:
    return error_response(422, "rules", error.message, kind=type(error).__name__)


@bp.before_app_request
def refuse_large_bodies() -> None:
    """413 from the declared length alone, before any hook reads the body (a streamed body
    with no length is cut by Werkzeug at the same limit as it is read)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()


def _sentence(error: HTTPException, status: int) -> str:
    if isinstance(error, CSRFError):
        return CSRF_SENTENCE
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
        return f"The request is larger than this site takes ({limit // 1024} KB at most)."
    generic = type(error).description
    if error.description and error.description != generic:
        return error.description  # a view's own words, e.g. abort(404, "…")
    return SENTENCES.get(status, error.name + ".")


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    """Every HTTP refusal: the error page, or JSON under /api/; headers such as Retry-After
    and Allow are kept."""
    status = error.code or 500
    name = (error.name or "error").lower().replace(" ", "_")
    body, status = error_response(status, name, _sentence(error, status))
    response = current_app.make_response((body, status))
    for header, value in error.get_headers():  # e.g. Retry-After, Allow
        if header.lower() != "content-type":
            response.headers[header] = value
    return response
