"""Issue 14, "One mail-settings page": the mail's settings link opens the same full settings
as the seat page (which mails, time zone, quiet hours) through the same service, and the time
zone an address set once is offered for its next game."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem import tokens
from pbem.extensions import db
from pbem.models.game import Game
from pbem.services import seat_settings
from tests.conftest import MakeApp
from tests.mail.conftest import new_game
from tests.mail.test_pages import dev_app

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def _path(game: Game, seat: int) -> str:
    counter = game.seat(seat).link_counter
    return f"/mail/unsubscribe/{tokens.make_unsubscribe_token(game.public_id, seat, counter)}"


def test_the_mail_link_shows_and_saves_every_setting_of_the_seat_page(
    app: Flask, make_app: MakeApp
) -> None:
    web = dev_app(make_app)
    with web.app_context():
        game = new_game()
        game_id, path = game.id, _path(game, 1)
    client = web.test_client()
    page = client.get(path).get_data(as_text=True)
    for value in ("every_turn", "my_turn", "digest"):  # the 3 choices, as on the seat page
        assert f'name="notify" value="{value}"' in page
    assert 'name="timezone"' in page and 'name="quiet_start"' in page
    assert 'name="quiet_end"' in page
    saved = client.post(path, data={"notify": "digest", "timezone": "Europe/Lisbon",
                                    "quiet_start": "23", "quiet_end": "7"})
    assert saved.status_code == 200 and "Saved" in saved.get_data(as_text=True)
    with web.app_context():
        seat = db.session.get(Game, game_id).seat(1)  # type: ignore[union-attr]
        assert (seat.notify, seat.timezone, seat.quiet_start, seat.quiet_end) == (
            "digest", "Europe/Lisbon", 23 * 60, 7 * 60)


def test_a_bad_setting_says_why_and_changes_nothing(app: Flask, make_app: MakeApp) -> None:
    web = dev_app(make_app)
    with web.app_context():
        game = new_game()
        game_id, path = game.id, _path(game, 1)
    client = web.test_client()
    bad = client.post(path, data={"notify": "my_turn", "timezone": "Mars/Olympus",
                                  "quiet_start": "23", "quiet_end": "7"})
    assert bad.status_code == 400
    body = bad.get_data(as_text=True)
    assert "Nothing was saved" in body
    with web.app_context():
        seat = db.session.get(Game, game_id).seat(1)  # type: ignore[union-attr]
        assert (seat.notify, seat.timezone) == ("every_turn", "UTC")


def test_the_time_zone_is_asked_once_per_address_and_offered_for_the_next_game(
    app: Flask, make_app: MakeApp
) -> None:
    web = dev_app(make_app)
    with web.app_context():
        first = new_game()
        seat_settings.update_settings(first.id, 1, notify="every_turn",
                                      timezone="America/Chicago", quiet_start=22, quiet_end=8)
        second = new_game()
        ben, ana = second.seat(1), second.seat(0)
        assert seat_settings.remembered_timezone(ben) == "America/Chicago"
        assert seat_settings.remembered_timezone(ana) is None  # Ana never set one
        path = _path(second, 1)
    page = web.test_client().get(path).get_data(as_text=True)
    assert 'name="timezone" value="America/Chicago"' in page
    assert "Your time zone in your last game was America/Chicago" in page
