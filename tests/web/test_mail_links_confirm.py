"""Every mail link confirms (issue 24, point 8): a link to any legal move opens a confirm form
for exactly that move, whose signed form plays it; a link to a move no longer legal opens the
page with a notice saying why. Positions come from random games of 2-5 seats, Factions on
and off (``tests.replies.test_reply_examples.positions``)."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from html import unescape
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem import engine, tokens
from pbem.engine import Action, GameState
from pbem.engine.scenarios import build_state
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from tests.conftest import ON_SQLITE_ONLY
from tests.replies.test_reply_examples import positions

from .conftest import fresh, hidden, snapshot

NAMES = ("Ana", "Ben", "Cy", "Di", "Ed")
PER_POSITION = 4  # links tried in one position: every kind first, then a random few


def confirm_form(page: str) -> str | None:
    found = re.search(r'<section class="confirm".*?</section>', page, re.S)
    return found.group(0) if found else None


def confirmed_move(page: str) -> str | None:
    """The move the page's confirm form posts, or None without one."""
    form = confirm_form(page)
    found = re.search(r'name="action" value="([^"]+)">Confirm this move', form or "")
    return unescape(found.group(1)) if found else None


def seat_game(players: int, factions: bool) -> Game:
    return games.create_game(
        name=f"links {players} {factions}", host_email="host@example.org",
        seats=[SeatSpec(NAMES[i], f"{NAMES[i].lower()}@example.org") for i in range(players)],
        options={"factions": factions}, seed=1, fixed_order=True)


def put(game: Game, state: GameState) -> None:
    game.state = game.turn_start_state = state.to_json()
    game.turn_steps = []
    game.status = "active"
    game.version += 1
    db.session.commit()


def sample(actions: list[Action], rng: random.Random) -> list[Action]:
    """One action of each kind, then random others, ``PER_POSITION`` at least."""
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for action in actions:
        by_kind[type(action).__name__].append(action)
    chosen = [rng.choice(group) for group in by_kind.values()]
    rest = [a for a in actions if a not in chosen]
    return chosen + rng.sample(rest, min(len(rest), max(0, PER_POSITION - len(chosen))))


def link(seat_link: str, notation: str) -> str:
    return f"/play/{seat_link}?move={quote(notation)}"


def confirm_and_post(client: FlaskClient, seat_link: str, notation: str) -> None:
    """Open the link, check its confirm form carries ``notation`` and post that form as a
    browser would: the move is played, exactly it, as the turn's last step."""
    page = client.get(link(seat_link, notation)).get_data(as_text=True)
    assert confirmed_move(page) == notation
    form = confirm_form(page) or ""
    response = client.post(f"/play/{seat_link}/act", data={
        "csrf_token": hidden(form, "csrf_token"), "form_token": hidden(form, "form_token"),
        "action": confirmed_move(page)})
    assert response.status_code == 303, response.get_data(as_text=True)


def played_exactly(game_id: int, before: GameState, action: Action) -> bool:
    """The game is where ``action`` alone takes ``before`` (the engine's own apply)."""
    after, _ = engine.apply(before, action)
    return fresh(game_id).state == after.to_json()


def confirm_random_positions(app: Flask, client: FlaskClient, count: int, seed: int,
                             kinds_seen: int) -> None:
    """In ``count`` random positions, links to a sample of the legal moves (every kind of
    the position) confirm exactly them, and one confirm form per position plays its move."""
    rng = random.Random(seed)
    tables: dict[tuple[int, bool], Game] = {}
    kinds: set[str] = set()
    with app.app_context():
        for players, factions, state in positions(count, seed=seed):
            game = tables.get((players, factions)) or seat_game(players, factions)
            tables[(players, factions)] = game
            put(game, state)
            seat = engine.awaited(state)
            assert seat is not None
            seat_link = tokens.make_seat_link(game, game.seat(seat))
            chosen = sample(engine.legal_actions(state, seat), rng)
            for action in chosen:
                notation = engine.format_action(action)
                page = client.get(link(seat_link, notation)).get_data(as_text=True)
                assert confirmed_move(page) == notation, (notation, players, factions)
                kinds.add(type(action).__name__)
            played = rng.choice(chosen)
            confirm_and_post(client, seat_link, engine.format_action(played))
            assert played_exactly(game.id, state, played)
            game = fresh(game.id)
    assert {"Dock", "EndTurn", "UsePlasmaCannon", "UseTemporalWarper"} <= kinds, kinds
    assert len(kinds) >= kinds_seen, kinds


def test_a_link_to_any_legal_move_of_random_positions_confirms_exactly_that_move(
        app: Flask, client: FlaskClient) -> None:
    confirm_random_positions(app, client, 40, seed=824, kinds_seen=15)


@pytest.mark.slow
@ON_SQLITE_ONLY  # the 40 positions above run on both databases
def test_a_link_to_any_legal_move_of_800_random_positions_confirms_exactly_that_move(
        app: Flask, client: FlaskClient) -> None:
    confirm_random_positions(app, client, 800, seed=2026, kinds_seen=25)


CARD_POSITIONS = {
    "several cloak groups": {"players": 4, "options": {"factions": True}, "seats": {
        "green": {"docked": {"orbital_market": [[3, 3]]}},
        "blue": {"docked": {"orbital_market": [[5, 5]]}},
        "red": {"fuel": 2, "unplaced": [3, 3, 5, 5], "cards": ["cloak"]}}},
    "cloak with the Relic Ship": {"players": 2, "options": {"factions": True},
                                  "colonies": {"burroughs": {"red": 1}}, "seats": {
        "green": {"docked": {"lunar_mine": [5]}},
        "red": {"fuel": 2, "unplaced": [2, "5r"], "cards": ["cloak"]}}},
    "plasma cannon": {"players": 3, "seats": {
        "green": {"docked": {"shipyard": [[3, 3]], "alien_artifact": [2, 6]}},
        "red": {"fuel": 3, "ore": 1, "unplaced": [2, 2, 4], "cards": ["cannon"]}}},
    "temporal warper": {"players": 2, "colonies": {"burroughs": {"red": 1}}, "seats": {
        "red": {"fuel": 1, "unplaced": [1, 2, "2r", 5], "cards": ["warper"]}}},
}
MUST_CONFIRM = ("use chameleon_cloak orbital_market green 3 green 3 blue 5 blue 5",
                "use chameleon_cloak lunar_mine green 5 with 5r",
                "use plasma_cannon alien_artifact green 2 green 6",
                "use temporal_warper 1 2r 2")


def test_every_legal_move_of_the_pick_cards_confirms_and_its_form_plays_it(
        app: Flask, client: FlaskClient) -> None:
    """Every Plasma Cannon subset, Temporal Warper re-roll and Chameleon Cloak (several
    groups, ``with 5r``) of a position: its link confirms it and the form plays it."""
    offered: set[str] = set()
    with app.app_context():
        for table in CARD_POSITIONS.values():
            state = build_state({"turn": "red", **table})
            game = seat_game(state.players, bool(table.get("options")))
            seat_link = tokens.make_seat_link(game, game.seat(0))
            for action in engine.legal_actions(state, 0):
                notation = engine.format_action(action)
                offered.add(notation)
                put(fresh(game.id), state)
                confirm_and_post(client, seat_link, notation)
                assert played_exactly(game.id, state, action), notation
    assert set(MUST_CONFIRM) <= offered


def test_a_link_to_a_move_no_longer_legal_says_why_and_changes_nothing(
        app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        state = build_state({"turn": "red", "players": 3, **CARD_POSITIONS["plasma cannon"]})
        game = seat_game(3, False)
        put(game, state)
        links = [tokens.make_seat_link(game, game.seat(i)) for i in range(3)]
        shot = "use plasma_cannon shipyard green 3 green 3"
        confirm_and_post(client, links[0], shot)
        before = snapshot(game.id)
        page = client.get(link(links[0], shot)).get_data(as_text=True)
        assert confirmed_move(page) is None
        assert "is not possible now" in page and "Plasma Cannon" in page
        page = client.get(link(links[1], "dock 2 solar_converter")).get_data(as_text=True)
        assert confirmed_move(page) is None
        assert "It is Ana’s turn now, not yours." in unescape(page)
        assert snapshot(game.id) == before
