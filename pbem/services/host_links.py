"""The host page's link: what it opens, replacing a leaked one, and the games an address hosts.

A host token names the game and the game's ``host_link_counter`` (``pbem.tokens``); here it
is matched with the game, so bumping the counter revokes every host link issued before
without a table of tokens, as a seat's ``link_counter`` does for its links.
"""

from __future__ import annotations

import sqlalchemy as sa

from pbem import tokens
from pbem.extensions import db
from pbem.mail.addresses import UnmailableAddress, address_key
from pbem.mail.outbound import links, notify
from pbem.models import Game
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, lock_game


def resolve_host_link(token: str | None) -> Game:
    """The game whose host page ``token`` opens; ``BadToken`` for a forged, expired or
    replaced one."""
    link = tokens.read_host_link(token)
    game = db.session.execute(
        sa.select(Game).where(Game.public_id == link.public_id)).scalar_one_or_none()
    if game is None:
        raise tokens.BadToken("revoked")  # the game was deleted: the link cannot work
    if (game.host_link_counter or 0) != link.counter:
        raise tokens.BadToken("revoked")
    return game


def replace_host_link(game_id: GameRef) -> str:
    """A new host link for the game; every older one stops working. The new link is mailed
    to the host's address in the same transaction; returns its token."""
    with transaction():
        game = lock_game(game_id)
        game.host_link_counter = (game.host_link_counter or 0) + 1
        notify.host_link_replaced(game)
        token = links.host_token(game)
    return token


def hosted_games(address: str) -> list[Game]:
    """Every game the normalised ``address`` hosts, newest first (the "My games" list)."""
    rows = db.session.scalars(
        sa.select(Game).where(sa.func.lower(Game.host_email) == address)
        .order_by(Game.created_at.desc()))
    return [game for game in rows if _same(game.host_email, address)]


def _same(stored: str | None, address: str) -> bool:
    try:
        return stored is not None and address_key(stored) == address
    except UnmailableAddress:
        return False
