"""Domain errors → responses, in one place.

``ServiceError`` (tokens' ``BadToken`` included) carries its own status; the engine's
``RulesError`` is 422 with the engine's sentence. Under ``/api/`` the body is JSON
(``{"error": code, "message": …}``, plus ``current_version`` for a stale version); elsewhere
it is ``templates/error.html`` when present, else a minimal escaped page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request
from jinja2 import TemplateNotFound
from markupsafe import escape
from werkzeug.exceptions import HTTPException

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
    429: "Too many requests",
}


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


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response | HTTPException | tuple[Any, int]:
    """JSON for the API's own 404/405/400/429; other pages keep Flask's default handling."""
    if not wants_json():
        return error
    status = error.code or 500
    name = (error.name or "error").lower().replace(" ", "_")
    response, status = error_response(status, name, error.description or error.name)
    for header, value in error.get_headers():  # e.g. Retry-After, Allow
        if header.lower() != "content-type":
            response.headers[header] = value
    return response, status
