"""The host page is always reachable: the host's invitation carries the host link (a host who
does not play gets it in a mail of its own), "My games" lists the games an address hosts with
their host links, and the host can replace a leaked link (the old one stops working)."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Outbox
from pbem.services.games import SeatSpec, create_game

from .conftest import EMAILS, HOST, Table, fresh, hidden, magic_key

HOST_PATH = re.compile(r"/host/([\w.-]+)")


def _mails(kind: str) -> list[Outbox]:
    db.session.rollback()
    return list(db.session.scalars(sa.select(Outbox).where(Outbox.kind == kind)
                                   .order_by(Outbox.id)))


def _playing_host_game() -> int:
    game = create_game(name="Hosted", host_email=EMAILS[0],
                       seats=[SeatSpec("Ana", EMAILS[0]), SeatSpec("Ben", EMAILS[1])],
                       options={"factions": False}, seed=3, fixed_order=True)
    return int(game.id)


def test_the_hosts_invitation_carries_the_host_link(client: FlaskClient, ctx: object) -> None:
    game_id = _playing_host_game()
    invitations = {m.to_addr: m for m in _mails("invitation") if m.game_id == game_id}
    host_mail = invitations[EMAILS[0]]
    found = HOST_PATH.search(host_mail.text_body)
    assert found and "You host this game." in host_mail.text_body
    assert found.group(1) in (host_mail.html_body or "")
    assert client.get(f"/host/{found.group(1)}").status_code == 200
    assert not HOST_PATH.search(invitations[EMAILS[1]].text_body)  # a player's has none
    assert not HOST_PATH.search(invitations[EMAILS[1]].html_body or "")


def test_a_host_who_does_not_play_gets_the_host_link(client: FlaskClient, table: Table) -> None:
    hosting = [m for m in _mails("hosting") if m.game_id == table.id]
    assert [m.to_addr for m in hosting] == [HOST]
    found = HOST_PATH.search(hosting[0].text_body)
    assert found and client.get(f"/host/{found.group(1)}").status_code == 200
    assert not any(address in hosting[0].text_body for address in EMAILS)


def test_my_games_lists_the_games_i_host_with_their_links(client: FlaskClient,
                                                          table: Table) -> None:
    key = magic_key(client.application, HOST)
    page = client.get(f"/me/{key}").get_data(as_text=True)
    assert "Games you host" in page
    found = HOST_PATH.search(page)
    assert found and tokens.read_host_token(found.group(1)) == table.public_id
    assert client.get(f"/host/{found.group(1)}").status_code == 200
    player = client.get(f"/me/{magic_key(client.application, EMAILS[2])}")
    assert "Games you host" not in player.get_data(as_text=True)


def test_the_host_replaces_a_leaked_link(client: FlaskClient, table: Table) -> None:
    old = tokens.make_host_token(table.public_id)
    page = client.get(f"/host/{old}").get_data(as_text=True)
    assert "Replace the host link" in page
    answer = client.post(f"/host/{old}/new-link", data={"csrf_token": hidden(page, "csrf_token")})
    assert answer.status_code == 303
    new = HOST_PATH.search(answer.location)
    assert new and new.group(1) != old
    assert "This is your new host link" in client.get(answer.location).get_data(as_text=True)
    refused = client.get(f"/host/{old}")
    assert refused.status_code == 401
    assert "replaced by a newer one" in refused.get_data(as_text=True)
    version = fresh(table.id).version
    cancel = client.post(f"/host/{old}/cancel", data={"csrf_token": hidden(page, "csrf_token"),
                                                     "confirm": "yes"})
    assert cancel.status_code == 401 and fresh(table.id).status == "active"
    assert fresh(table.id).version == version
    mailed = _mails("host_link")
    assert [m.to_addr for m in mailed] == [HOST]
    # The mail's link is signed when the mail is composed, maybe a second after the redirect's
    # (the signature carries the time): the two name the same game and counter.
    mailed_link = HOST_PATH.search(mailed[0].text_body)
    assert mailed_link and old not in mailed[0].text_body
    assert tokens.read_host_link(mailed_link.group(1)) == tokens.read_host_link(new.group(1))
    assert client.get(f"/host/{mailed_link.group(1)}").status_code == 200


def test_the_operator_prints_or_replaces_the_host_link(client: FlaskClient,
                                                       table: Table) -> None:
    runner = client.application.test_cli_runner()
    shown = runner.invoke(args=["pbem", "host-link", table.public_id])
    assert shown.exit_code == 0, shown.output
    first = HOST_PATH.search(shown.output)
    assert first and client.get(f"/host/{first.group(1)}").status_code == 200
    replaced = runner.invoke(args=["pbem", "host-link", table.public_id, "--replace"])
    second = HOST_PATH.search(replaced.output)
    assert second and second.group(1) != first.group(1)
    assert client.get(f"/host/{first.group(1)}").status_code == 401
    assert client.get(f"/host/{second.group(1)}").status_code == 200
