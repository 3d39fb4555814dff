"""The base of every refusal a person can cause; its message is written for that person.

It sits below every layer because both the services (``pbem.services.errors``) and the
signing of links (``pbem.tokens``) refuse with it, and the entry points turn any of them into
a response in one place (``pbem.web.blueprints.errors``, the CLI's ``ClickException``).
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base class: the request was refused and nothing was changed."""

    status = 400
    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
