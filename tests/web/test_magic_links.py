"""The "my games" link (issue #13): opaque, the same work for every address, every form safe."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import clock
from pbem.extensions import db
from pbem.models import MagicLink, Outbox
from pbem.services import magic_links
from pbem.services.games import SeatSpec, create_game

from .conftest import EMAILS, Table, hidden

KELVIN = "\u212a"  # KELVIN SIGN: NFKC (and IDNA) make it a plain K


def _ask(client: FlaskClient, address: str) -> int:
    """The status of the page the player ends on: 200 after the redirect that answers an
    accepted address ("a link is on its way"), 400 for an address that could never be mailed."""
    form = client.get("/me").get_data(as_text=True)
    response = client.post("/me", data={"csrf_token": hidden(form, "csrf_token"),
                                        "email": address})
    if response.status_code == 303:
        assert response.headers["Location"].endswith("/me")
        return client.get("/me").status_code
    return response.status_code


def _mailed_key(to_addr: str) -> str:
    row = db.session.execute(
        sa.select(Outbox).where(Outbox.kind == "magic_link", Outbox.to_addr == to_addr)
        .order_by(Outbox.id.desc())).scalars().first()
    assert row is not None
    found = re.search(r"/me/([\w.-]+)", row.text_body)
    assert found is not None
    return found.group(1)


def _decodings(text: str) -> Iterator[bytes]:
    """Every base64 reading of the token and of each of its dot-separated parts."""
    for part in (text, *text.split(".")):
        for offset in range(4):  # any start: a payload may sit anywhere in the string
            chunk = part[offset:]
            try:
                yield base64.urlsafe_b64decode(chunk + "=" * (-len(chunk) % 4))
            except (binascii.Error, ValueError):
                continue


def test_the_link_carries_nothing_readable(client: FlaskClient, table: Table) -> None:
    assert _ask(client, EMAILS[0]) == 200
    key = _mailed_key(EMAILS[0])
    for needle in (EMAILS[0], "ana", "example"):
        assert needle not in key.lower()
        assert not any(needle.encode() in blob.lower() for blob in _decodings(key))
    stored = db.session.execute(sa.select(MagicLink)).scalars().one()
    assert key not in stored.key_hash  # only the hash is kept
    assert "Ana" in client.get(f"/me/{key}").get_data(as_text=True)


@contextmanager
def _statements(app: Flask) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(conn: object, cursor: object, statement: str, *args: object) -> None:
        seen.append(statement.split()[0].upper())

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def test_a_known_and_an_unknown_address_get_the_same_work(
        app: Flask, client: FlaskClient, table: Table) -> None:
    client.get("/me")  # warm: the first request builds templates and the form
    counts = {}
    for address in (EMAILS[1], "nobody@example.org"):
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox))
        with _statements(app) as seen:
            assert _ask(client, address) == 200
        after = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox))
        counts[address] = (sorted(seen), (after or 0) - (before or 0))
    assert counts[EMAILS[1]] == counts["nobody@example.org"]
    assert counts[EMAILS[1]][1] == 1  # one mail each
    assert "INSERT" in counts[EMAILS[1]][0] and "SELECT" in counts[EMAILS[1]][0]


def test_an_address_gets_a_few_links_an_hour_whoever_asks(client: FlaskClient,
                                                          table: Table) -> None:
    for _ in range(magic_links.MAGIC_LINKS_PER_ADDRESS + 2):
        assert _ask(client, "stranger@example.org") == 200
    mailed = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)
                               .where(Outbox.to_addr == "stranger@example.org"))
    assert mailed == magic_links.MAGIC_LINKS_PER_ADDRESS


def test_a_kelvin_sign_address_finds_its_games_and_never_500s(
        client: FlaskClient, ctx: Flask) -> None:
    create_game(name="Kelvin", host_email="host@example.org",
                seats=[SeatSpec("Ken", "Ken@kelvin.org"), SeatSpec("Bo", "bo@example.org")],
                options={"factions": False}, seed=5, fixed_order=True)
    assert _ask(client, f"ken@{KELVIN}ELVIN.org") == 200  # the domain folds to kelvin.org
    dashboard = client.get(f"/me/{_mailed_key('ken@kelvin.org')}").get_data(as_text=True)
    assert "Kelvin" in dashboard and "Ken" in dashboard
    assert _ask(client, f"{KELVIN}en@kelvin.org") == 400  # not mailable: a sentence, no 500
    stored = db.session.execute(sa.select(MagicLink.address)).scalars().all()
    assert stored == ["ken@kelvin.org"]


def test_a_seat_stored_with_a_look_alike_address_is_not_shown_to_another(
        client: FlaskClient, ctx: Flask) -> None:
    game = create_game(name="Old data", host_email="host@example.org",
                       seats=[SeatSpec("Ken", "ken@example.org"),
                              SeatSpec("Bo", "bo@example.org")],
                       options={"factions": False}, seed=5, fixed_order=True)
    game.seat(0).email = f"{KELVIN}en@example.org"  # stored before issue #13's one rule
    db.session.commit()
    assert _ask(client, "ken@example.org") == 200
    response = client.get(f"/me/{_mailed_key('ken@example.org')}")
    assert response.status_code == 200
    assert "No games for this address" in response.get_data(as_text=True)


def test_an_expired_or_unknown_key_is_refused(client: FlaskClient, table: Table) -> None:
    key = magic_links.issue_key(EMAILS[0], now=clock.now() - timedelta(hours=2))
    db.session.commit()
    assert client.get(f"/me/{key}").status_code == 401
    assert "expired" in client.get(f"/me/{key}").get_data(as_text=True)
    assert client.get("/me/" + "A" * 43).status_code == 401
