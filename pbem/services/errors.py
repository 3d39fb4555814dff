"""Domain errors of the service layer; each message is written for the person who caused it.

``ServiceError`` itself lives in ``pbem.errors`` (the signing of links refuses with it too).
The web layer maps them to responses in one place (``pbem.web.blueprints.errors``): the class
decides the HTTP status, so services never think in status codes.
"""

from __future__ import annotations

from pbem.errors import ServiceError

__all__ = [
    "BadInput", "GameNotActive", "GameNotFound", "NotAllowed", "ServiceError", "StaleVersion",
]


class BadInput(ServiceError):
    """The request itself is malformed: a missing field, a bad address, a name too long."""

    status = 400
    code = "bad_input"


class GameNotFound(ServiceError):
    status = 404
    code = "not_found"

    def __init__(self, message: str = "There is no such game.") -> None:
        super().__init__(message)


class GameNotActive(ServiceError):
    """The game is finished, cancelled or paused: it takes no more moves."""

    status = 409
    code = "not_active"


class StaleVersion(ServiceError):
    """The page or client acted on an older version of the game (or submitted twice)."""

    status = 409
    code = "stale"

    def __init__(self, current_version: int, message: str | None = None) -> None:
        super().__init__(
            message
            or "The game has moved on since this page was loaded: reload it and try again."
        )
        self.current_version = current_version


class NotAllowed(ServiceError):
    """The caller is known but may not do this (undo across a barrier, cancel as a player)."""

    status = 403
    code = "not_allowed"
