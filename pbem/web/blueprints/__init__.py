"""The blueprints: each module defines one Blueprint and its views, kept thin (parse with a
schema, call one service, render or redirect).

``blueprints(config)`` is the single list the app factory registers; add new blueprints here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint

from pbem.web.blueprints.api import bp as api_bp
from pbem.web.blueprints.calendar import bp as calendar_bp
from pbem.web.blueprints.dev_mailbox import bp as dev_mailbox_bp
from pbem.web.blueprints.errors import bp as errors_bp
from pbem.web.blueprints.games import bp as games_bp
from pbem.web.blueprints.health import bp as health_bp
from pbem.web.blueprints.home import bp as home_bp
from pbem.web.blueprints.host_clock import bp as host_clock_bp
from pbem.web.blueprints.inbound import bp as inbound_bp
from pbem.web.blueprints.me import bp as me_bp
from pbem.web.blueprints.notices import bp as notices_bp
from pbem.web.blueprints.play import bp as play_bp
from pbem.web.blueprints.rematch import bp as rematch_bp
from pbem.web.blueprints.resign import bp as resign_bp
from pbem.web.blueprints.seat import bp as seat_bp
from pbem.web.blueprints.table_talk import bp as table_talk_bp
from pbem.web.blueprints.table_talk_api import bp as talk_api_bp
from pbem.web.blueprints.tasks import bp as tasks_bp
from pbem.web.blueprints.unsubscribe import bp as unsubscribe_bp


def blueprints(config: Mapping[str, Any]) -> list[Blueprint]:
    """Every blueprint of the app configured by ``config``, in registration order."""
    every = [home_bp, health_bp, tasks_bp, api_bp, errors_bp, play_bp, seat_bp, games_bp, me_bp,
             host_clock_bp, inbound_bp, unsubscribe_bp, resign_bp, rematch_bp, table_talk_bp,
             talk_api_bp, calendar_bp, notices_bp]
    if config["MAIL_BACKEND"] == "dev":
        every.append(dev_mailbox_bp)  # holds every seat's links: dev only
    return every
