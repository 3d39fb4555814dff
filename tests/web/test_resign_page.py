"""Resigning from the turn page: a link in "Your seat" (and on the mail-settings page) opens a
page that says what happens; only its confirm button resigns; a repeat, another seat's form
or a finished game changes nothing and says why."""

from __future__ import annotations

from flask.testing import FlaskClient

from pbem import tokens
from pbem.services import games

from .conftest import Table, fresh, hidden, snapshot


def _confirm_page(client: FlaskClient, link: str) -> str:
    turn = client.get(f"/play/{link}").get_data(as_text=True)
    assert f"/play/{link}/resign" in turn  # "Resign from this game…" in "Your seat"
    page = client.get(f"/play/{link}/resign")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def test_the_confirm_button_resigns_and_the_page_says_so(client: FlaskClient,
                                                         table: Table) -> None:
    link = table.links[2]
    page = _confirm_page(client, link)
    assert "the computer plays it from now on, at the host’s level (Greedy)" in page
    assert "You cannot take it back" in page
    before = snapshot(table.id)
    unconfirmed = client.post(f"/play/{link}/resign", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token")})
    assert unconfirmed.status_code == 400
    assert "Press the confirm button" in unconfirmed.get_data(as_text=True)
    assert snapshot(table.id) == before and not fresh(table.id).seat(2).resigned
    done = client.post(f"/play/{link}/resign", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "confirm": "yes"})
    assert done.status_code == 303 and done.location.endswith("?done=resigned")
    assert fresh(table.id).seat(2).resigned
    turn = client.get(done.location).get_data(as_text=True)
    assert "You resigned from this game on" in turn
    assert "Resign from this game…" not in turn  # nothing left to resign from
    again = client.post(f"/play/{link}/resign", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "confirm": "yes"})
    assert again.status_code == 403
    assert "Cy has already resigned" in again.get_data(as_text=True)
    watch = client.get(f"/games/{table.public_id}").get_data(as_text=True)
    assert "resigned" in watch


def test_another_seats_form_or_a_cancelled_game_resigns_nobody(client: FlaskClient,
                                                                table: Table) -> None:
    page = _confirm_page(client, table.links[0])
    before = snapshot(table.id)
    other = tokens.make_form_token(table.public_id, 1, before["version"])
    wrong = client.post(f"/play/{table.links[0]}/resign", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": other, "confirm": "yes"})
    assert wrong.status_code == 403
    games.cancel_game(table.id)
    cancelled = client.post(f"/play/{table.links[0]}/resign", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "confirm": "yes"})
    assert cancelled.status_code == 409
    assert "cancelled" in cancelled.get_data(as_text=True)
    assert not any(fresh(table.id).seat(i).resigned for i in range(3))


def test_the_mail_settings_page_links_to_the_resign_page(client: FlaskClient,
                                                         table: Table) -> None:
    game = fresh(table.id)
    token = tokens.make_unsubscribe_token(table.public_id, 0, game.seat(0).link_counter)
    page = client.get(f"/mail/unsubscribe/{token}").get_data(as_text=True)
    assert f"/play/{table.links[0]}/resign" in page
