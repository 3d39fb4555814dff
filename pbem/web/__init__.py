"""The web layer: thin blueprints that parse input, call a service and render.

``blueprints()`` is the single list the app factory registers; add new blueprints here.
"""

from __future__ import annotations

from flask import Blueprint

from pbem.web.health import bp as health_bp
from pbem.web.home import bp as home_bp


def blueprints() -> list[Blueprint]:
    """Every blueprint of the app, in registration order."""
    return [home_bp, health_bp]
