"""Absolute links for mail, built against ``SERVER_NAME`` — never a request's Host header.

A mail is composed inside whatever request caused it, but the link must work from the
recipient's inbox, so the URL adapter is bound here to the configured server name and scheme
instead of the request. Every link names a real endpoint of the app (``play.turn``,
``games.spectate``…); one that is not registered raises ``BuildError`` rather than mailing a
guessed path (``tests/mail/test_every_kind.py`` resolves every link of every mail kind to
its route).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import current_app

from pbem import tokens
from pbem.models.game import Game, Seat

DEV_SERVER_NAME = "127.0.0.1:5000"  # ``pbem serve`` default, for a bare dev checkout
# Set by ``pbem serve`` to the address it listens on when no SERVER_NAME is configured, so a
# local run on another port mails links to that port. Not SERVER_NAME itself: Flask would
# then refuse requests whose Host names the machine differently (localhost vs 127.0.0.1).
SERVED_AT = "PBEM_SERVED_AT"


def server_name() -> str:
    """The host[:port] mailed links point at."""
    config = current_app.config
    return str(config.get("SERVER_NAME") or config.get(SERVED_AT) or DEV_SERVER_NAME)


def external(endpoint: str, **values: Any) -> str:
    """``endpoint``'s URL with ``values``, absolute, at ``server_name()``."""
    config = current_app.config
    adapter = current_app.url_map.bind(
        server_name(),
        script_name=config.get("APPLICATION_ROOT") or "/",
        url_scheme=config.get("PREFERRED_URL_SCHEME") or "http",
    )
    return adapter.build(endpoint, values, force_external=True)


def with_query(url: str, **params: str) -> str:
    sep = "&" if "?" in url else "?"
    return url + sep + urlencode(params)


# --- the links mails carry -------------------------------------------------------------

def turn_url(game: Game, seat: Seat) -> str:
    """The seat's turn page, the key of its seat (``/play/<seat_link>``)."""
    return external("play.turn", seat_link=tokens.make_seat_link(game, seat))


def move_url(turn_link: str, notation: str) -> str:
    """The turn page (``turn_url``) with a move prefilled (``?move=``): it opens a form,
    never plays it."""
    return with_query(turn_link, move=notation)


def game_url(game: Game) -> str:
    """The spectator page: the board and the log, for anyone."""
    return external("games.spectate", public_id=game.public_id)


def replay_url(game: Game) -> str:
    return external("games.replay", public_id=game.public_id)


def host_token(game: Game) -> str:
    """The game's current host link token (its ``host_link_counter``: a replaced link is
    refused, ``services/host_links.py``)."""
    return tokens.make_host_token(game.public_id, game.host_link_counter or 0)


def host_url(game: Game) -> str:
    return external("games.host", token=host_token(game))


def rematch_url(game: Game) -> str:
    """The create form prefilled with this game's players: for the host only, since the form
    shows their addresses (so the link carries the host token, not the public id)."""
    return with_query(external("games.new_game"), rematch=host_token(game))


def host_rematch_url(game: Game) -> str:
    """The host's rematch page: what the rematch will be, and the one button that starts it
    (a link only opens it: mail scanners follow links)."""
    return external("rematch.host_confirm", token=host_token(game))


def unsubscribe_url(game: Game, seat: Seat) -> str:
    """The seat's mail settings (also the one-click unsubscribe of RFC 8058)."""
    token = tokens.make_unsubscribe_token(game.public_id, seat.index, seat.link_counter)
    return external("mail.settings", token=token)


def dashboard_url(key: str) -> str:
    """The "my games" page of a sign-in link (``services/magic_links.py`` makes the key)."""
    return external("me.dashboard", token=key)


def notation_help_url() -> str:
    """How to write a move, with examples: linked wherever a typed move is refused."""
    return external("home.notation")
