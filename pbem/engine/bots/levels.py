"""Bot levels: the one place that turns a level's name into a bot.

    LEVELS = ("easy", "greedy", "strong")
    bot_for("strong", budget=200)   # a bot: bot(state, seat, rng) -> Action

`budget` is the strong bot's rollouts per decision (a number, never a time, so a replay
reproduces the moves); the other levels do not search and ignore it. Forms, the CLI and the
API check a level with `is_level` and show `LEVEL_NAMES`.

A game's host may choose the budget of its strong computer players (`games.bot_budget`):
`MIN_BUDGET` to `MAX_BUDGET` rollouts, checked with `is_budget` or `check_budget`; none
chosen is `ROLLOUTS` (the strong bot's default), read when the bot decides.
"""

from __future__ import annotations

from typing import Final, TypeGuard

from ..errors import InvalidAction
from . import Bot
from .easy import easy_bot
from .greedy import greedy_bot
from .strong import ROLLOUTS, StrongBot

LEVELS: Final[tuple[str, ...]] = ("easy", "greedy", "strong")
DEFAULT_LEVEL: Final = "greedy"  # today's bot, and the autopilot's unless the host says otherwise
LEVEL_NAMES: Final[dict[str, str]] = {"easy": "Easy", "greedy": "Greedy", "strong": "Strong"}
# What a game's host may choose for its strong computer players (rollouts per decision);
# `bot_for` itself takes any budget of 1 or more (benchmarks, the balance report).
MIN_BUDGET: Final = 1
MAX_BUDGET: Final = 200  # about 4x the default: a decision stays within seconds, in a request
BUDGET_ERROR: Final = (f"A strong bot's budget is a whole number of rollouts, {MIN_BUDGET} to "
                       f"{MAX_BUDGET}.")


def is_level(level: object) -> bool:
    return isinstance(level, str) and level in LEVELS


def is_budget(budget: object) -> TypeGuard[int]:
    """A budget a game may give its strong computer players: a whole number of rollouts from
    `MIN_BUDGET` to `MAX_BUDGET` (None, the default, is not one: see `check_budget`)."""
    return (isinstance(budget, int) and not isinstance(budget, bool)
            and MIN_BUDGET <= budget <= MAX_BUDGET)


def check_budget(budget: object) -> int | None:
    """A game's budget for its strong computer players: None (the default, `ROLLOUTS`) or a
    whole number from `MIN_BUDGET` to `MAX_BUDGET`; InvalidAction (`BUDGET_ERROR`) for any
    other value."""
    if budget is None or is_budget(budget):
        return budget
    raise InvalidAction(BUDGET_ERROR)


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
