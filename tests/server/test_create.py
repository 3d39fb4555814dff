"""Creating a game: seats drawn in random order (ruling B21), inputs checked with readable
refusals, invitations mailed, computer players in any seat."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import games
from pbem.services.errors import BadInput
from pbem.services.games import SeatSpec

from .conftest import BASE, auth, link, seat_specs, start


def test_seat_order_is_drawn_at_random_unless_fixed(server: Flask) -> None:
    orders = set()
    for _ in range(12):
        game = games.create_game(name="Random", host_email="ana@example.org",
                                 seats=seat_specs(4), options={})
        orders.add(tuple(seat.name for seat in game.seats))
    assert len(orders) > 1  # all twelve alike: chance 24**-11
    fixed = start(4)
    assert [seat.name for seat in fixed.seats] == ["Ana", "Bo", "Cy", "Di"]
    assert [seat.colour for seat in fixed.seats] == ["red", "green", "blue", "yellow"]


def test_the_host_seat_and_invitations(server: Flask) -> None:
    game = start(3, bot_seats=(1,))
    assert game.host_seat == 0 and game.version == 1 and game.status == "active"
    recipients = set(db.session.execute(sa.select(Outbox.to_addr)).scalars())
    assert recipients == {"ana@example.org", "cy@example.org"}


def test_the_seed_is_secret_and_random(server: Flask) -> None:
    game = games.create_game(name="Seeded", host_email="ana@example.org",
                             seats=seat_specs(2), options={})
    other = games.create_game(name="Seeded", host_email="ana@example.org",
                              seats=seat_specs(2), options={})
    assert game.seed != other.seed and len(game.public_id) == 22
    body = server.test_client().get(f"/api/games/{game.public_id}/seat",
                                    headers=auth(link(game.id, 0))).get_data(as_text=True)
    assert str(game.seed) not in body


@pytest.mark.parametrize(("seats", "message"), [
    ([SeatSpec("Ana", "ana@example.org")], "The base game takes 2 to 4 players"),
    (seat_specs(5), "The base game takes 2 to 4 players"),
    ([SeatSpec("Ana", "not-an-address"), SeatSpec("Bo", "bo@example.org")], "Ana's email"),
    ([SeatSpec("  ", "ana@example.org"), SeatSpec("Bo", "bo@example.org")], "Player 1's name"),
    ([SeatSpec("A" * 41, "a@example.org"), SeatSpec("Bo", "bo@example.org")], "longer than"),
    ([SeatSpec("Ana", "ana@example.org", timezone="Mars/Olympus"),
      SeatSpec("Bo", "bo@example.org")], "Unknown timezone"),
])
def test_bad_input_is_refused_and_nothing_is_stored(
    server: Flask, seats: list[SeatSpec], message: str
) -> None:
    with pytest.raises(BadInput, match=message):
        games.create_game(name="Bad", host_email="ana@example.org", seats=seats, options=BASE)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one() == 0
    assert db.session.execute(sa.select(sa.func.count()).select_from(Outbox)).scalar_one() == 0


@pytest.mark.parametrize(("options", "message"), [
    ({"variant": "x"}, "Unknown game option 'variant'"),
    ({"factions": "yes"}, "Game option 'factions'"),
])
def test_options_the_engine_does_not_offer_are_refused(
    server: Flask, options: dict[str, str], message: str
) -> None:
    with pytest.raises(BadInput, match=message):
        games.create_game(name="F", host_email="ana@example.org", seats=seat_specs(2),
                          options=options)


def test_seat_counts_follow_the_engine(server: Flask) -> None:
    """Five seats with the Factions expansion; the draft is the first decision."""
    game = start(5, options={"factions": True})
    assert [seat.colour for seat in game.seats][-1] == "purple"
    assert game.state["turn"]["pending"]["kind"] == "draft"
    with pytest.raises(BadInput, match="Factions expansion takes 2 to 5 players"):
        start(6, options={"factions": True})


def test_hours_and_host_address_are_checked(server: Flask) -> None:
    with pytest.raises(BadInput, match="Time per move"):
        games.create_game(name="H", host_email="ana@example.org", seats=seat_specs(2),
                          options={}, time_per_move_hours=0)
    with pytest.raises(BadInput, match="Host email"):
        games.create_game(name="H", host_email="nobody", seats=seat_specs(2), options={})
