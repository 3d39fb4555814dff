"""Choice labels say cost and effect, from the engine's preview: a card use reads like the log
("You used Plasma Cannon for 1 fuel and sent 1 ship …"), not "Use: 1"."""

from __future__ import annotations

from pbem.engine import GameState, apply, awaited, legal_actions, menu_previews, new_game, view
from pbem.engine.bots import greedy_bot, redacted
from pbem.web.presenters import turn as presenter

NAMES = ["Ana", "Ben", "Cy"]


def _first_card_use() -> tuple[GameState, int]:
    """The first position of a greedy 3-seat game where the awaited seat may use a card."""
    state = new_game(3, 20240601, {"factions": False})
    for _ in range(600):
        seat = awaited(state)
        assert seat is not None
        if any(a.kind.startswith("use_") for a in legal_actions(state, seat)):
            return state, seat
        state, _ = apply(state, greedy_bot(redacted(state, seat), seat, [7, state.step]))
    raise AssertionError("no card use in 600 steps")


def test_a_card_use_names_the_card_its_cost_and_its_effect() -> None:
    state, seat = _first_card_use()
    seen = view(state, seat)
    groups = presenter.menu(seen, NAMES, effects=menu_previews(state, seen["legal"], seen["picks"]))
    uses = [c for g in groups if g.key.startswith("card:") for c in g.choices
            if c.notation.startswith("use ")]
    assert uses
    for choice in uses:
        assert choice.label.startswith("Use ") and ":" in choice.label
        assert choice.detail.startswith("You used "), choice.detail
        assert "You paid" not in choice.detail  # the cost is said once, in the card's sentence
