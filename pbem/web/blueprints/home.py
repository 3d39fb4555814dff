"""The home page: says what this server is."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Render the landing page."""
    return render_template("index.html")
