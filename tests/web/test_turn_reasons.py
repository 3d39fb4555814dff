"""The turn page says why a facility is closed: greyed, with the engine's sentence."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import Table


def test_terraforming_is_shown_closed_with_the_fleet_minimum(client: FlaskClient,
                                                            table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)  # Ana: 6 6 6
    closed = page[page.index('class="closed-list"'):]
    assert 'data-group="dock:terraforming_station"' in closed
    assert "The ship is used up, and you may not go below 3 ships of your colour." in closed
    assert "It costs 3 ore; you have 0." in closed
    assert 'data-group="dock:solar_converter"' not in closed  # it is open: a choice


def test_a_waiting_seat_sees_no_closed_facilities(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    assert "closed-list" not in page


def test_the_board_is_followed_by_each_territorys_bonus(client: FlaskClient,
                                                        table: Table) -> None:
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    legend = page[page.index('id="territory-bonuses"'):]
    assert "<strong>Lem Badlands</strong>: +1 fuel per ship at the Solar Converter" in legend
    assert legend.count("<li>") == 8
