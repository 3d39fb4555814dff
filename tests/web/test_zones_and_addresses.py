"""Time zones and addresses at creation (issue 26): a zone matches whatever its case
(``europe/lisbon`` is Europe/Lisbon) on the settings form, the new-game form and the CLI; the
new-game form sets every player's zone (the page fills in the browser's own, see
tests/e2e/test_phone.py); two seats with one address get a warning and nothing is created
until the host says they share it on purpose."""

from __future__ import annotations

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import games
from pbem.services.games import SeatSpec
from pbem.services.validation import clean_timezone, shared_addresses
from tests.web.conftest import Table, fresh, hidden
from tests.web.test_your_seat import _post, _settings


def test_a_time_zone_matches_whatever_its_case() -> None:
    assert clean_timezone("europe/lisbon") == "Europe/Lisbon"
    assert clean_timezone(" AMERICA/ARGENTINA/BUENOS_AIRES ") == "America/Argentina/Buenos_Aires"
    assert clean_timezone("utc") == "UTC"
    assert clean_timezone("") == "UTC"


def test_the_settings_form_saves_a_zone_typed_in_lower_case(client: FlaskClient,
                                                             table: Table) -> None:
    response = _post(client, table.links[2], "settings", **_settings(timezone="europe/lisbon"))
    assert response.status_code == 303
    assert fresh(table.id).seat(2).timezone == "Europe/Lisbon"


def _form(client: FlaskClient, **fields: str) -> dict[str, str]:
    page = client.get("/games/new").get_data(as_text=True)
    return {"csrf_token": hidden(page, "csrf_token"), "name": "Zones", "hours": "24",
            "host_email": "ana@example.net", "seat-0-name": "Ana",
            "seat-0-email": "ana@example.net", "seat-1-name": "Ben",
            "seat-1-email": "ben@example.net", "seat-2-name": "Robo", "seat-2-computer": "on",
            **fields}


def _games() -> list[Game]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Game)))


def test_the_new_game_form_offers_a_zone_field_for_the_browser_to_fill(
        client: FlaskClient, ctx: object) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="timezone"' in page and "data-browser-zone" in page
    assert "/static/timezone.js" in page


def test_the_new_game_form_sets_every_players_zone_whatever_its_case(
        client: FlaskClient, ctx: object) -> None:
    response = client.post("/games/new", data=_form(client, timezone="asia/tokyo"))
    assert response.status_code == 303
    (game,) = _games()
    assert [s.timezone for s in game.seats if not s.is_bot] == ["Asia/Tokyo", "Asia/Tokyo"]


def test_an_unknown_zone_is_said_beside_its_field_and_creates_nothing(
        client: FlaskClient, ctx: object) -> None:
    response = client.post("/games/new", data=_form(client, timezone="Atlantis/Capital"))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Unknown timezone &#39;Atlantis/Capital&#39;" in page
    assert _games() == []


def test_two_seats_with_one_address_are_warned_and_created_only_when_confirmed(
        client: FlaskClient, ctx: object) -> None:
    shared = _form(client, **{"seat-1-email": "ANA@example.net"})
    warned = client.post("/games/new", data=shared)
    page = warned.get_data(as_text=True)
    assert warned.status_code == 200
    assert "Nothing was created yet: two seats share one address." in page
    assert "Ana and Ben have the same address (ana@example.net)" in page
    assert 'name="same_address_ok"' in page
    assert 'value="ANA@example.net"' in page  # the form comes back as typed
    assert _games() == [] and db.session.scalars(sa.select(Outbox)).all() == []
    confirmed = client.post("/games/new", data={**shared, "same_address_ok": "on"})
    assert confirmed.status_code == 303
    (game,) = _games()
    assert sorted(s.name for s in game.seats) == ["Ana", "Ben", "Robo"]


def test_shared_addresses_name_the_seats_that_share_one() -> None:
    assert shared_addresses([("Ana", "a@x.org"), ("Ben", "b@x.org"), ("Cy", None)]) == []
    (warning,) = shared_addresses([("Ana", "a@x.org"), ("Ben", "A@X.org"), ("Cy", "c@x.org")])
    assert warning.startswith("Ana and Ben have the same address (a@x.org)")


def test_the_rematch_form_keeps_the_players_zone(client: FlaskClient, ctx: object) -> None:
    """The host's browser fills only an empty field: a rematch keeps the zone the players
    had (the most common of theirs)."""
    game = games.create_game(
        name="Zoned", host_email="ana@example.net",
        seats=[SeatSpec("Ana", "ana@example.net", timezone="Asia/Tokyo"),
               SeatSpec("Ben", "ben@example.net", timezone="Asia/Tokyo"),
               SeatSpec("Cy", "cy@example.net", timezone="Europe/Lisbon")],
        options={"factions": False}, seed=2, fixed_order=True)
    page = client.get(f"/games/new?rematch={tokens.make_host_token(game.public_id)}")
    assert 'name="timezone" maxlength="64" value="Asia/Tokyo"' in page.get_data(as_text=True)
