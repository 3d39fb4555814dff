"""Signed tokens: one salt per purpose, key rotation, and readable reasons."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem import tokens
from pbem.services import links
from pbem.tokens import BadToken

from .conftest import fresh, link, start


def test_each_purpose_round_trips(server: Flask) -> None:
    game = fresh(start(2).id)
    assert links.resolve_seat_link(link(game.id, 1), game.public_id) == (game, game.seat(1))
    form = tokens.make_form_token(game.public_id, 1, 7)
    assert tokens.read_form_token(form, game.public_id, 1) == 7
    assert tokens.read_host_token(tokens.make_host_token(game.public_id)) == game.public_id
    unsubscribe = tokens.make_unsubscribe_token(game.public_id, 1, 4)
    assert tokens.read_unsubscribe_token(unsubscribe) == tokens.SeatLink(game.public_id, 1, 4)


def test_a_token_of_one_purpose_is_no_good_for_another(server: Flask) -> None:
    game = fresh(start(2).id)
    with pytest.raises(BadToken) as refused:
        tokens.read_host_token(link(game.id, 0))
    assert refused.value.reason == "forged"


@pytest.mark.parametrize(("public_id", "seat", "reason", "status"), [
    ("other", 0, "other_game", 403),
    (None, 1, "other_seat", 403),
])
def test_a_form_token_is_bound_to_game_and_seat(
    server: Flask, public_id: str | None, seat: int, reason: str, status: int
) -> None:
    game = fresh(start(2).id)
    form = tokens.make_form_token(game.public_id, 0, 3)
    with pytest.raises(BadToken) as refused:
        tokens.read_form_token(form, public_id or game.public_id, seat)
    assert (refused.value.reason, refused.value.status) == (reason, status)
    assert refused.value.message == tokens.REASONS[reason]


def test_links_survive_a_key_rotation(server: Flask) -> None:
    game = fresh(start(2).id)
    old_link = link(game.id, 0)
    server.config.update(SECRET_KEY="a-new-key", SECRET_KEY_FALLBACKS=["test-secret"])
    assert links.resolve_seat_link(old_link)[1].index == 0
    server.config.update(SECRET_KEY_FALLBACKS=[])
    with pytest.raises(BadToken, match="not valid"):
        links.resolve_seat_link(old_link)
