"""The titles of the turn page's pick forms (a card's choice of ships)."""

from __future__ import annotations

from pbem.words.action_labels import pick_title

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve"]


def _cloak_pick(**changes: object) -> dict[str, object]:
    pick: dict[str, object] = {"kind": "use_chameleon_cloak", "facility": "colonist_hub",
                               "least": 1, "most": 1, "relic": None, "launch": False}
    pick.update(changes)
    return pick


def test_a_cloak_replacement_that_launches_says_so_beside_the_one_that_does_not() -> None:
    plain = pick_title(NAMES, _cloak_pick())
    launching = pick_title(NAMES, _cloak_pick(launch=True))
    assert plain == "Chameleon Cloak at the Colonist Hub: choose the ships to replace (1)"
    assert launching == ("Chameleon Cloak at the Colonist Hub: choose the ships to replace "
                         "and launch your colony (1)")
