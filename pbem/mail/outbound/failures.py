"""How sending one message can fail, for every backend (SMTP and the HTTP APIs): the
outbox retries a temporary failure with back-off and gives up on a permanent one."""

from __future__ import annotations


class DeliveryFailure(Exception):
    """Sending one message failed; ``code`` is the SMTP reply code when there was one."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class TemporaryFailure(DeliveryFailure):
    """Try again later: the server is down, busy (4xx) or the connection dropped."""


class PermanentFailure(DeliveryFailure):
    """The server refused the message or the recipient for good (5xx)."""
