"""Issue #6, "Done when": whole games played through the turn pages, 2 to 5 seats.

Each seat presses the buttons of its own turn page (reached by its seat link) until the game
is over; the log then replays to the same state (`verify_replay`)."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem import tokens
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models.game import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import MakeApp
from tests.page_play import play_from_the_page

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli"]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "factions"), [(2, True), (4, False), (5, True)])
def test_a_whole_game_is_played_through_the_turn_pages(
        app: Flask, make_app: MakeApp, players: int, factions: bool) -> None:
    web = make_app(WTF_CSRF_ENABLED=False)
    with web.app_context():
        game = games.create_game(
            name="Pages only", host_email="host@example.org", fixed_order=True,
            seats=[SeatSpec(n, f"{n.lower()}@example.org") for n in NAMES[:players]],
            options={"factions": factions}, seed=4_242_424_242 + players)
        game_id = game.id
        links = [tokens.make_seat_link(game, seat) for seat in game.seats]
    client = web.test_client()
    moves = 0
    for _ in range(5000):
        with web.app_context():
            game = db.session.get_one(Game, game_id)
            if game.status != "active":
                break
            seat = awaited(GameState.from_json(game.state))
        assert seat is not None
        moves += play_from_the_page(web, client, f"/play/{links[seat]}", game_id, limit=200)
    with web.app_context():
        game = db.session.get_one(Game, game_id)
        assert game.status == "finished", f"stopped after {moves} moves from the pages"
        assert GameState.from_json(game.state).result is not None
        assert games.verify_replay(game_id) == []
    assert moves > 20 * players
