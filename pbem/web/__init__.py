"""The web layer: thin blueprints that parse input, call a service and render.

``blueprints()`` is the single list the app factory registers; add new blueprints here.
"""

from __future__ import annotations

from flask import Blueprint

from pbem.web.api import bp as api_bp
from pbem.web.errors import bp as errors_bp
from pbem.web.games import bp as games_bp
from pbem.web.health import bp as health_bp
from pbem.web.home import bp as home_bp
from pbem.web.host_clock import bp as host_clock_bp
from pbem.web.inbound import bp as inbound_bp
from pbem.web.me import bp as me_bp
from pbem.web.play import bp as play_bp
from pbem.web.seat import bp as seat_bp
from pbem.web.tasks import bp as tasks_bp


def blueprints() -> list[Blueprint]:
    """Every blueprint of the app, in registration order."""
    return [home_bp, health_bp, tasks_bp, api_bp, errors_bp, play_bp, seat_bp, games_bp, me_bp,
            host_clock_bp, inbound_bp]
