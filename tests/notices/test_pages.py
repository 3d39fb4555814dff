"""Issue 27, point 2: the seat's "Notices in chat apps" forms (turn page → "Your seat") and
the host page's table channel: a refusal says why and saves nothing; the page shows a channel
by its cut form only."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models.game import Seat
from pbem.models.notice import NoticeChannel
from tests.mail.conftest import new_game
from tests.notices import fake_chat
from tests.notices.conftest import DISCORD_SECRET, discord_url, game_of, ntfy_url, slack_url


def _seat_page(chat_app: Flask) -> tuple[int, str, str, str]:
    with chat_app.app_context():
        game = new_game()
        db.session.commit()
        link = tokens.make_seat_link(game, game.seat(1))
        form = tokens.make_form_token(game.public_id, 1, game.version)
        host = tokens.make_host_token(game.public_id, game.host_link_counter)
        return game.id, link, form, host


def _channels() -> list[NoticeChannel]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(NoticeChannel).order_by(
        NoticeChannel.position, NoticeChannel.id)))


def _post(client: FlaskClient, path: str, **data: str) -> tuple[int, str]:
    answer = client.post(path, data=data, follow_redirects=True)
    return answer.status_code, answer.get_data(as_text=True)


def test_a_seat_adds_orders_and_removes_its_channels(chat_app: Flask,
                                                     fake: fake_chat.FakeChat) -> None:
    game_id, link, form, _ = _seat_page(chat_app)
    client = chat_app.test_client()
    assert 'id="notices-title"' in client.get(f"/play/{link}").get_data(as_text=True)
    for url in (discord_url(), slack_url(), ntfy_url(fake)):
        status, page = _post(client, f"/play/{link}/notices", form_token=form, url=url)
        assert status == 200 and "Notices saved." in page
    assert DISCORD_SECRET not in page and "Discord · 127.0.0.1 · …_987" in page
    with chat_app.app_context():
        assert [c.service for c in _channels()] == ["discord", "slack", "ntfy"]
        ntfy = _channels()[2].id
    _post(client, f"/play/{link}/notices/up", form_token=form, channel=str(ntfy))
    with chat_app.app_context():
        assert [c.service for c in _channels()] == ["discord", "ntfy", "slack"]
        discord = _channels()[0].id
    _post(client, f"/play/{link}/notices/remove", form_token=form, channel=str(discord))
    status, page = _post(client, f"/play/{link}/notices/options", form_token=form,
                         handle="401234567890123456", escalate_hours="6")
    assert status == 200
    with chat_app.app_context():
        assert [c.service for c in _channels()] == ["ntfy", "slack"]
        seat = db.session.scalars(sa.select(Seat).where(Seat.game_id == game_id,
                                                        Seat.index == 1)).one()
        assert (seat.chat_handle, seat.escalate_hours) == ("401234567890123456", 6)


def test_refusals_say_why_and_change_nothing(chat_app: Flask) -> None:
    game_id, link, form, _ = _seat_page(chat_app)
    client = chat_app.test_client()
    for url, why in (("https://example.org/hook", "Use a Discord, Slack"),
                     ("ntfys://10.0.0.8/topic", "public hosts only"),
                     ("ntfy://ntfy.example.org/topic", "https only")):
        status, page = _post(client, f"/play/{link}/notices", form_token=form, url=url)
        assert status == 400 and "Nothing was changed." in page and why in page
    status, page = _post(client, f"/play/{link}/notices/options", form_token=form,
                         handle="ben!", escalate_hours="")
    assert status == 400 and "Give your handle as the service knows you" in page
    status, page = _post(client, f"/play/{link}/notices/options", form_token=form,
                         handle="", escalate_hours="500")
    assert status == 400
    with chat_app.app_context():
        assert _channels() == []
        assert game_of(game_id).seat(1).escalate_hours is None
        other = new_game()
        db.session.commit()
        notice_id = NoticeChannel(game_id=other.id, seat=1, service="slack", url=slack_url(),
                                  shown="Slack", position=1, failures=0)
        db.session.add(notice_id)
        db.session.commit()
        foreign = notice_id.id
    status, _ = _post(client, f"/play/{link}/notices/remove", form_token=form,
                      channel=str(foreign))
    assert status == 403  # another game's channel: no such channel here
    with chat_app.app_context():
        assert len(_channels()) == 1


def test_the_host_sets_the_table_channel(chat_app: Flask) -> None:
    game_id, _, _, host = _seat_page(chat_app)
    client = chat_app.test_client()
    status, page = _post(client, f"/host/{host}/table-channel", url=discord_url())
    assert status == 200 and "Discord · 127.0.0.1 · …_987" in page
    assert DISCORD_SECRET not in page
    status, page = _post(client, f"/host/{host}/table-channel", url="https://example.org/x")
    assert status == 400
    with chat_app.app_context():
        [table] = _channels()
        assert table.seat is None and table.service == "discord"
    _post(client, f"/host/{host}/table-channel/remove", channel=str(table.id))
    with chat_app.app_context():
        assert _channels() == []
