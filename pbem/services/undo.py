"""The undo rule, in one place: a seat may take back its own last step of the turn unless
that step revealed something (a roll, a draw, a cycle: its events carry ``barrier``).

``undo_step`` refuses with its sentence; the turn page and the API offer undo when it is None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def undo_refusal(steps: Sequence[dict[str, Any]], seat: int) -> str | None:
    """Why ``seat`` may not undo the last of the turn's ``steps`` now, or None if it may."""
    if not steps or steps[-1]["seat"] != seat:
        return "There is nothing of yours to undo in this turn."
    if steps[-1]["barrier"]:
        return f"'{steps[-1]['notation']}' revealed new dice or cards, so it cannot be undone."
    return None
