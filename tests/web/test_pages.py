"""Create, watch, replay, host and "my games" pages, and two promises every page keeps:
names are escaped (a player called <script>… stays text) and no email address is shown."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game, Outbox
from tests.web.conftest import (
    EMAILS,
    EVIL,
    HOST,
    Table,
    choices,
    hidden,
    magic_key,
    post_move,
    snapshot,
)

ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def every_page(client: FlaskClient, table: Table) -> dict[str, str]:
    """Every page of the game, after one move (so the log and replay have content)."""
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    post_move(client, table.links[0], choices(page)[0], page)
    pages = {f"seat {i}": f"/play/{link}" for i, link in enumerate(table.links)}
    pages.update({
        "spectator": f"/games/{table.public_id}",
        "replay start": f"/games/{table.public_id}/replay?step=0",
        "replay end": f"/games/{table.public_id}/replay",
        "host": f"/host/{tokens.make_host_token(table.public_id)}",
        "dashboard": f"/me/{magic_key(client.application, EMAILS[1])}",
        "refusal": f"/play/{table.links[0]}?move=dock 1 1 shipyard",
    })
    out = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        out[name] = response.get_data(as_text=True)
    return out


def test_no_page_shows_an_email_address(client: FlaskClient, table: Table) -> None:
    for name, page in every_page(client, table).items():
        for address in (*EMAILS, HOST):
            assert address not in page, f"{address} on the {name} page"
        assert not re.search(r"[\w.+-]+@[\w-]+\.\w+", page), name


def test_a_player_named_script_is_escaped_on_every_page(client: FlaskClient,
                                                        table: Table) -> None:
    for name, page in every_page(client, table).items():
        assert EVIL not in page, name
        assert "<i>Frontier</i>" not in page, name
        assert "Friday &lt;i&gt;Frontier&lt;/i&gt;" in page, name
        assert ESCAPED in page, name


def test_spectators_see_the_board_players_and_log_in_words(client: FlaskClient,
                                                           table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    move = choices(page)[0]
    post_move(client, table.links[0], move, page)
    for _ in range(10):  # finish Ana's turn so the steps reach the log
        page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
        moves = choices(page)
        if not moves:
            break
        post_move(client, table.links[0], next((m for m in moves if m == "end"), moves[0]), page)
    watch = client.get(f"/games/{table.public_id}").get_data(as_text=True)
    assert "<svg" in watch and "Ana" in watch
    assert f"<code>{move}</code>" in watch and "Ana docked" in watch
    assert "csrf_token" not in watch and "form_token" not in watch


def test_the_replay_steps_through_the_log(client: FlaskClient, table: Table) -> None:
    for _ in range(12):
        page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
        moves = choices(page)
        if not moves:
            break
        post_move(client, table.links[0], next((m for m in moves if m == "end"), moves[0]), page)
    start = client.get(f"/games/{table.public_id}/replay?step=0").get_data(as_text=True)
    assert "The start of the game" in start
    first = client.get(f"/games/{table.public_id}/replay?step=1").get_data(as_text=True)
    assert "Step 1 of" in first and "Ana docked" in first
    beyond = client.get(f"/games/{table.public_id}/replay?step=9999").get_data(as_text=True)
    total = int(re.search(r"Step (\d+) of (\d+)", beyond).group(2))  # type: ignore[union-attr]
    assert f"Step {total} of {total}" in beyond and total >= 2


def test_create_a_game_sends_invitations_and_shows_the_host_link(client: FlaskClient,
                                                                 ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    assert 'name="factions" id="factions" checked' in form  # Factions on by default
    response = client.post("/games/new", data={  # the box unticked: the base game
        "csrf_token": hidden(form, "csrf_token"), "name": "Lunch <b>game</b>",
        "host_email": "host@example.net", "hours": "24",
        "seat-0-name": "Ana", "seat-0-email": "ana@example.net",
        "seat-1-name": EVIL, "seat-1-email": "evil@example.net",
        "seat-2-name": "Robo", "seat-2-computer": "on",
    })
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Invitations were sent" in page and "/host/" in page
    assert "Lunch &lt;b&gt;game&lt;/b&gt;" in page
    game = db.session.execute(sa.select(Game)).scalar_one()
    assert game.players == 3 and game.time_per_move_hours == 24
    assert game.options["factions"] is False
    invited = db.session.execute(sa.select(Outbox.to_addr)).scalars().all()
    assert "ana@example.net" in invited and "evil@example.net" in invited


def test_a_bad_create_form_says_what_to_fix_and_creates_nothing(client: FlaskClient,
                                                                ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    response = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "Solo", "host_email": "h@example.net",
        "seat-0-name": "Ana", "seat-0-email": "ana@example.net",
    })
    assert response.status_code == 400
    assert "Name 2 to 5 players." in response.get_data(as_text=True)
    response = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "Duo", "host_email": "h@example.net",
        "seat-0-name": "Ana", "seat-0-email": "ana@example.net", "seat-1-name": "Bo"})
    assert response.status_code == 400
    assert "Enter Bo’s email address" in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count(Game.id))).scalar_one() == 0


def test_the_host_can_cancel_and_a_forged_host_link_cannot(client: FlaskClient,
                                                          table: Table) -> None:
    token = tokens.make_host_token(table.public_id)
    page = client.get(f"/host/{token}").get_data(as_text=True)
    before = snapshot(table.id)
    forged = client.post(f"/host/{token}x/cancel",
                         data={"csrf_token": hidden(page, "csrf_token")})
    assert forged.status_code == 401
    assert snapshot(table.id) == before
    response = client.post(f"/host/{token}/cancel",
                           data={"csrf_token": hidden(page, "csrf_token"), "confirm": "yes"})
    assert response.status_code == 303
    assert snapshot(table.id)["status"] == "cancelled"
    turn = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert "Your moves" not in turn


def test_my_games_mails_a_link_to_every_address_and_lists_its_games(
        client: FlaskClient, table: Table) -> None:
    form = client.get("/me").get_data(as_text=True)
    for address in (EMAILS[0], "stranger@example.org"):
        response = client.post("/me", data={"csrf_token": hidden(form, "csrf_token"),
                                            "email": address})
        assert response.status_code == 303 and response.headers["Location"].endswith("/me")
        answer = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "sign-in link is on its way" in answer and address in answer
    mails = db.session.execute(
        sa.select(Outbox).where(Outbox.kind == "magic_link")).scalars().all()
    # issue #13: the same mail either way, so neither the answer nor its timing tells who plays
    assert [m.to_addr for m in mails] == [EMAILS[0], "stranger@example.org"]
    stranger = re.search(r"/me/[\w.-]+", mails[1].text_body).group(0)  # type: ignore[union-attr]
    assert "No games for this address" in client.get(stranger).get_data(as_text=True)
    link = re.search(r"/me/[\w.-]+", mails[0].text_body).group(0)  # type: ignore[union-attr]
    dashboard = client.get(link).get_data(as_text=True)
    # the dashboard signs a fresh link: same seat (payload), maybe a later second (timestamp)
    seat_payload = table.links[0].split(".")[0]
    assert "your turn" in dashboard and f"/play/{seat_payload}." in dashboard
    assert client.get("/me/forged").status_code == 401
    bad = client.post("/me", data={"csrf_token": hidden(form, "csrf_token"), "email": "nope"})
    assert bad.status_code == 400


def test_the_error_page_has_a_sentence_and_a_way_back(client: FlaskClient,
                                                      table: Table) -> None:
    page = client.get("/play/not-a-link").get_data(as_text=True)
    assert "Error 401" in page and "This link is not valid" in page
    assert 'href="/"' in page


def test_the_create_form_explains_factions_and_the_new_gaia_rescue(client: FlaskClient,
                                                                   ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    assert "Play with the Factions expansion" in form and "secret Agendas" in form
    assert 'name="new_gaia_rescue" value="high" checked' in form
    assert "4–6 is rescued (rulebook text and reference cards)" in form
    assert "1–3 is rescued (the rulebook's worked examples)" in form
    assert 'name="seat-4-name"' in form  # a fifth player, with Factions


def _five(form: str, **extra: str) -> dict[str, str]:
    data = {"csrf_token": hidden(form, "csrf_token"), "name": "Five", "hours": "48",
            "host_email": "host@example.net", **extra}
    for i, name in enumerate(("Ana", "Ben", "Cy", "Dan", "Eve")):
        data[f"seat-{i}-name"] = name
        data[f"seat-{i}-email"] = f"{name.lower()}@example.net"
    return data


def test_five_players_need_factions_in_the_engines_words(client: FlaskClient,
                                                         ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    refused = client.post("/games/new", data=_five(form))  # the box unticked
    assert refused.status_code == 400
    assert "The base game takes 2 to 4 players." in refused.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count(Game.id))).scalar_one() == 0
    made = client.post("/games/new", data=_five(form, factions="on", new_gaia_rescue="low"))
    assert made.status_code == 303
    game = db.session.execute(sa.select(Game)).scalar_one()
    assert game.players == 5
    assert game.options == {"factions": True, "new_gaia_rescue": "low"}
    assert game.state["phase"] == "draft"
    host = client.get(f"/host/{tokens.make_host_token(game.public_id)}").get_data(as_text=True)
    watch = client.get(f"/games/{game.public_id}").get_data(as_text=True)
    for page in (host, watch):
        assert "Factions on, New Gaia rescue on 1–3" in page and "48 hours per move" in page
        assert "Faction draft" in page or "no faction yet" in page
