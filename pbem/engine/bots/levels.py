"""Bot levels: the one place that turns a level's name into a bot.

    LEVELS = ("easy", "greedy", "strong")
    bot_for("strong", budget=200)   # a bot: bot(state, seat, rng) -> Action

`budget` is the strong bot's rollouts per decision (a number, never a time, so a replay
reproduces the moves); the other levels do not search and ignore it. Forms, the CLI and the
API check a level with `is_level` and show `LEVEL_NAMES`.
"""

from __future__ import annotations

from typing import Final

from ..errors import InvalidAction
from . import Bot
from .easy import easy_bot
from .greedy import greedy_bot
from .strong import ROLLOUTS, StrongBot

LEVELS: Final[tuple[str, ...]] = ("easy", "greedy", "strong")
DEFAULT_LEVEL: Final = "greedy"  # today's bot, and the autopilot's unless the host says otherwise
LEVEL_NAMES: Final[dict[str, str]] = {"easy": "Easy", "greedy": "Greedy", "strong": "Strong"}


def is_level(level: object) -> bool:
    return isinstance(level, str) and level in LEVELS


def bot_for(level: str, budget: int | None = None) -> Bot:
    """The bot playing at `level`; InvalidAction names the levels for any other word."""
    if level == "easy":
        return easy_bot
    if level == "greedy":
        return greedy_bot
    if level == "strong":
        if budget is not None and (not isinstance(budget, int) or budget < 1):
            raise InvalidAction("A strong bot's budget is a whole number of rollouts, 1 or more.")
        return StrongBot(rollouts=ROLLOUTS if budget is None else budget)
    raise InvalidAction(f"There is no bot level '{level}': the levels are "
                        f"{', '.join(LEVELS)}.")
