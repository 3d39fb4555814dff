"""Refusals a player can read. Every message names the rule it applies."""

from __future__ import annotations


class RulesError(Exception):
    """Base class: the action was refused and the state is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAction(RulesError):
    """The action is malformed: unknown facility, bad values, text that does not parse."""


class IllegalAction(RulesError):
    """A well-formed action the rules do not allow now."""


class NotYourTurn(RulesError):
    """The seat acting is not the one the game is waiting for."""


class GameOver(RulesError):
    """The game has ended; nothing more can be played."""
