"""The turn page says what each step did and what a second click did (issue 14, bugs 4, 5).

Bug 4: "This turn so far" ran the events of every step together, so the Booster Pod's fuel
("paid 1 fuel", logged before the card's own event) joined the docking's sentence. Bug 5: a
double submit (the same form posted twice) answered "out of date" though the first post had
applied; it now says the move is already done and shows the game after it."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from pbem.engine.scenarios.position import build_state
from pbem.words.describe import describe
from tests.web.conftest import Table, hidden, post_move, snapshot
from tests.web.test_factions_pages import put_state

NAMES = ["Ana", "Ben", "Cy"]
DOCK = [{"kind": "docked", "seat": 0, "facility": "solar_converter", "values": [5],
         "relic": None},
        {"kind": "gained", "seat": 0, "fuel": 3, "ore": 0, "why": "solar_converter"}]
BOOST = [{"kind": "paid", "seat": 0, "fuel": 1, "ore": 0, "to": None, "why": "booster_pod"},
         {"kind": "used_card", "seat": 0, "card": "booster_pod", "fuel": 1},
         {"kind": "ship_changed", "seat": 0, "card": "booster_pod", "ship": "red2", "was": 3,
          "now": 4}]
DOCKED = "Ana docked 5 at the Solar Converter and took 3 fuel."
BOOSTED = "Ana used Booster Pod for 1 fuel and turned a 3 into a 4."
# One's own turn page speaks in the second person, as the mails do (issue 26, point 6).
YOU_DOCKED = "You docked 5 at the Solar Converter and took 3 fuel."
YOU_BOOSTED = "You used Booster Pod for 1 fuel and turned a 3 into a 4."


def this_turn(page: str) -> list[str]:
    section = re.search(r'id="this-turn-title".*?</ul>', page, re.S)
    assert section is not None, "no 'This turn so far' on the page"
    return [re.sub(r"\s+", " ", li).strip()
            for li in re.findall(r"<li>(.*?)</li>", section.group(0), re.S)]


def test_a_cards_payment_is_said_with_the_card_not_the_docking_before_it() -> None:
    assert describe(DOCK + BOOST, NAMES) == [DOCKED, BOOSTED]
    assert describe(BOOST, NAMES) == [BOOSTED]  # said once: "for 1 fuel", no "paid 1 fuel"


def booster_table(table: Table) -> None:
    put_state(table, build_state({"players": 3, "turn": "red", "seats": {"red": {
        "fuel": 2, "unplaced": [5, 3, 4], "cards": ["booster_pod"]}}}))


def test_this_turn_so_far_has_one_line_per_step(client: FlaskClient, table: Table) -> None:
    booster_table(table)
    link = table.links[0]
    assert post_move(client, link, "dock 5 solar_converter").status_code == 303
    assert post_move(client, link, "use booster_pod 3").status_code == 303
    page = client.get(f"/play/{link}").get_data(as_text=True)
    assert this_turn(page) == [YOU_DOCKED, YOU_BOOSTED]


def test_a_double_submit_says_already_done_and_shows_the_result(
        client: FlaskClient, table: Table) -> None:
    booster_table(table)
    link = table.links[0]
    form = client.get(f"/play/{link}").get_data(as_text=True)
    first = post_move(client, link, "dock 5 solar_converter", form)
    assert first.status_code == 303
    after_first = snapshot(table.id)
    second = post_move(client, link, "dock 5 solar_converter", form)  # the same form again
    page = second.get_data(as_text=True)
    assert second.status_code == 200, page[:2000]
    assert "Already done" in page and "out of date" not in page
    assert "dock 5 solar_converter" in page or "Solar Converter" in page
    assert this_turn(page) == [YOU_DOCKED]  # the result: the step, applied once
    assert snapshot(table.id) == after_first
    # the page it shows is current: its form plays the next move
    assert hidden(page, "form_token") != hidden(form, "form_token")


def test_another_move_from_an_old_page_is_still_out_of_date(
        client: FlaskClient, table: Table) -> None:
    booster_table(table)
    link = table.links[0]
    form = client.get(f"/play/{link}").get_data(as_text=True)
    assert post_move(client, link, "dock 5 solar_converter", form).status_code == 303
    after_first = snapshot(table.id)
    other = post_move(client, link, "dock 4 solar_converter", form)
    assert other.status_code == 409
    page = other.get_data(as_text=True)
    assert "out of date" in page and "Already done" not in page
    assert snapshot(table.id) == after_first
