"""The turn page: it only shows on GET; forms post, apply through the services and redirect;
refusals answer with the engine's sentence (422), a stale page (409) or a bad token, and
change nothing."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from pbem import engine
from pbem.engine import GameState
from pbem.engine.scenarios.position import build_state
from tests.web.conftest import Table, choices, fresh, hidden, post_move, snapshot
from tests.web.test_factions_pages import put_state


def test_the_page_renders_for_each_seat_and_only_the_active_seat_gets_moves(
        client: FlaskClient, table: Table) -> None:
    for seat, link in enumerate(table.links):
        response = client.get(f"/play/{link}")
        page = response.get_data(as_text=True)
        assert response.status_code == 200
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert "no-store" in response.headers["Cache-Control"]
        assert ("Your moves" in page) == (seat == 0)
        if seat:
            assert "Waiting for Ana" in page
            assert choices(page) == []


def test_the_legal_actions_are_the_buttons(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    state = GameState.from_json(fresh(table.id).state)
    legal = [engine.format_action(a) for a in engine.legal_actions(state, 0)]
    assert sorted(choices(page)) == sorted(legal)


def test_end_turn_is_disabled_with_the_must_dock_reason(client: FlaskClient,
                                                        table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert "You must dock every ship that can dock" in page
    assert 'disabled aria-describedby="end-why"' in page


def test_a_dock_posts_applies_and_redirects(client: FlaskClient, table: Table) -> None:
    before = snapshot(table.id)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    move = choices(page)[0]
    response = post_move(client, table.links[0], move, page)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/play/{table.links[0]}")
    after = snapshot(table.id)
    assert after["version"] == before["version"] + 1
    assert [s["notation"] for s in after["steps"]] == [move]
    again = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert "This turn so far" in again and "You docked" in again


def test_an_illegal_move_shows_the_engines_sentence_and_changes_nothing(
        client: FlaskClient, table: Table) -> None:
    before = snapshot(table.id)
    state = GameState.from_json(before["state"])
    action = engine.parse_action("dock 1 1 shipyard", 0, 3)
    sentence = engine.refusal(state, action)
    assert sentence is not None
    response = post_move(client, table.links[0], "dock 1 1 shipyard")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert sentence[1].replace("'", "&#39;") in page
    assert "Your moves" in page  # the current state, with the moves still offered
    assert snapshot(table.id) == before


def test_unreadable_text_is_a_422_with_the_reason(client: FlaskClient, table: Table) -> None:
    before = snapshot(table.id)
    response = post_move(client, table.links[0], "fly to the moon")
    assert response.status_code == 422
    assert "Cannot read" in response.get_data(as_text=True)
    assert snapshot(table.id) == before


def test_a_stale_page_is_a_409_with_the_current_state(client: FlaskClient,
                                                       table: Table) -> None:
    old_page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    first, second = choices(old_page)[0], choices(old_page)[-1]
    assert post_move(client, table.links[0], first, old_page).status_code == 303
    before = snapshot(table.id)
    response = post_move(client, table.links[0], second, old_page)
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
    assert snapshot(table.id) == before


def test_another_seats_form_or_a_forged_link_changes_nothing(client: FlaskClient,
                                                            table: Table) -> None:
    before = snapshot(table.id)
    ana = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    move = choices(ana)[0]
    response = client.post(f"/play/{table.links[1]}/act", data={
        "csrf_token": hidden(ana, "csrf_token"), "form_token": hidden(ana, "form_token"),
        "action": move})
    assert response.status_code == 403
    response = client.post(f"/play/{table.links[0]}x/act", data={
        "csrf_token": hidden(ana, "csrf_token"), "form_token": hidden(ana, "form_token"),
        "action": move})
    assert response.status_code == 401
    assert "not valid" in response.get_data(as_text=True)
    response = client.post(f"/play/{table.links[0]}/act", data={
        "csrf_token": hidden(ana, "csrf_token"), "form_token": "forged", "action": move})
    assert response.status_code == 401
    assert client.get("/play/nonsense").status_code == 401
    assert snapshot(table.id) == before


def test_a_post_without_the_csrf_token_is_refused(client: FlaskClient, table: Table) -> None:
    before = snapshot(table.id)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    response = client.post(f"/play/{table.links[0]}/act", data={
        "form_token": hidden(page, "form_token"), "action": choices(page)[0]})
    assert response.status_code == 400
    assert snapshot(table.id) == before


def test_a_mail_link_prefills_a_move_to_confirm(client: FlaskClient, table: Table) -> None:
    state = GameState.from_json(fresh(table.id).state)
    move = engine.format_action(engine.legal_actions(state, 0)[0])
    page = client.get(f"/play/{table.links[0]}?move={move}").get_data(as_text=True)
    assert "Confirm this move" in page
    assert f'name="action" value="{move}">Confirm this move' in page
    refused = client.get(f"/play/{table.links[0]}?move=dock 1 1 shipyard")
    assert "is not possible now" in refused.get_data(as_text=True)
    assert snapshot(table.id)["steps"] == []  # a GET never plays


def test_undo_takes_back_the_last_step(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert "Undo last step" not in page
    solar = next(m for m in choices(page) if m.endswith("solar_converter"))
    post_move(client, table.links[0], solar, page)
    before = snapshot(table.id)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert "Undo last step" in page
    undo_form = page[page.index('class="undo"'):]
    response = client.post(f"/play/{table.links[0]}/undo", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(undo_form, "form_token")})
    assert response.status_code == 303
    after = snapshot(table.id)
    assert after["steps"] == [] and after["version"] == before["version"] + 1
    stale = client.post(f"/play/{table.links[0]}/undo", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(undo_form, "form_token")})
    assert stale.status_code == 409
    assert snapshot(table.id) == after


def test_a_whole_turn_hands_over_to_the_next_seat(client: FlaskClient, table: Table) -> None:
    for _ in range(12):
        page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
        moves = choices(page)
        if not moves:
            break
        move = next((m for m in moves if m.startswith("end")), moves[0])
        assert post_move(client, table.links[0], move, page).status_code == 303
    assert GameState.from_json(fresh(table.id).state).turn.seat == 1
    ben = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    assert "Since your last turn" in ben and "Ana docked" in ben


def test_the_solar_converter_choice_says_what_the_engine_pays_after_a_borrowed_bonus(
        client: FlaskClient, table: Table) -> None:
    """Issue 11: after `use data_crystal lem` the Data Crystal lends Lem Badlands' +1 fuel;
    the page's Solar Converter choice says the +4 a 5 then gets, as docking pays."""
    state = build_state({"players": 3, "turn": "red", "colonies": {"lem": {"green": 1}},
                         "seats": {"red": {"fuel": 1, "unplaced": [5],
                                           "cards": ["data_crystal"]}}})
    state, _ = engine.apply(state, engine.parse_action("use data_crystal lem", 0, 3))
    put_state(table, state)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    button = re.search(r'<button[^>]*value="dock 5 solar_converter".*?</button>', page, re.S)
    assert button is not None
    assert '<span class="detail">+4 fuel</span>' in button.group(0)
    paid, _ = engine.apply(state, engine.parse_action("dock 5 solar_converter", 0, 3))
    assert paid.seats[0].fuel - state.seats[0].fuel == 4
