"""The home page (what this server is) and the notation help (how to write a move)."""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.words import notation_help

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Render the landing page."""
    return render_template("index.html")


@bp.get("/help/notation")
def notation() -> str:
    """How to write each move, with examples: linked wherever a typed move is refused."""
    return render_template("help/notation.html", general=notation_help.GENERAL,
                           sections=notation_help.SECTIONS,
                           reply_words=notation_help.REPLY_WORDS)
